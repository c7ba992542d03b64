// The three Free Spins modifiers as a player meets them: each its own picture (art/mod-*.svg,
// drawn for this game in the jars' colours) and what it does, in the words of the server's
// information pages ("**WILD modifier**: 6 to 12 wild symbols are placed on the grid ..."), so
// the intro card and the phone's legend say the sheet's rules, never the client's. No DOM here
// but the picture's markup (a string).
import type { GameInfo, HelpPart } from "../../net/types";
import { JAR_NAMES, JARS, type Jar } from "./handlers";
import freeSpinsArt from "./art/mod-free-spins.svg?raw";
import jackpotsArt from "./art/mod-jackpots.svg?raw";
import wildArt from "./art/mod-wild.svg?raw";

/** Each modifier's picture: SVG markup whose ids a page holding several copies must make its
 * own (modifierArt). */
export const MODIFIER_ART: Record<Jar, string> = { wild: wildArt, free_spins: freeSpinsArt, jackpots: jackpotsArt };

export interface ModifierWords {
  /** One sentence: what it does in the round ("6 to 12 wild symbols are placed on the grid in
   * random positions on every spin."). */
  line: string;
  /** Its gist, a few words ("6 to 12 wild symbols"), where room is short (a phone). */
  gist: string;
}

const textOf = (p: HelpPart): string => (typeof p === "string" ? p : "strong" in p ? p.strong : "");
const firstSentence = (s: string) => /^(.+?\.)(\s|$)/.exec(s)?.[1] ?? s;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "at the start of the round, 1 to 4 additional free spins are awarded." -> "1 to 4 additional
 * free spins": what it brings, the sentence's subject (a phone's legend has two short lines). */
function gistOf(line: string): string {
  const m = /^(?:[^,]*,\s*)?(.+?) (?:are|is) \w+/i.exec(line);
  return m ? capital(m[1]!) : line.replace(/\.$/, "");
}

/** What each modifier does, from the pages: the free-spins list's "**X modifier**: ..." item,
 * else a sentence "When the X modifier is active, ..." (the jackpots page). A modifier the pages
 * do not describe is absent. */
export function modifierWords(info: Pick<GameInfo, "help">): Map<Jar, ModifierWords> {
  const out = new Map<Jar, ModifierWords>();
  const sections = info.help?.sections ?? [];
  for (const j of JARS) {
    const name = `${JAR_NAMES[j]} modifier`;
    for (const section of sections) {
      for (const block of section.blocks) {
        if (out.has(j)) break;
        if (block.kind === "ul") {
          const item = block.items.find((i) => i.some((p) => typeof p === "object" && "strong" in p && p.strong === name));
          if (!item) continue;
          const said = item.map(textOf).join("").slice(item.map(textOf).join("").indexOf(name) + name.length).replace(/^\s*:\s*/, "");
          const line = capital(firstSentence(said));
          out.set(j, { line, gist: gistOf(line) });
        } else if (block.kind === "p") {
          const said = block.parts.map(textOf).join("");
          const m = new RegExp(`When the ${name} is active, ([^:.]+)`, "i").exec(said);
          if (!m) continue;
          const line = `${capital(m[1]!.trim())}.`;
          out.set(j, { line, gist: gistOf(line) });
        }
      }
    }
  }
  return out;
}
