// Cluedo MegaJackpots' plain account of a stored round (the history page): each line win with
// the MegaJackpots wild's x2 and the free spins' x3 named, the Mystery Bonus and its free spins
// (retriggers, the 180 cap), the MegaJackpot, the bonus total and the red/black gamble. The
// amounts are the events' and the steps' own; the free spins' multiplier is the free spins'
// `multiplier`, the spins awarded the server's `total_awarded`.
import type { Outcome, Spin } from "../../core/outcome";
import type { GameView, RoundView } from "../../net/types";
import type { AccountLine } from "../game/registry";
import { credits, genericWords, plural, roundAccount, symbolNamer, type OutcomeWords } from "../history/account";

/** The bonus's spins awarded before `spin` plays (the server's running `total_awarded`). */
function awardedBefore(outcome: Outcome, spin: Spin): number {
  let total = 0;
  for (const s of outcome.spins) {
    if (s.index >= spin.index) break;
    for (const e of s.events) if (e.type === "free_spins_award") total = e.total_awarded;
  }
  return total;
}

export function cluedoAccount(round: RoundView, game: GameView | undefined): AccountLine[] {
  const name = symbolNamer(game);
  const wild = game?.info.wilds?.[0]?.symbol ?? "MJ";
  const scatter = game?.info.free_games?.trigger ?? "BONUS";
  const words: OutcomeWords = {
    spinName: (spin, outcome) => (spin.kind === "free" ? `Free spin ${spin.index} of ${awardedBefore(outcome, spin)}` : "Spin"),
    events: {
      line_win: (e, { spin }) => {
        // the event's multiplier is the wild's x2 times the free spins' x3 (the spin's)
        const spinTimes = spin.multiplier > 1 ? spin.multiplier : 1;
        const wildTimes = e.multiplier / spinTimes;
        const parts = [
          wildTimes > 1 && e.symbol !== wild ? ` with the wild's x${wildTimes}` : "",
          spinTimes > 1 ? ` at the free spins' x${spinTimes}` : "",
        ];
        return `Line ${e.line}: ${e.count} ${name(e.symbol)}${parts.join("")} — ${credits(e.win)}`;
      },
      scatter_win: (e) => `${e.count} ${name(e.symbol)}${e.multiplier > 1 ? ` at the free spins' x${e.multiplier}` : ""} — ${credits(e.win)}`,
      free_spins_award: (e, { spin, outcome }) => {
        if (spin.kind === "base") {
          const times = outcome.spins.find((s) => s.kind === "free")?.multiplier ?? 1;
          return `${e.trigger_count} ${name(scatter)}: ${plural(e.spins_awarded, "free spin")}${times > 1 ? ` at x${times}` : ""}`;
        }
        if (e.spins_awarded < e.spins_requested) {
          return e.spins_awarded > 0
            ? `${e.trigger_count} ${name(scatter)}: ${plural(e.spins_awarded, "more free spin")}, the bonus reaches its maximum of ${e.total_awarded}`
            : `${e.trigger_count} ${name(scatter)}: no more free spins, the bonus is at its maximum of ${e.total_awarded}`;
        }
        return `${e.trigger_count} ${name(scatter)}: ${plural(e.spins_awarded, "more free spin")} (${e.total_awarded} in all)`;
      },
      progressive_jackpot: (e) => `MegaJackpot: ${e.count} ${name(e.symbol)} on line ${e.line}`,
    },
    closing: (outcome) => {
      if (!outcome.spins.some((s) => s.kind === "free")) return [];
      const total = outcome.breakdown.free_games ?? 0;
      return [`Bonus total: ${total > 0 ? credits(total) : "no win"} in ${plural(outcome.counters.free_spins_played, "free spin")}`];
    },
  };
  return roundAccount(round, words, genericWords(game));
}
