// Every wait has a deadline: an animation that never calls back must not hang the game.

export class TimeoutError extends Error {
  constructor(readonly what: string, readonly ms: number) {
    super(`${what}: not done after ${ms} ms`);
    this.name = "TimeoutError";
  }
}

export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
    work.then(
      (v) => { clearTimeout(timer); resolve(v); },
      (e) => { clearTimeout(timer); reject(e); },
    );
  });
}

/** `work` within `ms`; past it, `late` is told and the wait ends, the work left to finish by
 * itself: an animation that overruns on a slow device (a software renderer under load) must not
 * stop what follows it. Any other failure of `work` is thrown. */
export async function withinOrLate(work: Promise<unknown>, ms: number, what: string, late: (exc: TimeoutError) => void): Promise<void> {
  try {
    await withTimeout(work, ms, what);
  } catch (exc) {
    if (!(exc instanceof TimeoutError)) throw exc;
    late(exc);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A schedule on the wall clock from the moment it is made: `at(ms)` resolves once `ms` have
 * passed since then (at once when they have). A sequence of steps awaited with `at` takes its
 * nominal total however late each timer fires; a chain of `sleep`s would add every delay (on a
 * slow renderer each timer waits for the frame that blocks the page: 10 sleeps of 30 ms took
 * 10 frames). `elapsed()` is the time since the start. */
export function timeline(clock: () => number = () => performance.now()): { at(ms: number): Promise<void>; elapsed(): number } {
  const start = clock();
  const elapsed = () => clock() - start;
  // a timer may fire a millisecond or two early by this clock (CI saw a 2,000 ms card gone
  // after 1,998): what is left is waited out, so `at(ms)` never resolves before `ms`
  const at = (ms: number): Promise<void> => {
    const wait = ms - elapsed();
    return wait > 0 ? sleep(wait).then(() => at(ms)) : Promise.resolve();
  };
  return { elapsed, at };
}
