// Cluedo's lobby card (GameModule.card): its pitch in the game's own terms and its features in
// plain words, their figures from the game's info as the server sends it (a feature the game
// file lacks is not said).
import type { GameView } from "../../net/types";
import type { CardWords } from "../game/registry";

export function cluedoCard(game: Pick<GameView, "info" | "gamble">): CardWords {
  const { info } = game;
  const name = (id: string) => info.symbols.find((s) => s.id === id)?.name ?? id;
  const jackpot = info.progressive_jackpot;
  const features: string[] = [];
  const wild = info.wilds?.find((w) => w.multiplier > 1);
  if (wild) features.push(`Wild ${name(wild.symbol)} ${wild.multiplier === 2 ? "double" : `multiply by ${wild.multiplier}`} the line wins they complete`);
  const free = info.free_games;
  const first = free ? [...free.award].sort((a, b) => a[0] - b[0])[0] : undefined;
  if (free && first) {
    features.push(`${first[0]}+ ${name(free.trigger)}: ${first[1]} free spins on golden reels${free.multiplier > 1 ? `, wins x${free.multiplier}` : ""}`);
  }
  if (jackpot) features.push(`${jackpot.count} ${name(jackpot.symbol)} on line ${jackpot.line}${jackpot.requires_max_bet ? " at max bet" : ""} win the jackpot`);
  if (game.gamble !== "off") features.push(`Gamble ${game.gamble === "5x" ? "wins of 5x the stake or more" : "any win"} on red or black`);
  return {
    pitch: `A murder mystery at the Cluedo mansion${jackpot ? ", with a growing jackpot" : ""}.`,
    features,
  };
}
