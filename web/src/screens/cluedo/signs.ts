// Cluedo's signs under the reels on a phone (view.ts): the MegaJackpot, the Mystery Bonus and
// the wild's double, each a title and one short line, in the room the gamble's panel opens in
// (a portrait screen's reels take its width, so its height left a bare band of the hall between
// the reels and the console). The words come from the game's figures as the server sends them.
import type { GameInfo } from "../../net/types";
import { jackpotLine } from "../../ui/intro";

export interface CluedoSign {
  kind: "jackpot" | "bonus" | "wild";
  title: string;
  line: string;
}

/** The signs the game's `info` has the figures for (a game without a feature shows no sign of it). */
export function cluedoSigns(info: GameInfo): CluedoSign[] {
  const signs: CluedoSign[] = [];
  const jackpot = info.progressive_jackpot;
  if (jackpot) signs.push({ kind: "jackpot", title: "MEGAJACKPOT", line: `${jackpot.count} on ${jackpotLine(info)}${jackpot.requires_max_bet ? " at max bet" : ""}` });
  const free = info.free_games;
  if (free?.award.length) {
    const [count, spins] = [...free.award].sort((a, b) => a[0] - b[0])[0] as [number, number];
    signs.push({ kind: "bonus", title: "MYSTERY BONUS", line: `${count}+ anywhere: ${spins} free spins${free.multiplier > 1 ? `, wins x${free.multiplier}` : ""}` });
  }
  const wild = info.wilds?.find((w) => w.multiplier > 1);
  if (wild) {
    const name = info.symbols.find((s) => s.id === wild.symbol)?.name ?? "The wild";
    signs.push({ kind: "wild", title: `WILD x${wild.multiplier}`, line: `${name} ${wild.multiplier === 2 ? "doubles" : `multiplies by ${wild.multiplier}`} a line's pay` });
  }
  return signs;
}
