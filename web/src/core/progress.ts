// How far this tab has shown a round, kept across a reload (sessionStorage): the round and the
// outcome spin on screen. After a reload in the middle of a round the game redraws that spin's
// final screen and plays on from the next; after a finished round it shows its last screen
// again instead of the start screen. Display only: the server holds the round.
import type { KeyValue } from "./session";

export interface Progress {
  round_id: string;
  /** Position in outcome.spins of the spin being shown. */
  spin: number;
  /** Every spin was shown (the round settled or stopped at its choice on screen). */
  done: boolean;
}

const keyOf = (game: string) => `reelforge.progress.${game}`;

export function saveProgress(storage: KeyValue, game: string, progress: Progress): void {
  storage.setItem(keyOf(game), JSON.stringify(progress));
}

export function loadProgress(storage: KeyValue, game: string): Progress | null {
  const raw = storage.getItem(keyOf(game));
  if (!raw) return null;
  try {
    const p = JSON.parse(raw) as Partial<Progress>;
    if (typeof p.round_id === "string" && Number.isInteger(p.spin) && (p.spin as number) >= 0 && typeof p.done === "boolean") return p as Progress;
  } catch { /* a value this code did not write: forget it */ }
  storage.removeItem(keyOf(game));
  return null;
}
