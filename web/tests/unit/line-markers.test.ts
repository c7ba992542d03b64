// The line markers beside the reels (slot/paylines.ts markerLayout): one order for both sides,
// each line once, grouped by the row it starts on, evenly spaced, never touching.
import { describe, expect, it } from "vitest";
import { markerLayout } from "../../src/slot/paylines";

// Cluedo's 20 lines and Cops n Robbers' 10, as their game files give them.
const CLUEDO = [
  [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2],
  [0, 0, 1, 2, 2], [2, 2, 1, 0, 0], [1, 0, 0, 0, 1], [1, 2, 2, 2, 1], [0, 1, 1, 1, 0],
  [2, 1, 1, 1, 2], [1, 0, 1, 2, 1], [1, 2, 1, 0, 1], [0, 1, 0, 1, 0], [2, 1, 2, 1, 2],
  [1, 1, 0, 1, 1], [1, 1, 2, 1, 1], [0, 2, 0, 2, 0], [2, 0, 2, 0, 2], [0, 2, 2, 2, 0],
];
const COPS = [
  [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2],
  [1, 0, 0, 0, 1], [1, 2, 2, 2, 1], [0, 0, 1, 2, 2], [2, 2, 1, 0, 0], [1, 2, 1, 0, 1],
];

describe("markerLayout", () => {
  it("lists every line once, by the row it starts on, then the row it ends on", () => {
    const { order } = markerLayout(CLUEDO, 3, 213);
    expect([...order].sort((a, b) => a - b)).toEqual(CLUEDO.map((_, i) => i + 1));
    // top row first: lines starting and ending on row 0, then line 6 (row 0 to row 2)
    expect(order.slice(0, 7)).toEqual([2, 4, 10, 14, 18, 20, 6]);
    const starts = order.map((l) => CLUEDO[l - 1]![0]);
    expect(starts).toEqual([...starts].sort((a, b) => a! - b!));
    expect(markerLayout(COPS, 3, 213).order).toEqual([2, 4, 8, 1, 6, 7, 10, 9, 3, 5]);
  });

  it("spaces them evenly down the window, none touching its neighbour (7 and 10 once did)", () => {
    for (const [lines, cell] of [[CLUEDO, 213], [COPS, 213], [CLUEDO, 120]] as const) {
      const { ys, radius } = markerLayout(lines, 3, cell);
      const gaps = ys.slice(1).map((y, k) => y - ys[k]!);
      for (const g of gaps) expect(g).toBeCloseTo((3 * cell) / lines.length, 6);
      expect(2 * radius + 4).toBeLessThanOrEqual(gaps[0]! + 1e-9);
      expect(ys[0]! - radius).toBeGreaterThanOrEqual(0); // within the window's height
      expect(ys.at(-1)! + radius).toBeLessThanOrEqual(3 * cell);
    }
  });

  it("keeps a marker no larger than an eighth of a cell when there is room", () => {
    expect(markerLayout([[0, 0, 0], [1, 1, 1]], 3, 200).radius).toBe(24);
  });
});
