// The screens of a stored round (history page, screens.ts): one for each window or grid the
// outcome lands, so every spin, every free spin and every tumble can be looked at. No Pixi here.
import type { Outcome, OutcomeEvent } from "../../core/outcome";

/** One screen: the outcome (0: the round's, then any bonus won on a wheel), the spin, the last
 * event shown (the one before the next window or grid), the tumble it shows (0: the landing). */
export interface Frame {
  outcome: number;
  spin: number;
  end: number;
  tumble: number;
}

const lands = (e: OutcomeEvent) => e.type === "window" || e.type === "grid";

/** Every screen of the outcomes: one per window or grid event, each up to the next one. */
export function framesOf(outcomes: Outcome[]): Frame[] {
  const frames: Frame[] = [];
  outcomes.forEach((outcome, o) => outcome.spins.forEach((spin, s) => {
    const starts = spin.events.flatMap((e, i) => (lands(e) ? [i] : []));
    if (!starts.length) starts.push(0);
    starts.forEach((start, k) => {
      const next = starts[k + 1] ?? spin.events.length;
      const e = spin.events[start];
      frames.push({ outcome: o, spin: s, end: Math.max(start, next - 1), tumble: e?.type === "grid" ? e.tumble : 0 });
    });
  }));
  return frames;
}
