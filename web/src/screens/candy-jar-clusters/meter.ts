// Candy Jar's WIN meter through a spin: a running total that moves with each pay the screen
// tells (a cluster, the random multiplier, a jackpot), so the meter never reads less than the
// pays already shown. It ends on the spin's own win (the server's, the cap applied): the
// client only adds up what the outcome's events say. No Pixi: unit-tested on the fixtures.
import type { Spin } from "../../core/outcome";

export interface MeterStep {
  /** Credits the WIN meter shows once this event has played (the round's spins before it
   * included). */
  meter: number;
  /** Credits won in the round's spins before this one. */
  before: number;
  /** The random multiplier in play at this event (1: none yet): the sheet's "multipliers apply
   * to all wins from that spin and subsequent tumbles". */
  times: number;
}

/** One step per event of `spin`: `before` (the round's credits won in earlier spins) plus the
 * spin's cluster pays so far times the multiplier in play, plus its jackpots; never above
 * `before` + the spin's win. */
export function meterSteps(spin: Pick<Spin, "events" | "win">, before: number): MeterStep[] {
  let clusters = 0, jackpots = 0, times = 1;
  return spin.events.map((e) => {
    if (e.type === "cluster_win") clusters += e.win;
    else if (e.type === "random_multiplier" && e.value > 1) times = e.value;
    else if (e.type === "jackpot") jackpots += e.win;
    return { meter: before + Math.min(spin.win, clusters * times + jackpots), before, times };
  });
}
