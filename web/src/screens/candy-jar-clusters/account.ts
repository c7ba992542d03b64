// Candy Jar Clusters' plain account of a stored round (the history page): each cluster with its
// wilds and golden wilds, each tumble, the random multiplier and what the spin then pays, the
// candies collected into the jars and the Free Spins they trigger with their modifiers, placed
// wilds, EXTRA FREE SPIN symbols and super spins, the fixed jackpots, the win cap. Amounts are
// the events' own (a cluster's `win`, a spin's `win` after its multiplier, a jackpot's `win`);
// which free spin a spin is and of how many comes from the outcome (counterOf, as on screen).
import type { GameView, RoundView } from "../../net/types";
import type { AccountLine } from "../game/registry";
import { credits, genericWords, listed, plural, roundAccount, symbolNamer, type OutcomeWords } from "../history/account";
import { counterOf, JAR_CANDY, JARS, type Jar } from "./handlers";

const MODIFIERS: Record<string, string> = { wild: "Wilds", free_spins: "Free Spins", jackpots: "Jackpots" };

export function candyAccount(round: RoundView, game: GameView | undefined): AccountLine[] {
  const name = symbolNamer(game);
  const words: OutcomeWords = {
    spinName: (spin, outcome) => {
      const counter = counterOf(outcome, spin);
      if (!counter) return "Spin";
      return counter.kind === "free" ? `Free spin ${counter.spin} of ${counter.of}` : `Super spin ${counter.spin}`;
    },
    events: {
      grid: (e) => (e.tumble > 0 ? `Tumble ${e.tumble}: ${plural(e.refilled, "new candy", "new candies")} drop in` : null),
      cluster_win: (e) => {
        const wilds = e.wilds > 0 ? ` with ${plural(e.wilds, "wild")}` : "";
        const golden = e.wild_multiplier > 1 ? `, golden wilds x${e.wild_multiplier}` : "";
        return `Cluster of ${e.size} ${name(e.symbol)}${wilds}${golden} — ${credits(e.win)}`;
      },
      // the spin's heading says what it pays after the multiplier (the spin's `win`)
      random_multiplier: (e) => (e.value > 1 ? `Random multiplier x${e.value} on the spin's wins` : null),
      jars: (e) => {
        const counts: Record<Jar, number> = { wild: e.wild, free_spins: e.free_spins, jackpots: e.jackpots };
        const filled = JARS.filter((j) => counts[j] > 0).map((j) => `${counts[j]} ${name(JAR_CANDY[j])}`);
        if (!filled.length) return null;
        return `Into the jars: ${listed(filled)}${e.triggered ? " — the jars trigger Free Spins" : ""}`;
      },
      free_spins_triggered: (e) => {
        const mods = e.modifiers.map((m) => MODIFIERS[m] ?? m);
        const extra = e.extra_spins_at_start > 0 ? ` (${plural(e.extra_spins_at_start, "extra spin")} at the start)` : "";
        return `Free Spins: ${plural(e.spins, "free spin")}${extra}${mods.length ? ` with the ${listed(mods)} modifier${mods.length > 1 ? "s" : ""}` : ""}`;
      },
      wilds_placed: (e) => `${plural(e.count, "wild")} placed${e.golden_multiplier > 0 ? `, golden wilds x${e.golden_multiplier}` : ""}`,
      extra_free_spins: (e) => {
        const parts = [`${plural(e.collected, `${name("EXTRA")} symbol`)} collected: ${plural(e.spins_awarded, "free spin")} in all`];
        if (e.super_spins_awarded > 0) parts.push(`${plural(e.super_spins_awarded, "super spin")} won`);
        else parts.push(`${e.toward_super_spin} toward the next super spin`);
        return parts.join("; ");
      },
      jackpot: (e) => `${name(e.jackpot)} jackpot${e.multiplier > 1 ? ` x${e.multiplier}` : ""} — ${credits(e.win)}`,
    },
    closing: (outcome) => (outcome.spins.length > 1
      ? [`Free Spins over: ${plural(outcome.counters.free_spins_played, "free spin")}${outcome.counters.super_spins_played ? ` and ${plural(outcome.counters.super_spins_played, "super spin")}` : ""} paid ${credits(outcome.breakdown.free_spins ?? 0)}${outcome.breakdown.jackpots ? `, the jackpots ${credits(outcome.breakdown.jackpots)}` : ""}`]
      : []),
  };
  return roundAccount(round, words, genericWords(game));
}
