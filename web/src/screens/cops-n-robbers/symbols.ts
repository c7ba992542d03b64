// Cops n Robbers' symbols, authored SVG (our own art, art/*.svg): the robber (collector wild,
// striped jumper, mask, swag bag), the cop (bobby's helmet, whistle), the BONUS siren, three
// wrapped presents (each its colour and pattern, so mixed pays read apart), the money bag, the
// gold bars, the diamond, the card ranks as Christmas baubles and the Fortune Spins blank.
import type { SymbolArt, SymbolTable } from "../../render/symbols";
import { FONTS } from "../../render/fonts";
import { currencySymbol } from "../../core/money";
import blank from "./art/blank.svg?raw";
import bonus from "./art/bonus.svg?raw";
import cop from "./art/cop.svg?raw";
import diamond from "./art/diamond.svg?raw";
import goldbar from "./art/goldbar.svg?raw";
import moneybag from "./art/moneybag.svg?raw";
import ornament from "./art/ornament.svg?raw";
import presentGold from "./art/present-gold.svg?raw";
import presentGreen from "./art/present-green.svg?raw";
import presentRed from "./art/present-red.svg?raw";
import robber from "./art/robber.svg?raw";

/** "10" drawn as shapes: the face's old-style figures make it read "1o" on a bauble. */
const TEN_DIGITS = '<g stroke-linejoin="round"><path d="M66 88l20-12h14v74H84V96l-12 6z" fill="#fff" stroke="#140a18" stroke-width="4"/><ellipse cx="128" cy="113" rx="19" ry="31" fill="none" stroke="#140a18" stroke-width="21"/><ellipse cx="128" cy="113" rx="19" ry="31" fill="none" stroke="#fff" stroke-width="13"/></g>';

/** A rank on a bauble of its own colour: one bauble drawing, recoloured, with the letter in
 * the game's face over it (an SVG image cannot use the bundled webfonts), or `shapes` of its
 * own drawn on it. */
function bauble(label: string, base: number, light: string, dark: string, shapes = ""): SymbolArt {
  const hex = `#${base.toString(16).padStart(6, "0")}`;
  const svg = ornament.replace("BASE", hex).replace("LIGHT", light).replace("DARK", dark).replace("</svg>", `${shapes}</svg>`);
  return { colour: base, label, svg, font: FONTS.cops };
}

/** WILD on the wild's ribbon and BONUS on the siren's sash, in the bundled display face over
 * the art (set inside the SVG they fell back to the system's sans). */
const WILD = (fill: number, stroke: number) => ({ text: "WILD", y: 0.918, size: 0.105, font: FONTS.display, fill, stroke, spacing: 0.012 });

export const COPS_SYMBOLS: SymbolTable = {
  ROBBER: { colour: 0x5b3f8f, svg: robber, caption: WILD(0xfff3c4, 0x4a0508) },
  COP: { colour: 0x1d3557, svg: cop, caption: WILD(0xffffff, 0x061238) },
  BONUS: { colour: 0x35b6ff, svg: bonus, caption: { text: "BONUS", y: 0.842, size: 0.185, font: FONTS.display, fill: 0xfff3c4, stroke: 0x3a0408, spacing: 0.008 } },
  PRESENT_RED: { colour: 0xd7172a, svg: presentRed },
  PRESENT_GREEN: { colour: 0x1f8a4c, svg: presentGreen },
  PRESENT_GOLD: { colour: 0xe3a41a, svg: presentGold },
  // the coin on the bag is blank here: the game's screen sets its currency's sign on it
  // (withCurrency), so a bag in a EUR game does not show a pound
  MONEYBAG: { colour: 0xb48646, svg: moneybag },
  GOLDBAR: { colour: 0xe8ae26, svg: goldbar },
  DIAMOND: { colour: 0x4cc9f0, svg: diamond },
  A: bauble("A", 0xc1121f, "#ff7a7a", "#4a0508"),
  K: bauble("K", 0x1f5fd1, "#8ab8ff", "#0a1f55"),
  Q: bauble("Q", 0x1f8a4c, "#7fe0a4", "#0b3d22"),
  J: bauble("J", 0x7b3fb5, "#c9a0ff", "#2e0f50"),
  TEN: bauble("", 0xe06a12, "#ffc07a", "#6b2a00", TEN_DIGITS),
  BLANK: { colour: 0x1a1030, svg: blank },
};

/** The symbol table with the money bag's coin marked in `currency`'s sign (€, £, $): the
 * session's money, never a sign drawn into the art. */
export function withCurrency(table: SymbolTable, currency: string): SymbolTable {
  const bag = table.MONEYBAG;
  if (!bag) return table;
  const sign = currencySymbol(currency);
  return { ...table, MONEYBAG: { ...bag, caption: { text: sign, y: 0.665, size: sign.length > 1 ? 0.14 : 0.22, font: FONTS.display, fill: 0x6b3f00, stroke: 0xfff1a8, spacing: 0 } } };
}
