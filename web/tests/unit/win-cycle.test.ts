// The winning lines' cycle after a round (core/win-cycle.ts): which wins, their cells and
// paths, the labels, the summary over three lines, the turn and the still (all at once) form.
import { describe, expect, it } from "vitest";
import { allAtOnce, cycleIndex, cycleText, winCycleOf, WIN_CYCLE_MS } from "../../src/core/win-cycle";
import type { Outcome } from "../../src/core/outcome";

// three rows, five reels: line 1 the middle row, 2 the top, 3 the bottom, 4 a V, 5 a caret
const PAYLINES = [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2]];
const WINDOW = [["A", "B", "S"], ["A", "B", "C"], ["A", "B", "C"], ["D", "E", "S"], ["S", "E", "F"]];

type Ev = Outcome["spins"][number]["events"][number];
const spin = (events: Ev[]) => ({ index: 0, kind: "base" as const, reel_set: "base", stops: [], multiplier: 1, win: 0, events });
const line = (n: number, count: number, win: number): Ev => ({ type: "line_win", line: n, symbol: "X", count, multiplier: 1, win });

describe("winCycleOf", () => {
  it("gives each line win its first count cells, its whole path and its words", () => {
    const cycle = winCycleOf({ spins: [spin([{ type: "window", symbols: WINDOW }, line(2, 3, 25), line(1, 3, 5)])] }, PAYLINES);
    expect(cycle?.wins.map((w) => w.line)).toEqual([2, 1]);
    expect(cycle?.wins[0]?.cells).toEqual([[0, 0], [1, 0], [2, 0]]);
    expect(cycle?.wins[0]?.path).toEqual([[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]);
    expect(cycle?.wins.map((w) => w.label)).toEqual(["Line 2 pays 25", "Line 1 pays 5"]);
    expect(cycle?.summary).toBeNull(); // three or fewer: each line's own words
  });

  it("sums more than three lines up in one banner, the amounts the server's", () => {
    const events = [{ type: "window", symbols: WINDOW } as Ev, line(1, 3, 5), line(2, 3, 5), line(3, 4, 20), line(4, 3, 1500)];
    expect(winCycleOf({ spins: [spin(events)] }, PAYLINES)?.summary).toBe("4 winning lines pay 1,530");
  });

  it("lights a cluster game's wins on the grid each was paid on, named with the grid multiplier, beside the round's total", () => {
    // grid 0: a cluster of 5 A (column 0 and the top row); grid 1: clusters of 6 B and 5 A
    const g0 = [["A", "A", "A"], ["A", "C", "D"], ["A", "D", "C"]];
    const g1 = [["B", "B", "A"], ["B", "B", "A"], ["B", "B", "A"], ["C", "D", "A"], ["D", "C", "A"]];
    const grid = (tumble: number, symbols: string[][]): Ev => ({ type: "grid", tumble, refilled: 0, symbols });
    const cluster = (tumble: number, symbol: string, size: number, win: number): Ev => ({ type: "cluster_win", tumble, symbol, size, wilds: 0, wild_multiplier: 1, win });
    const marks = (tumble: number, applied: number[]): Ev => ({ type: "grid_multipliers", tumble, applied, cells: [] });
    const end = [["C", "D", "C"], ["D", "C", "D"], ["C", "D", "C"]];
    const events = [grid(0, g0), cluster(0, "A", 5, 10), marks(0, [1]), grid(1, g1), cluster(1, "B", 6, 40), cluster(1, "A", 5, 12), marks(1, [1, 4]), grid(2, end)];
    const symbols = [{ id: "A", name: "Ace", role: "regular" }, { id: "B", name: "Bee", role: "regular" }];
    const cycle = winCycleOf({ spins: [spin(events)], total_win: 80 }, [], symbols)!;
    expect(cycle.wins.map((w) => w.label)).toEqual(["5 Ace pay 10", "6 Bee pay 40", "5 Ace at x4 pay 12"]);
    expect(cycle.wins.map((w) => w.grid)).toEqual([g0, g1, g1]);
    const sorted = (cells: number[][]) => cells.map(([c, r]) => `${c},${r}`).sort();
    expect(sorted(cycle.wins[0]!.cells)).toEqual(["0,0", "0,1", "0,2", "1,0", "2,0"]);
    expect(sorted(cycle.wins[1]!.cells)).toEqual(["0,0", "0,1", "1,0", "1,1", "2,0", "2,1"]);
    expect(sorted(cycle.wins[2]!.cells)).toEqual(["0,2", "1,2", "2,2", "3,2", "4,2"]);
    expect(cycle.summary).toBeNull(); // each named in turn, not summed up to the last spin's sum
    expect(cycle.total).toBe(80); // the outcome's total_win, not the 62 the last spin paid
    expect(cycleText(cycle, 2)).toBe("3 of 3: 5 Ace at x4 pay 12 · TOTAL WIN 80");
  });

  it("counts a scatter among the wins, its cells where the screen shows it", () => {
    const events = [{ type: "window", symbols: WINDOW } as Ev, line(1, 3, 5), { type: "scatter_win", symbol: "S", count: 3, multiplier: 1, win: 10 } as Ev];
    const cycle = winCycleOf({ spins: [spin(events)] }, PAYLINES)!;
    expect(cycle.wins[1]).toEqual({ cells: [[0, 2], [3, 2], [4, 0]], path: [], line: 0, label: "3 scatters pay 10" });
  });

  it("names a scatter as the game file names it, as the win's caption did while it was paid (the playtest read '2 x Mystery Bonus pays 40', then '2 scatters pay 40')", () => {
    const events = [{ type: "window", symbols: WINDOW } as Ev, { type: "scatter_win", symbol: "S", count: 2, multiplier: 1, win: 40 } as Ev, { type: "scatter_win", symbol: "S", count: 3, multiplier: 3, win: 90 } as Ev];
    const cycle = winCycleOf({ spins: [spin(events)] }, PAYLINES, [{ id: "S", name: "Mystery Bonus", role: "scatter" }])!;
    expect(cycle.wins.map((w) => w.label)).toEqual(["2 x Mystery Bonus pays 40", "3 x Mystery Bonus (x3) pays 90"]);
  });

  it("gives a ways win the symbol's and the wilds' cells on its reels, named as the game file names it", () => {
    const symbols = [{ id: "A", name: "Ace", role: "regular" }, { id: "W", name: "Wild", role: "wild" }];
    const screen = [["A", "B", "C"], ["W", "A", "C"], ["C", "A", "A"], ["A", "C", "C"], ["C", "C", "C"]];
    const ways: Ev = { type: "ways_win", symbol: "A", count: 4, ways: 4, paid_ways: 4, win: 40 };
    const cycle = winCycleOf({ spins: [spin([{ type: "window", symbols: screen }, ways])] }, [], symbols)!;
    // reel by reel: A on reel 1, W and A on reel 2, two As on reel 3, A on reel 4; reel 5 not counted
    expect(cycle.wins).toEqual([{ cells: [[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [3, 0]], path: [], line: 0, label: "Ace on 4 reels, 4 ways, pays 40" }]);
  });

  it("names a win paid anywhere with its multiplier, lit on the grid it was paid on once a tumble replaced it", () => {
    const symbols = [{ id: "P", name: "Pearl", role: "regular" }];
    const grid = [["P", "A"], ["A", "P"]];
    const later = [["A", "A"], ["A", "A"]];
    const paid: Ev = { type: "scatter_win", symbol: "P", count: 8, multiplier: 3, win: 54 };
    const still = winCycleOf({ spins: [spin([{ type: "grid", symbols: grid, tumble: 0, refilled: 0 }, paid])] }, [], symbols)!;
    expect(still.wins).toEqual([{ cells: [[0, 0], [1, 1]], path: [], line: 0, label: "8 Pearl at x3 pay 54" }]);
    const after = winCycleOf({ spins: [spin([{ type: "grid", symbols: grid, tumble: 0, refilled: 0 }, paid, { type: "grid", symbols: later, tumble: 1, refilled: 2 }])] }, [], symbols)!;
    expect(after.wins).toEqual([{ cells: [[0, 0], [1, 1]], path: [], line: 0, label: "8 Pearl at x3 pay 54", grid }]);
  });

  it("names the round's total beside a tumbling game's win: a round of free spins won more than its last spin", () => {
    // the playtest: the last free spin paid 720 at x12, the round 1,105
    const symbols = [{ id: "G", name: "Goblet", role: "regular" }];
    const grid = [["G", "A"], ["A", "G"]];
    const base = { ...spin([{ type: "grid", symbols: grid, tumble: 0, refilled: 0 }, { type: "scatter_win", symbol: "G", count: 8, multiplier: 1, win: 385 }]), win: 385 };
    const free = { ...spin([{ type: "grid", symbols: grid, tumble: 0, refilled: 0 }, { type: "scatter_win", symbol: "G", count: 9, multiplier: 12, win: 720 }]), win: 720, kind: "free" as const };
    const cycle = winCycleOf({ spins: [base, free], total_win: 1105 }, [], symbols)!;
    expect(cycle.total).toBe(1105);
    expect(cycleText(cycle, -1)).toBe("9 Goblet at x12 pay 720 · TOTAL WIN 1,105");
    // a round shown up to one of its spins (no total_win): the spins' own wins
    expect(winCycleOf({ spins: [base, free] }, [], symbols)!.total).toBe(1105);
  });

  it("a line game's words stay the lines' own (no total named)", () => {
    const cycle = winCycleOf({ spins: [spin([{ type: "window", symbols: WINDOW }, line(2, 3, 25), line(1, 3, 5)])], total_win: 900 }, PAYLINES)!;
    expect(cycle.total).toBeUndefined();
    expect(cycleText(cycle, 1)).toBe("Line 1 pays 5");
  });

  it("shows the screen left on show: the last spin's wins, none when it won nothing", () => {
    const first = spin([{ type: "window", symbols: WINDOW }, line(1, 3, 5)]);
    expect(winCycleOf({ spins: [first, spin([{ type: "window", symbols: WINDOW }])] }, PAYLINES)).toBeNull();
    expect(winCycleOf({ spins: [spin([{ type: "window", symbols: WINDOW }]), first] }, PAYLINES)?.wins).toHaveLength(1);
    expect(winCycleOf({ spins: [] }, PAYLINES)).toBeNull();
  });
});

describe("the turn", () => {
  it("draws each win for WIN_CYCLE_MS, then starts over", () => {
    expect(WIN_CYCLE_MS).toBe(1500);
    expect([0, 1499, 1500, 2999, 3000, 4500].map((t) => cycleIndex(t, 3))).toEqual([0, 0, 1, 1, 2, 0]);
    expect(cycleIndex(500, 0)).toBe(-1);
  });

  it("all at once (reduced motion): every winning cell once and every line's path", () => {
    const events = [{ type: "window", symbols: WINDOW } as Ev, line(1, 3, 5), line(4, 2, 5)];
    const all = allAtOnce(winCycleOf({ spins: [spin(events)] }, PAYLINES)!);
    expect(all.cells).toEqual([[0, 1], [1, 1], [2, 1], [0, 0]]);
    expect(all.paths).toEqual([PAYLINES[0]!.map((row, reel) => [reel, row]), PAYLINES[3]!.map((row, reel) => [reel, row])]);
  });
});

describe("the cycle on the server's own tumbling rounds (tests/fixtures)", () => {
  it("names each round's total_win, and lights each win on the grid it was paid on, on its symbol's cells (or wilds')", async () => {
    const { fixture } = await import("./fixtures");
    let lit = 0;
    for (const key of ["anywhere-example", "cluster-mult-example"]) {
      const f = fixture(key);
      const wilds = new Set(f.info.symbols.filter((s) => s.role === "wild").map((s) => s.id));
      for (const r of f.rounds) {
        const outcome = r.outcome as unknown as Outcome;
        const last = outcome.spins.at(-1)!;
        const paid = last.events.filter((e) => e.type === "scatter_win" || e.type === "cluster_win");
        const cycle = winCycleOf(outcome, [], f.info.symbols);
        if (!paid.length) { expect(cycle).toBeNull(); continue; }
        expect(cycle!.total).toBe(outcome.total_win);
        expect(cycle!.wins).toHaveLength(paid.length);
        // the grid each was paid on: the last grid event before it; the last grid is the one on show
        const grids = last.events.filter((e) => e.type === "grid");
        let grid: string[][] = [];
        let k = 0;
        for (const e of last.events) {
          if (e.type === "grid") grid = e.symbols;
          if (e.type !== "scatter_win" && e.type !== "cluster_win") continue;
          const w = cycle!.wins[k++]!;
          expect(w.grid ?? grids.at(-1)!.symbols).toEqual(grid);
          expect(w.cells.length).toBe(e.type === "cluster_win" ? e.size : grid.flat().filter((s) => s === e.symbol).length);
          for (const [c, row] of w.cells) expect(grid[c]![row] === e.symbol || wilds.has(grid[c]![row]!)).toBe(true);
          lit++;
        }
        expect(cycleText(cycle!, 0).endsWith(`TOTAL WIN ${outcome.total_win.toLocaleString("en")}`)).toBe(true);
      }
    }
    expect(lit).toBeGreaterThan(2);
  });
});
