// Candy Jar's win cycle after a round (screens/candy-jar-clusters/wins.ts) on the server's own
// rounds (tests/fixtures/candy-jar-clusters*.json): one entry per cluster and jackpot its last
// spin paid, each lit on the grid it was paid on (a connected group of its size, of its symbol
// and wilds), and the total the WIN meter settles on (the outcome's total_win).
import { describe, expect, it } from "vitest";
import { formatCredits, formatMoney } from "../../src/core/money";
import type { Cell, Outcome } from "../../src/core/outcome";
import { candyWinCycle, cycleLine } from "../../src/screens/candy-jar-clusters/wins";
import { labelCell } from "../../src/screens/candy-jar-clusters/outline";
import { fixture } from "./fixtures";

const sets = [fixture("candy-jar-clusters"), fixture("candy-jar-clusters-features")];
const rounds = sets.flatMap((f) => f.rounds.map((r) => ({ f, outcome: r.outcome as unknown as Outcome })));

/** 4-neighbour connected, by a plain flood fill over the cells themselves. */
function connected(cells: Cell[]): boolean {
  const all = new Set(cells.map(([c, r]) => `${c},${r}`));
  const seen = new Set<string>();
  const todo = [cells[0]!];
  while (todo.length) {
    const [c, r] = todo.pop()!;
    const k = `${c},${r}`;
    if (seen.has(k) || !all.has(k)) continue;
    seen.add(k);
    todo.push([c + 1, r], [c - 1, r], [c, r + 1], [c, r - 1]);
  }
  return seen.size === all.size;
}

describe("candy win cycle", () => {
  it("has one lit win per cluster and jackpot of the last spin, on its own grid, and the round's total", () => {
    let checked = 0;
    for (const { f, outcome } of rounds) {
      const wilds = new Set(f.info.symbols.filter((s) => s.role === "wild").map((s) => s.id));
      const last = outcome.spins.at(-1)!;
      const paid = last.events.filter((e) => e.type === "cluster_win" || e.type === "jackpot");
      const cycle = candyWinCycle(outcome, f.info);
      if (!paid.length) { expect(cycle).toBeNull(); continue; }
      expect(cycle).not.toBeNull();
      expect(cycle!.wins).toHaveLength(paid.length);
      expect(cycle!.total).toBe(outcome.total_win);
      // the grid each was paid on: the last grid event before it
      let grid: string[][] = [];
      let k = 0;
      for (const e of last.events) {
        if (e.type === "grid") grid = e.symbols;
        if (e.type !== "cluster_win" && e.type !== "jackpot") continue;
        const w = cycle!.wins[k++]!;
        expect(w.grid).toEqual(grid);
        if (e.type === "cluster_win") {
          expect(w.cells).toHaveLength(e.size);
          expect(connected(w.cells)).toBe(true);
          for (const [c, r] of w.cells) expect(grid[c]![r] === e.symbol || wilds.has(grid[c]![r]!)).toBe(true);
          const times = last.multiplier > 1 ? last.multiplier : 1;
          expect(w.amount).toBe(formatCredits(e.win * times));
          checked++;
        } else {
          expect(w.amount).toBe(formatCredits(e.win));
          for (const [c, r] of w.cells) expect(grid[c]![r]).toBe(e.jackpot);
        }
      }
      expect(cycleLine(cycle!, 0).endsWith(`TOTAL WIN ${formatCredits(outcome.total_win)}`)).toBe(true);
    }
    expect(checked).toBeGreaterThan(5);
  });

  it("totals a round shown up to one of its spins by the spins' own wins (no total_win yet)", () => {
    const { f, outcome } = rounds.find(({ outcome: o }) => o.spins.length > 2 && o.spins[1]!.events.some((e) => e.type === "cluster_win"))!;
    const upTo = { spins: outcome.spins.slice(0, 2) };
    expect(candyWinCycle(upTo, f.info)!.total).toBe(outcome.spins[0]!.win + outcome.spins[1]!.win);
  });

  it("names which win of how many is lit", () => {
    const { f, outcome } = rounds.find(({ outcome: o }) => o.spins.at(-1)!.events.filter((e) => e.type === "cluster_win").length > 1)!;
    const cycle = candyWinCycle(outcome, f.info)!;
    // what the numbers are, in a player's words (the playtest read "3 of 4: 14 x PLUM" as cryptic)
    expect(cycleLine(cycle, 1)).toMatch(new RegExp(`^\\d+ [A-Z]+ pays? [\\d,]+ credits · cluster 2 of ${cycle.wins.length} · TOTAL WIN `));
  });
});

describe("where a cluster's amount is drawn", () => {
  const wild = new Set(sets[0]!.info.symbols.filter((s) => s.role === "wild").map((s) => s.id));
  // the playtest read amounts on cells beside the outline (a grape, a strawberry) as if they
  // were part of the win: the amount stands on one of the cluster's own candies, not a wild
  it("on one of the cluster's own cells, a wild only where all its cells are wild, on the server's rounds", () => {
    let withWild = 0;
    for (const { f, outcome } of rounds) {
      const cycle = candyWinCycle(outcome, f.info);
      for (const w of cycle?.wins ?? []) {
        const isWild = ([c, r]: Cell) => wild.has(w.grid[c]![r]!);
        const spot = labelCell(w.cells, isWild);
        expect(spot).not.toBeNull();
        expect(w.cells.some(([c, r]) => c === spot![0] && r === spot![1])).toBe(true);
        if (w.cells.some(isWild)) {
          withWild++;
          if (w.cells.some((x) => !isWild(x))) expect(isWild(spot!)).toBe(false);
        }
      }
    }
    expect(withWild).toBeGreaterThan(0); // the rounds hold clusters with a wild in them
  });
  it("the cell nearest the cluster's middle, passing over a wild there", () => {
    // a row of three at row 3: its middle; the middle a wild: the leftmost of the two nearest
    expect(labelCell([[2, 3], [3, 3], [4, 3]], () => false)).toEqual([3, 3]);
    expect(labelCell([[2, 3], [3, 3], [4, 3]], ([c]) => c === 3)).toEqual([2, 3]);
    // a U (the playtest's 6 x LEMON: its middle is the hole, off the cluster): a cell of the U
    const u: Cell[] = [[0, 3], [1, 3], [2, 3], [3, 3], [0, 4], [3, 4]];
    const spot = labelCell(u, () => false);
    expect(u.some(([c, r]) => c === spot![0] && r === spot![1])).toBe(true);
    expect(labelCell([], () => false)).toBeNull();
  });
});

describe("the win cycle's words", () => {
  it("the round's total with its money, as the WIN meter shows it", () => {
    const outcome = rounds.find(({ outcome }) => outcome.total_win > 0)!;
    const cycle = candyWinCycle(outcome.outcome, outcome.f.info)!;
    const money = (c: number) => `${formatCredits(c)} (${formatMoney(c * 1, "EUR")})`;
    expect(cycleLine(cycle, 0, money).endsWith(`TOTAL WIN ${formatCredits(cycle.total)} (${formatMoney(cycle.total, "EUR")})`)).toBe(true);
  });
});
