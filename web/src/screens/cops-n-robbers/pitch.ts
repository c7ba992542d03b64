// Cops n Robbers' lobby card (GameModule.card): its pitch in the game's own terms and its
// features in plain words (the rule sheet's, as the signs under the reels say them); the
// trail's top multiplier is the trail's drawing (handlers.ts TRAIL), the Fortune Spins price the
// server's mode.
import type { GameView } from "../../net/types";
import type { CardWords } from "../game/registry";
import { TRAIL } from "./handlers";

export function copsCard(game: Pick<GameView, "modes" | "gamble">): CardWords {
  const top = Math.max(...Object.values(TRAIL.marks));
  const fortune = game.modes.find((m) => m.name === "fortune");
  const features = [
    "Robber wilds grab the cash on the presents in Fortune Spins and the bonus",
    `3+ Bonus symbols: the Big Money Bonus, a chase along a trail of multipliers up to ${top}x`,
  ];
  if (fortune) features.push(`Fortune Spins: ${fortune.price}x the stake for reels of presents and robbers`);
  if (game.gamble !== "off") features.push(`Gamble ${game.gamble === "5x" ? "wins of 5x the stake or more" : "any win"} on the cash and bonus wheels`);
  return {
    pitch: "A Christmas heist: the robber grabs the presents' cash, the cop gives chase.",
    features,
    headline: { label: "Big Money Bonus", value: `Trail up to ${top}x` },
  };
}
