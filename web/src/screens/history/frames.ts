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

/** What REPLAY drives: name screen `i` (the picker, the position, the account's entry), play its
 * spin, and whether to go on (STOP pressed, the page left). */
export interface ReplaySteps {
  name(i: number): void;
  play(i: number): Promise<void>;
  going(): boolean;
}

/** REPLAY's walk: every screen that ends its spin (a spin is played whole, tumbles and all),
 * named before it plays, so the label names the spin on the reels, never the one before it
 * (the playtest read "Bonus spin 1" over the base spin, then the base spin's name over bonus
 * spin 1's win). */
export async function walkReplay(frames: Frame[], outcomes: Outcome[], steps: ReplaySteps): Promise<void> {
  for (let i = 0; i < frames.length && steps.going(); i++) {
    const f = frames[i] as Frame;
    const spin = outcomes[f.outcome]?.spins[f.spin];
    if (!spin || f.end < spin.events.length - 1) continue;
    steps.name(i);
    await steps.play(i);
  }
}
