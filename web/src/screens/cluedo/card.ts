// The gamble's playing cards, drawn here (original SVG, the mansion's 1920s deco): the back in
// oxblood and gilt with a magnifying glass over a keyhole, the faces printed on ivory, a red
// ace of hearts and a black ace of spades (the sheet's deck: equal red and black aces). Our own
// markup from the bundle, never data from a request.

export type CardColour = "red" | "black";

const HEART = "M50 90C20 64 4 48 4 29 4 14 15 4 28 4c10 0 18 6 22 15C54 10 62 4 72 4c13 0 24 10 24 25 0 19-16 35-46 61Z";
const SPADE = "M50 3c12 20 46 37 46 59 0 14-10 22-22 22-10 0-17-5-21-12 1 10 5 18 13 24H34c8-6 12-14 13-24-4 7-11 12-21 12C14 84 4 76 4 62 4 40 38 23 50 3Z";

/** A suit's path in a 100 x 100 box. */
export function suitPath(colour: CardColour): string {
  return colour === "red" ? HEART : SPADE;
}

/** Rays of a deco fan from (cx, cy), `n` of them over `spread` degrees around `towards`. */
function fan(cx: number, cy: number, r: number, n: number, towards: number, spread: number, stroke: string, width: number, opacity: number): string {
  let d = "";
  for (let i = 0; i < n; i++) {
    const a = ((towards - spread / 2 + (spread * i) / (n - 1)) * Math.PI) / 180;
    d += `M${cx} ${cy}L${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`;
  }
  return `<path d="${d}" stroke="${stroke}" stroke-width="${width}" opacity="${opacity}" fill="none"/>`;
}

/** Each drawing's own ids: a gradient referenced by id resolves to the document's first
 * element of that id, which may sit in a hidden copy (then nothing is painted). */
let drawn = 0;

/** The back: every card of the deck and the one about to turn. */
export function cardBackSvg(): string {
  const k = ++drawn;
  const corners = [[22, 22, 45], [178, 22, 135], [178, 258, 225], [22, 258, 315]]
    .map(([x, y, a]) => fan(x!, y!, 34, 7, a!, 80, "#e9c86a", 1.6, 0.9)).join("");
  return `<svg viewBox="0 0 200 280" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
<defs><linearGradient id="cb-ox-${k}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#9a1426"/><stop offset="1" stop-color="#4a0610"/></linearGradient>
<linearGradient id="cb-gilt-${k}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff1b0"/><stop offset=".45" stop-color="#e3b64e"/><stop offset=".55" stop-color="#9a6a1c"/><stop offset="1" stop-color="#f2d27a"/></linearGradient>
<pattern id="cb-lattice-${k}" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><path d="M0 0H16M0 0V16" stroke="#d4af37" stroke-width="1" opacity=".35"/></pattern></defs>
<rect x="2" y="2" width="196" height="276" rx="14" fill="url(#cb-ox-${k})" stroke="#f3ead7" stroke-width="3"/>
<rect x="12" y="12" width="176" height="256" rx="8" fill="url(#cb-lattice-${k})" stroke="url(#cb-gilt-${k})" stroke-width="3"/>
<rect x="18" y="18" width="164" height="244" rx="5" fill="none" stroke="#e9c86a" stroke-width="1"/>
${corners}
<path d="M100 58L162 140 100 222 38 140Z" fill="#5a0812" stroke="url(#cb-gilt-${k})" stroke-width="4"/>
<path d="M100 72L151 140 100 208 49 140Z" fill="none" stroke="#e9c86a" stroke-width="1.2"/>
${fan(100, 140, 56, 13, 270, 120, "#e9c86a", 1, 0.45)}
<circle cx="94" cy="130" r="26" fill="#2a0408" stroke="url(#cb-gilt-${k})" stroke-width="6"/>
<circle cx="94" cy="130" r="19" fill="#f6e7b8" opacity=".18"/>
<path d="M94 118a7 7 0 0 1 4 12.7L101 144H87l3-13.3A7 7 0 0 1 94 118Z" fill="#e9c86a"/>
<path d="M112 149l22 22" stroke="url(#cb-gilt-${k})" stroke-width="10" stroke-linecap="round"/>
<path d="M112 149l22 22" stroke="#5a3608" stroke-width="3" stroke-linecap="round" opacity=".6"/>
</svg>`;
}

/** A face: the ace of hearts (red) or of spades (black). */
export function cardFaceSvg(colour: CardColour): string {
  const k = ++drawn;
  const ink = colour === "red" ? "#b3121f" : "#14110f";
  const suit = suitPath(colour);
  const index = (x: number, y: number, turn: number) => `<g transform="translate(${x} ${y}) rotate(${turn})">
<text x="0" y="0" text-anchor="middle" font-family="Limelight, Georgia, serif" font-size="34" fill="${ink}">A</text>
<path d="${suit}" transform="translate(-11 8) scale(.22)" fill="${ink}"/></g>`;
  return `<svg viewBox="0 0 200 280" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
<defs><linearGradient id="cf-ivory-${k}" x1="0" y1="0" x2=".4" y2="1"><stop offset="0" stop-color="#fffdf6"/><stop offset="1" stop-color="#eadcb8"/></linearGradient>
<radialGradient id="cf-glow-${k}" cx=".5" cy=".5" r=".5"><stop offset="0" stop-color="${colour === "red" ? "#ffd9d2" : "#f3e6c4"}"/><stop offset="1" stop-color="#fffdf6" stop-opacity="0"/></radialGradient></defs>
<rect x="2" y="2" width="196" height="276" rx="14" fill="url(#cf-ivory-${k})" stroke="#5a3608" stroke-width="3"/>
<rect x="12" y="12" width="176" height="256" rx="8" fill="none" stroke="#c9a13e" stroke-width="2.5"/>
<rect x="17" y="17" width="166" height="246" rx="5" fill="none" stroke="${ink}" stroke-width=".8" opacity=".5"/>
<circle cx="100" cy="140" r="74" fill="url(#cf-glow-${k})"/>
${fan(100, 140, 80, 17, 270, 150, "#c9a13e", 1.2, 0.55)}
${fan(100, 140, 80, 17, 90, 150, "#c9a13e", 1.2, 0.55)}
<path d="${suit}" transform="translate(58 98) scale(.84)" fill="${ink}" stroke="#c9a13e" stroke-width="2"/>
<path d="${suit}" transform="translate(70 110) scale(.2)" fill="#fff" opacity=".35"/>
${index(36, 50, 0)}${index(164, 230, 180)}
</svg>`;
}

/** A card of the gamble's history, small (about 14 x 20 CSS px): the ace's suit on ivory in a
 * gilt rim, or the deck's oxblood back with its gilt diamond (`colour` null). Drawn without
 * gradients (no ids to collide) and without the index corners, which blur at that size. */
export function miniCardSvg(colour: CardColour | null): string {
  const open = `<svg viewBox="0 0 40 56" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">`;
  if (!colour) {
    return `${open}<rect x="1" y="1" width="38" height="54" rx="5" fill="#7a0c1c" stroke="#f3ead7" stroke-width="2"/>
<rect x="5" y="5" width="30" height="46" rx="2" fill="none" stroke="#e3b64e" stroke-width="2"/>
<path d="M20 14L29 28 20 42 11 28Z" fill="#4a0610" stroke="#e9c86a" stroke-width="2"/></svg>`;
  }
  const ink = colour === "red" ? "#b3121f" : "#14110f";
  return `${open}<rect x="1" y="1" width="38" height="54" rx="5" fill="#fbf5e4" stroke="#5a3608" stroke-width="2"/>
<rect x="4.5" y="4.5" width="31" height="47" rx="2.5" fill="none" stroke="#c9a13e" stroke-width="1.6"/>
<path d="${suitPath(colour)}" transform="translate(7 15) scale(.26)" fill="${ink}"/></svg>`;
}

/** A suit alone, in the text's colour: the picture on the RED and BLACK buttons. */
export function suitIconSvg(colour: CardColour): string {
  return `<svg class="suit" viewBox="0 0 100 100" aria-hidden="true"><path d="${suitPath(colour)}" fill="currentColor"/></svg>`;
}
