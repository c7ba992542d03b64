// Candy Jar Clusters' lobby card (GameModule.card): its pitch in the game's own terms and its
// features in plain words, their figures from the game's info as the server sends it.
import type { GameView } from "../../net/types";
import type { CardWords } from "../game/registry";

/** "GRAND" as a player reads it: "Grand". */
const named = (s: string) => `${s.slice(0, 1)}${s.slice(1).toLowerCase()}`;

export function candyCard(game: Pick<GameView, "info">): CardWords {
  const { info } = game;
  const features = [
    `Clusters of ${info.min_cluster ?? 6}+ matching sweets pay and tumble away`,
    "Random multipliers after any win",
    "Candy jars start free spins with wilds, extra spins or jackpots",
  ];
  const jackpots = info.jackpots ?? [];
  const [low, high] = [jackpots[0], jackpots.at(-1)];
  if (low && high) features.push(`Fixed jackpots from ${named(low.name)} (${low.pays_x.toLocaleString("en")}x) to ${named(high.name)} (${high.pays_x.toLocaleString("en")}x the bet)`);
  const grand = high ? ` and jackpots up to ${named(high.name)}` : "";
  return {
    pitch: `A sweet shop of tumbling clusters, three candy jars${grand}.`,
    features,
    headline: high ? { label: `${named(high.name)} jackpot`, value: `${high.pays_x.toLocaleString("en")}x the bet` } : undefined,
  };
}
