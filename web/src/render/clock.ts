// Animation time is wall-clock time, never a frame count: on a slow renderer (a software
// WebGL at 1 or 2 frames a second) an animation meant to take 800 ms still ends after about
// 800 ms, drawing fewer frames. Pixi's `ticker.deltaMS` cannot be used for that: it is capped
// at 100 ms a frame (the ticker's minFPS of 10), so at 2 fps everything driven by it ran five
// times too long and the event player's 10 s handler timeout failed the round.

/** Milliseconds on a monotonic clock (performance.now() in the browser). */
export type Clock = () => number;

export const wallClock: Clock = () => performance.now();

/** The longest step one frame may take (a frame this late has outlived the player's handler
 * timeout anyway): guards against a bogus clock, never shortens a real slow frame. */
export const MAX_FRAME_MS = 10_000;

/** The time from `last` to `now`, in [0, MAX_FRAME_MS] (0 for a clock that went back or NaN). */
export function frameDelta(now: number, last: number): number {
  const d = now - last;
  return d > 0 ? Math.min(d, MAX_FRAME_MS) : 0;
}

/** A developer's cap on frames drawn a second, from localStorage (the e2e harness sets it:
 * software WebGL saturates the CPU drawing frames nobody looks at; animations run on the wall
 * clock, so a capped page shows the same states at the same times). 0: none. */
export const FRAME_CAP_KEY = "reelforge.dev.maxFps";

export function frameCap(storage: Pick<Storage, "getItem"> | undefined): number {
  const n = Number(storage?.getItem(FRAME_CAP_KEY) ?? 0);
  return Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), 240) : 0;
}
