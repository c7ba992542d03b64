// Animations run on the wall clock, not on frames: with a fake clock and only 2 frames a second
// (a software-WebGL browser), a reel landing, a cluster game's tumble on the reels and the
// candy grid's landing and tumble each end within their nominal time plus one frame, as they
// do at 60 fps. Before, their step was capped per frame (Pixi's deltaMS stops at 100 ms), so
// at 2 fps they ran 5 times too long and the event player's 10 s timeout failed the round.
// Pixi is replaced by a minimal stand-in (Vitest runs in node, without WebGL).
import { describe, expect, it, vi } from "vitest";

vi.mock("pixi.js", () => import("./pixi-stub"));

import { ReelSet } from "../../src/render/reels";
import { CandyGrid } from "../../src/screens/candy-jar-clusters/grid";
import { tumbleMoves } from "../../src/screens/candy-jar-clusters/tumble";
import { PROFILES } from "../../src/render/quality";
import { frameDelta, MAX_FRAME_MS } from "../../src/render/clock";
import { timeline } from "../../src/core/timing";

/** A fake clock and ticker: `frame()` lets 1000/fps ms pass, then runs the ticker's listener
 * with what Pixi would hand it (deltaMS capped at 100 ms, the raw elapsedMS). */
function fakeFrames(fps: number) {
  let now = 5000;
  let listener: ((t: { deltaMS: number; elapsedMS: number }) => void) | null = null;
  const ticker = { add: (f: (t: { deltaMS: number; elapsedMS: number }) => void, ctx: unknown) => { listener = f.bind(ctx); }, remove() {} };
  const step = 1000 / fps;
  return {
    ticker,
    step,
    clock: () => now,
    wait(ms: number) { now += ms; },
    frame() { now += step; listener?.({ deltaMS: Math.min(step, 100), elapsedMS: step }); },
  };
}

/** Frames until `work` resolves (at most `limit`); the wall-clock ms it took. */
async function timed(f: ReturnType<typeof fakeFrames>, work: Promise<void>, limit = 200): Promise<number> {
  const t0 = f.clock();
  let done = false;
  void work.then(() => { done = true; });
  for (let i = 0; i < limit && !done; i++) {
    f.frame();
    await new Promise((r) => setTimeout(r, 0)); // the promise chains after a frame (a tumble's second phase)
  }
  expect(done).toBe(true);
  return f.clock() - t0;
}

const textures = { get: (id: string) => ({ id, width: 100 }) };
const STRIPS = [["A", "B", "C", "D", "E"], ["B", "C", "D", "E", "A"], ["C", "D", "E", "A", "B"], ["D", "E", "A", "B", "C"], ["E", "A", "B", "C", "D"]];
const WINDOW = [["Q", "K", "J"], ["K", "J", "Q"], ["J", "Q", "K"], ["Q", "Q", "Q"], ["K", "K", "K"]];

/** The reels' landing time by their model: the run-up left over the speed, for the last reel. */
function nominalLanding(reels: ReelSet): number {
  return Math.max(...reels.models.map((m) => ((m.target - m.offset) / m.speed) * 1000));
}

describe("animations on the wall clock", () => {
  it("clamps a frame's time only against a bogus clock", () => {
    expect(frameDelta(1500, 1000)).toBe(500);
    expect(frameDelta(4000, 1000)).toBe(3000); // 0.3 fps: the whole frame counts
    expect(frameDelta(900, 1000)).toBe(0);
    expect(frameDelta(Number.NaN, 1000)).toBe(0);
    expect(frameDelta(1e9, 0)).toBe(MAX_FRAME_MS);
  });

  for (const fps of [2, 60]) {
    it(`a reel spin and landing at ${fps} fps ends within its nominal time plus one frame`, async () => {
      const f = fakeFrames(fps);
      const reels = new ReelSet(textures as never, { reels: 5, rows: 3, cell: 100, gap: 8, strips: STRIPS }, PROFILES.HIGH, f.ticker as never, f.clock);
      reels.startSpin();
      for (let i = 0; i < fps; i++) f.frame(); // a second of spinning while the server answers
      f.wait(f.step * 0.4); // the answer comes between two frames
      const landing = reels.land(WINDOW);
      const nominal = nominalLanding(reels);
      expect(nominal).toBeGreaterThan(900); // the look on a fast machine: 22 cells a second, a staggered stop
      expect(nominal).toBeLessThan(1200);
      const took = await timed(f, landing);
      expect(took).toBeLessThanOrEqual(nominal + f.step);
      expect(took).toBeGreaterThanOrEqual(nominal - f.step);
      expect(reels.models.map((m) => m.visible())).toEqual(WINDOW);
      expect(reels.spinning).toBe(false);
    });

    it(`a tumble on the reels (stagger 0, a cluster game's generic view) at ${fps} fps ends in time`, async () => {
      const f = fakeFrames(fps);
      const reels = new ReelSet(textures as never, { reels: 5, rows: 3, cell: 100, gap: 8, strips: STRIPS }, PROFILES.BEST, f.ticker as never, f.clock);
      reels.show(WINDOW);
      const landing = reels.land(WINDOW.map((c) => [...c].reverse()), { stagger: 0 });
      const nominal = nominalLanding(reels);
      const took = await timed(f, landing);
      expect(took).toBeLessThanOrEqual(nominal + f.step);
      expect(took).toBeGreaterThanOrEqual(nominal - f.step);
    });

    it(`the candy grid's landing and tumble at ${fps} fps end within their nominal time plus one frame`, async () => {
      const f = fakeFrames(fps);
      const grid = new CandyGrid(textures as never, { cols: 7, rows: 7, cell: 88 }, PROFILES.HIGH, f.ticker as never, f.clock);
      const column = ["A", "B", "C", "D", "E", "F", "G"];
      const before = Array.from({ length: 7 }, () => [...column]);
      // landing: 520 ms per candy, column c starts 70c ms late, row r (7 - r) * 12 ms late
      const landNominal = 6 * 70 + 7 * 12 + 520;
      const took = await timed(f, grid.land(before));
      expect(took).toBeGreaterThanOrEqual(landNominal);
      expect(took).toBeLessThanOrEqual(landNominal + f.step);
      expect(grid.current()).toEqual(before);
      // tumble: B, D, F of column 2 pop (260 ms), A C E G fall, 3 refills drop in (420 ms, 30 ms apart)
      const after = before.map((c) => [...c]);
      after[2] = ["X", "Y", "Z", "A", "C", "E", "G"];
      const removed: [number, number][] = [[2, 1], [2, 3], [2, 5]];
      expect(tumbleMoves(before[2]!, after[2]!, new Set([1, 3, 5]))).not.toBeNull();
      const tumbleNominal = 260 + 2 * 30 + 420;
      const took2 = await timed(f, grid.tumble(after, removed));
      expect(took2).toBeGreaterThanOrEqual(tumbleNominal);
      expect(took2).toBeLessThanOrEqual(tumbleNominal + f.step);
      expect(grid.current()).toEqual(after);
      expect(grid.animating).toBe(false);
    });
  }

  it("a timeline's steps end at their times on the clock: a late timer does not delay the next step", async () => {
    let now = 0;
    const tl = timeline(() => now);
    now = 700; // the page was blocked by a 700 ms frame: the steps due at 100, 300 and 600 ms are over
    let ran = 0;
    await Promise.race([(async () => { await tl.at(100); await tl.at(300); await tl.at(600); ran = 3; })(), new Promise((r) => setTimeout(r, 50))]);
    expect(ran).toBe(3);
    expect(tl.elapsed()).toBe(700);
  });
});
