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

const portrait = (svg: string) => inset(svg, PORTRAIT_SHARE);

export const CLUEDO_SYMBOLS: SymbolTable = {
  MJ: { colour: 0xd4af37, svg: mj },
  BONUS: { colour: 0x1f5a5a, svg: bonus },
  SCARLET: { colour: 0xc8102e, svg: portrait(scarlet) },
  MUSTARD: { colour: 0xe3a90e, svg: portrait(mustard) },
  PLUM: { colour: 0x6b2a7a, svg: portrait(plum) },
  PEACOCK: { colour: 0x1f5fbf, svg: portrait(peacock) },
  GREEN: { colour: 0x1f7a4a, svg: portrait(green) },
  CANDLESTICK: { colour: 0xa0282a, svg: candlestick },
  DAGGER: { colour: 0x2a6a6e, svg: dagger },
  REVOLVER: { colour: 0x6a4a8a, svg: revolver },
  ROPE: { colour: 0x4a6a2a, svg: rope },
  WRENCH: { colour: 0x2a4a8a, svg: wrench },
};
