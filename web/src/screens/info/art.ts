// The pictures beside a feature's rules on a game's information page: the game's own art, as
// its screen draws it (a symbol: the reels' image of it, symbol-images.ts; else the SVG file
// the screen shows, or a picture drawn here where the screen draws it in code, drawn-art.ts),
// staged in a small framed scene (info.css .info-art). Decoration only: the rules' words say
// everything, so the pictures carry no text alternative.
import { h } from "../../ui/dom";
import suspectBert from "../cops-n-robbers/art/suspect-bert.svg?url";
import suspectSid from "../cops-n-robbers/art/suspect-sid.svg?url";
import suspectVic from "../cops-n-robbers/art/suspect-vic.svg?url";
import modFreeSpins from "../candy-jar-clusters/art/mod-free-spins.svg?url";
import modJackpots from "../candy-jar-clusters/art/mod-jackpots.svg?url";
import modWild from "../candy-jar-clusters/art/mod-wild.svg?url";
import { CARDS, WHEELS } from "./drawn-art";

/** A symbol of the game (by id) or a picture file of its screen. */
type Piece = { symbol: string } | { src: string };

const s = (symbol: string): Piece => ({ symbol });
const f = (src: string): Piece => ({ src });

/** game key -> help section id (the game's help.md `{#id}`) -> its pictures, left to right. */
const ART: Record<string, Record<string, Piece[]>> = {
  cluedo: {
    introduction: [s("SCARLET"), s("MUSTARD"), s("PLUM")],
    jackpot: [s("MJ")],
    "free-spins": [s("BONUS")],
    gamble: [f(CARDS)],
  },
  "cops-n-robbers": {
    "how-to-play": [s("COP"), s("ROBBER")],
    wilds: [s("ROBBER"), s("COP")],
    "mixed-pays": [s("PRESENT_RED"), s("PRESENT_GREEN"), s("PRESENT_GOLD")],
    "bonus-symbol": [s("BONUS")],
    "big-money-bonus": [s("COP"), s("MONEYBAG"), s("ROBBER")],
    "id-parade": [f(suspectBert), f(suspectSid), f(suspectVic)],
    "fortune-spins": [s("PRESENT_RED"), s("ROBBER"), s("PRESENT_GOLD")],
    gamble: [f(WHEELS)],
  },
  "candy-jar-clusters": {
    overview: [s("CUPCAKE"), s("LOLLIPOP"), s("BONBON")],
    tumble: [s("STRAWBERRY"), s("GRAPES"), s("LEMON")],
    multipliers: [s("WILD")],
    jars: [f(modWild), f(modFreeSpins), f(modJackpots)],
    "free-spins": [f(modFreeSpins)],
    jackpots: [f(modJackpots)],
  },
};

/** The picture for a section, or null where the game has none for it (or none of its pieces
 * could be drawn). */
export function sectionArt(game: string, section: string, images: Map<string, string>): HTMLElement | null {
  const pieces = (ART[game]?.[section] ?? [])
    .map((p) => ("src" in p ? p.src : images.get(p.symbol)))
    .filter((src): src is string => !!src);
  if (!pieces.length) return null;
  return h("figure", { class: `info-art pieces-${pieces.length}`, "aria-hidden": "true", "data-testid": "info-art" },
    ...pieces.map((src) => h("img", { src, alt: "", draggable: "false" })));
}
