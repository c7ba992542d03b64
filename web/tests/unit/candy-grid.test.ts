// The candy grid's sprites after each landing and tumble of the real fixtures: exactly one
// visible sprite per cell, showing the grid event's symbol, at its cell. Pixi is replaced by a
// minimal stand-in (Vitest runs in node, without WebGL); the ticker is driven by hand.
import { describe, expect, it, vi } from "vitest";

vi.mock("pixi.js", () => import("./pixi-stub"));

import { CandyGrid } from "../../src/screens/candy-jar-clusters/grid";
import { candyHandlers, candyHooks, type CandyView } from "../../src/screens/candy-jar-clusters/handlers";
import { EventPlayer } from "../../src/core/player";
import { validateOutcome, type Cell } from "../../src/core/outcome";
import { PROFILES } from "../../src/render/quality";
import { fixture } from "./fixtures";

interface FakeSprite { x: number; y: number; visible: boolean; alpha: number; texture: { id: string } }

function makeGrid() {
  let tick: (() => void) | null = null;
  const ticker = { add: (f: () => void, ctx: unknown) => { tick = f.bind(ctx); }, remove() {} };
  const textures = { get: (id: string) => ({ id, width: 88 }) };
  // the grid's clock: 50 ms pass between two frames, a frame every real millisecond
  let now = 0;
  const grid = new CandyGrid(textures as never, { cols: 7, rows: 7, cell: 88 }, PROFILES.LOW, ticker as never, () => now);
  const pump = setInterval(() => { now += 50; tick?.(); }, 1);
  return { grid, stop: () => clearInterval(pump) };
}

function visibleCells(grid: CandyGrid): Map<string, string[]> {
  const board = (grid as unknown as { board: { children: FakeSprite[] } }).board;
  const cells = new Map<string, string[]>();
  for (const s of board.children) {
    if (!s.visible || s.alpha <= 0.01) continue;
    const key = `${Math.floor(s.x / 88)},${Math.floor(s.y / 88)}`;
    cells.set(key, [...(cells.get(key) ?? []), s.texture.id]);
  }
  return cells;
}

describe("candy grid sprites", () => {
  it("after every grid event of every fixture round: one visible sprite per cell, the event's symbol", async () => {
    const f = fixture("candy-jar-clusters");
    const features = fixture("candy-jar-clusters-features");
    for (const [fx, r] of [...f.rounds.map((r) => [f, r] as const), ...features.rounds.map((r) => [features, r] as const)]) {
      const { grid, stop } = makeGrid();
      const outcome = validateOutcome(r.outcome);
      const checks: string[][][] = [];
      const view = new Proxy({} as CandyView, {
        get: (_t, p) => {
          if (p === "land") return async (s: string[][]) => { await grid.land(s, true); checks.push(s); };
          if (p === "tumbleCandies") return async (s: string[][], removed: Cell[]) => { await grid.tumble(s, removed, true); checks.push(s); };
          if (p === "current") return () => grid.current();
          if (p === "money") return (c: number) => String(c);
          return async () => {};
        },
      });
      grid.clearOut(true);
      const handlers = candyHandlers(fx);
      // no waits in highlight etc.: the proxy's methods resolve at once
      await new EventPlayer<CandyView>(handlers, { beforeSpin: candyHooks.beforeSpin }).play(view, outcome);
      stop();
      expect(checks.length).toBeGreaterThan(0);
      const last = checks[checks.length - 1]!;
      const cells = visibleCells(grid);
      for (let c = 0; c < 7; c++) for (let row = 0; row < 7; row++) {
        expect(cells.get(`${c},${row}`), `${r.kind}: cell ${c},${row}`).toEqual([last[c]![row]]);
      }
    }
  });
});

describe("candy grid tumble, by hand", () => {
  it("pops, drops and refills one column", async () => {
    const { grid, stop } = makeGrid();
    const col = ["A", "B", "C", "D", "E", "F", "G"];
    const g1 = Array.from({ length: 7 }, () => [...col]);
    await grid.land(g1, true);
    const c1 = visibleCells(grid);
    expect(c1.get("0,0")).toEqual(["A"]);
    const g2 = g1.map((c) => [...c]);
    g2[0] = ["X", "A", "C", "D", "E", "F", "G"];
    await grid.tumble(g2, [[0, 1]], true);
    stop();
    const c2 = visibleCells(grid);
    for (let r = 0; r < 7; r++) expect(c2.get(`0,${r}`), `row ${r}`).toEqual([g2[0]![r]]);
  });
});

describe("candy grid left mid-tumble", () => {
  it("a tumble whose grid is destroyed during the pop ends there, moving no destroyed sprite", async () => {
    const { grid, stop } = makeGrid();
    const col = ["A", "B", "C", "D", "E", "F", "G"];
    const g1 = Array.from({ length: 7 }, () => [...col]);
    await grid.land(g1, true);
    const g2 = g1.map((c) => [...c]);
    g2[0] = ["X", "A", "C", "D", "E", "F", "G"];
    const tumbling = grid.tumble(g2, [[0, 1]], false);
    grid.destroy(); // the player went to the info page (a playtest saw a TypeError in tumble)
    stop();
    const ended = await Promise.race([tumbling.then(() => "ended"), new Promise((r) => setTimeout(() => r("hung"), 500))]);
    expect(ended).toBe("ended");
    expect((grid as unknown as { tweens: unknown[] }).tweens).toEqual([]);
  });
});

describe("candy grid: a cluster outlined is a cluster seen", () => {
  // the playtest saw outlines (and the amount) around empty cells: the candies had popped while
  // their outline stayed on. Every frame that draws an outline shows the cluster's candies whole.
  it("the outline and its amount go as the candies start to pop", async () => {
    let tick: (() => void) | null = null;
    const ticker = { add: (f: () => void, ctx: unknown) => { tick = f.bind(ctx); }, remove() {} };
    let now = 0;
    const grid = new CandyGrid({ get: (id: string) => ({ id, width: 88 }) } as never, { cols: 7, rows: 7, cell: 88 }, PROFILES.LOW, ticker as never, () => now);
    const frame = () => { now += 50; tick?.(); };
    const col = ["A", "B", "C", "D", "E", "F", "G"];
    const g1 = Array.from({ length: 7 }, () => [...col]);
    let landed = false;
    const landing = grid.land(g1, true).then(() => { landed = true; });
    for (let i = 0; i < 100 && !landed; i++) { frame(); await Promise.resolve(); }
    await landing;
    const cluster: Cell[] = [[0, 1], [1, 1], [2, 1], [3, 1], [4, 1], [5, 1]];
    grid.highlight(cluster, "14");
    const overlay = (grid as unknown as { overlay: { children: unknown[] } }).overlay;
    const sprites = (grid as unknown as { sprites: FakeSprite[][] }).sprites;
    const popping = cluster.map(([c, r]) => sprites[c]![r]! as FakeSprite & { scale: { x: number } });
    expect(overlay.children.length).toBeGreaterThan(0);
    const g2 = g1.map((c) => ["X", c[0]!, ...c.slice(2)]);
    let done = false;
    const tumbling = grid.tumble(g2, cluster, false).then(() => { done = true; });
    let frames = 0;
    while (!done && frames < 200) {
      const whole = popping.every((s) => s.alpha === 1 && s.scale.x === 1);
      expect(overlay.children.length === 0 || whole, `frame ${frames}: an outline around popped candies`).toBe(true);
      frame();
      frames++;
      await Promise.resolve();
    }
    await tumbling;
    expect(frames).toBeGreaterThan(2);
  });
});
