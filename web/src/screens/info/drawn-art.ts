// Pictures drawn here for the features whose screens draw them in code rather than from a file
// (Cluedo's gamble deck, Cops' gamble wheels): small SVGs in each game's colours, as data URLs
// for an <img>. Constant markup, no text (an <img>'s SVG cannot reach the page's webfonts).
const url = (svg: string) => `data:image/svg+xml,${encodeURIComponent(svg)}`;

const HEART = "M0 6C-7-2-13 4-8 10L0 18 8 10C13 4 7-2 0 6Z";
const SPADE = "M0-2C-8 6-12 10-8 15-5 18-2 17 0 14-1 19-2 21-4 22H4C2 21 1 19 0 14 2 17 5 18 8 15 12 10 8 6 0-2Z";

/** An ace face up, at x (its suit red or black), tilted by `turn` degrees. */
function card(x: number, turn: number, suit: string, ink: string): string {
  return `<g transform="translate(${x} 62) rotate(${turn})">
<rect x="-30" y="-44" width="60" height="88" rx="7" fill="#fffaf0" stroke="#d4af37" stroke-width="3"/>
<rect x="-24" y="-38" width="48" height="76" rx="4" fill="none" stroke="#e8d7a8" stroke-width="1.5"/>
<path d="${suit}" transform="translate(0 -10) scale(1.6)" fill="${ink}"/>
<path d="${suit}" transform="translate(-17 -33) scale(.5)" fill="${ink}"/><path d="${suit}" transform="translate(17 27) rotate(180) scale(.5)" fill="${ink}"/>
</g>`;
}

/** Cluedo's gamble: a red ace and a black ace fanned over the card table's green baize. */
export const CARDS = url(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 120">
<ellipse cx="80" cy="112" rx="70" ry="8" fill="#000" opacity=".35"/>
${card(58, -12, SPADE, "#1a0804")}${card(102, 12, HEART, "#c8102e")}</svg>`);

/** A gamble wheel: `n` segments in turn of `colours`, a gilt rim and hub, a pointer on top. */
function wheel(cx: number, r: number, colours: readonly string[], n: number): string {
  const segs = Array.from({ length: n }, (_, i) => {
    const a0 = (i / n) * 2 * Math.PI - Math.PI / 2, a1 = ((i + 1) / n) * 2 * Math.PI - Math.PI / 2;
    const p = (a: number) => `${(cx + r * Math.cos(a)).toFixed(1)} ${(62 + r * Math.sin(a)).toFixed(1)}`;
    return `<path d="M${cx} 62L${p(a0)}A${r} ${r} 0 0 1 ${p(a1)}Z" fill="${colours[i % colours.length]}"/>`;
  }).join("");
  return `<g>${segs}<circle cx="${cx}" cy="62" r="${r}" fill="none" stroke="#ffd166" stroke-width="5"/>
<circle cx="${cx}" cy="62" r="${r + 3}" fill="none" stroke="#7a4a05" stroke-width="1.5"/>
<circle cx="${cx}" cy="62" r="${r * 0.22}" fill="#ffd166" stroke="#7a4a05" stroke-width="2"/>
<path d="M${cx - 7} ${62 - r - 10}h14l-7 16z" fill="#f4f8ff" stroke="#0b1438" stroke-width="2" stroke-linejoin="round"/></g>`;
}

/** Cops n Robbers' gamble: the cash wheel and the bonus wheel side by side. */
export const WHEELS = url(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 120">
${wheel(52, 44, ["#c1121f", "#f4f8ff", "#1f8a4c", "#f4f8ff"], 12)}${wheel(148, 44, ["#1f8a4c", "#ffd166", "#c1121f", "#2b3a78"], 8)}</svg>`);
