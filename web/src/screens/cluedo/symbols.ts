// Cluedo's symbols, authored SVG in art/ (our own artwork, lit from the top left): the five
// suspects as portraits in art-deco gilt frames, each told apart by silhouette as much as by
// colour (Scarlet's feathered bob, Mustard's pith helmet, Plum's mortarboard, Peacock's plumed
// brim, Green's dog collar); the weapons as objects on ivory plaques, each on its own velvet;
// the MegaJackpots wild as a gold star medallion with WILD on its ribbon; the Mystery Bonus as
// a magnifying glass over a case file. `colour` stays each symbol's own: the paytable and the
// highlights use it.
import { WIN_PULSE } from "../../render/reels";
import type { SymbolTable } from "../../render/symbols";
import bonus from "./art/bonus.svg?raw";
import candlestick from "./art/candlestick.svg?raw";
import dagger from "./art/dagger.svg?raw";
import green from "./art/green.svg?raw";
import mj from "./art/mj.svg?raw";
import mustard from "./art/mustard.svg?raw";
import peacock from "./art/peacock.svg?raw";
import plum from "./art/plum.svg?raw";
import revolver from "./art/revolver.svg?raw";
import rope from "./art/rope.svg?raw";
import scarlet from "./art/scarlet.svg?raw";
import wrench from "./art/wrench.svg?raw";

/** The share of its cell a suspect's card takes: their frames are drawn to the viewBox's edge,
 * and a winner pulses by WIN_PULSE, so at full size a card on the first or last reel lay over
 * the reels' frame (the playtest at 390x844: Professor Plum, Mrs White). Pulsed, it fits. */
export const PORTRAIT_SHARE = Math.floor(100 / (1 + WIN_PULSE)) / 100;

/** `svg` (a 200-unit square viewBox) drawn at `share` of its size, centred. */
export function inset(svg: string, share: number): string {
  const m = /^(\s*<svg[^>]*>)([\s\S]*)(<\/svg>\s*)$/.exec(svg);
  if (!m) throw new Error(`a Cluedo symbol's SVG does not open with <svg> and close with </svg>: ${svg.slice(0, 60)}`);
  const off = (200 * (1 - share)) / 2;
  return `${m[1]}<g transform="translate(${off} ${off}) scale(${share})">${m[2]}</g>${m[3]}`;
}



/** The weapons' ivory plaque (each SVG's gradient "i", top to bottom). */
const IVORY = '<stop offset="0" stop-color="#fbf4e0"/><stop offset="1" stop-color="#d8c699"/>';
/** On the golden reels the plaque is gold leaf, lit from the top left like the frame's gilt,
 * and its own gilt rim a shade darker (bronze) so the plate and its rim still read apart. */
const GOLD_LEAF = '<stop offset="0" stop-color="#fff1b0"/><stop offset=".45" stop-color="#e9c15a"/><stop offset="1" stop-color="#b07a22"/>';

/** A weapon's art on a gilded plaque: the free spins' golden reels ("the same reels over a
 * sepia scene", the gallery's reviewer said of the plain ones). */
export function gilded(svg: string): string {
  if (!svg.includes(IVORY)) throw new Error(`a Cluedo weapon's SVG has no ivory plaque to gild: ${svg.slice(0, 60)}`);
  return svg.replace(IVORY, GOLD_LEAF).replace('stroke="#8a6420" stroke-width="1.5"/>', 'stroke="#6a3c08" stroke-width="2.5"/>');
}

/** The share of its square a weapon's plaque takes across (each SVG's gilt plaque and its shadow,
 * x 20 to 182 of 200): narrower than a suspect's card, so on a phone's tall rows a weapon stood
 * in a dark column (the playtest at 390x844: "the reel window looks half empty"). */
export const PLAQUE_SHARE = (182 - 20) / 200;
/** The share of its SVG's square a suspect's gilt frame takes across (x 6 to 194 of 200). */
export const FRAME_SHARE = (194 - 6) / 200;
/** On stretched rows (a phone) the suspects' frames and the weapons' plaques are drawn
 * PORTRAIT_SHARE of their cell across, the most a winner pulsed by WIN_PULSE still fits in: the
 * row leaves them room above and below (the playtest at 390x844: symbols about 50 px in 70 px
 * columns, the tall window half empty). */
export const WEAPON_STRETCH_ZOOM = PORTRAIT_SHARE / PLAQUE_SHARE;
export const PORTRAIT_STRETCH_ZOOM = PORTRAIT_SHARE / (PORTRAIT_SHARE * FRAME_SHARE);

/** The name of the golden reels' look (SymbolTextures.look). */
export const GOLDEN = "golden";
const portrait = (svg: string) => ({ svg: inset(svg, PORTRAIT_SHARE), stretchZoom: PORTRAIT_STRETCH_ZOOM });
const weapon = (svg: string) => ({ svg, stretchZoom: WEAPON_STRETCH_ZOOM, variants: { [GOLDEN]: { svg: gilded(svg) } } });

export const CLUEDO_SYMBOLS: SymbolTable = {
  MJ: { colour: 0xd4af37, svg: mj },
  BONUS: { colour: 0x1f5a5a, svg: bonus },
  SCARLET: { colour: 0xc8102e, ...portrait(scarlet) },
  MUSTARD: { colour: 0xe3a90e, ...portrait(mustard) },
  PLUM: { colour: 0x6b2a7a, ...portrait(plum) },
  PEACOCK: { colour: 0x1f5fbf, ...portrait(peacock) },
  GREEN: { colour: 0x1f7a4a, ...portrait(green) },
  CANDLESTICK: { colour: 0xa0282a, ...weapon(candlestick) },
  DAGGER: { colour: 0x2a6a6e, ...weapon(dagger) },
  REVOLVER: { colour: 0x6a4a8a, ...weapon(revolver) },
  ROPE: { colour: 0x4a6a2a, ...weapon(rope) },
  WRENCH: { colour: 0x2a4a8a, ...weapon(wrench) },
};
