// Candy Jar Clusters' symbols, authored as SVG (art/, our own artwork, lit from the top left):
// a cupcake, a lollipop and a wrapped bonbon (the high symbols), four fruit-flavoured sweets (the
// low ones: a strawberry gummy, grape jelly beans, a lemon-slice gummy, a plum gumdrop),
// the WILD candy jar and the golden wild star with its multiplier, the three bonus peppermints
// in their jar colours, the striped EXTRA free spin token and the five jackpot coins. Each has
// its own colour and its own silhouette, so it reads at the ~45 px of a phone's 7x7 grid.
// Numbers and jackpot names are Pixi labels in the bundled faces (an SVG image cannot use them).
import type { SymbolArt, SymbolTable } from "../../render/symbols";
import { FONTS } from "../../render/fonts";
import bonbon from "./art/bonbon.svg?raw";
import candyGreen from "./art/candy-green.svg?raw";
import candyRed from "./art/candy-red.svg?raw";
import candyYellow from "./art/candy-yellow.svg?raw";
import cupcake from "./art/cupcake.svg?raw";
import extra from "./art/extra.svg?raw";
import goldenWild from "./art/golden-wild.svg?raw";
import grapes from "./art/grapes.svg?raw";
import grand from "./art/jackpot-grand.svg?raw";
import major from "./art/jackpot-major.svg?raw";
import maxi from "./art/jackpot-maxi.svg?raw";
import mini from "./art/jackpot-mini.svg?raw";
import minor from "./art/jackpot-minor.svg?raw";
import lemon from "./art/lemon.svg?raw";
import lollipop from "./art/lollipop.svg?raw";
import plum from "./art/plum.svg?raw";
import strawberry from "./art/strawberry.svg?raw";
import wild from "./art/wild.svg?raw";

/** The jar colours: YELLOW fills the WILD jar, RED the FREE SPINS jar, GREEN the JACKPOTS jar. */
export const JAR_COLOURS = { wild: 0xffd23f, free_spins: 0xef3e5c, jackpots: 0x3ccf6e } as const;

/** Art with its amount or name drawn over it in the celebration face. */
const labelled = (svg: string, colour: number, label: string): SymbolArt => ({ svg, colour, label, font: FONTS.display });

/** The golden wild: a gold-foil candy with its multiplier on the foil and WILD on its ribbon,
 * so a player knows it without the paytable. */
const golden = (times: string): SymbolArt => ({
  ...labelled(goldenWild, 0xffc21a, times),
  caption: { text: "WILD", font: FONTS.display, size: 0.16, fill: 0xffffff, stroke: 0x4a0010, y: 0.745, spacing: 0.01 },
});

export const CANDY_SYMBOLS: SymbolTable = {
  CUPCAKE: { svg: cupcake, colour: 0xff73b6 },
  LOLLIPOP: { svg: lollipop, colour: 0x1fb6e8 },
  BONBON: { svg: bonbon, colour: 0xff8a1f },
  STRAWBERRY: { svg: strawberry, colour: 0xee1c2e },
  GRAPES: { svg: grapes, colour: 0x9b3fe0 },
  LEMON: { svg: lemon, colour: 0xffdc1f },
  PLUM: { svg: plum, colour: 0x3d4fe0 },
  WILD: { svg: wild, colour: 0xff6fb0 },
  GOLDEN_WILD_2: golden("x2"),
  GOLDEN_WILD_3: golden("x3"),
  GOLDEN_WILD_5: golden("x5"),
  YELLOW: { svg: candyYellow, colour: JAR_COLOURS.wild },
  RED: { svg: candyRed, colour: JAR_COLOURS.free_spins },
  GREEN: { svg: candyGreen, colour: JAR_COLOURS.jackpots },
  EXTRA: labelled(extra, 0xe8173c, "+1"),
  MINI: labelled(mini, 0x5ec8f0, "MINI"),
  MINOR: labelled(minor, 0x63e08a, "MINOR"),
  MAJOR: labelled(major, 0xff9a52, "MAJOR"),
  MAXI: labelled(maxi, 0xc77dff, "MAXI"),
  GRAND: labelled(grand, 0xff3d6e, "GRAND"),
};
