import { describe, expect, it } from "vitest";
import { chartGeometry, type SeriesPoint } from "../../src/backoffice/chart";

// Candy Jar's published figures: RTP 0.9598, SD of one round 18.89; a 99% band at n rounds
function point(day: string, rounds: number, actual: number): SeriesPoint {
  const half = 2.5758 * 18.89 / Math.sqrt(rounds);
  return { day, rounds, actual_rtp: actual, theoretical_rtp: 0.9598, band: [0.9598 - half, 0.9598 + half],
    inside: Math.abs(actual - 0.9598) <= half };
}

function ys(path: string): number[] {
  return [...path.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => Number(m[1]));
}

describe("back office RTP chart", () => {
  const points = [point("2026-12-01", 100, 1.5), point("2026-12-02", 1000, 1.1), point("2026-12-03", 10000, 0.97)];

  it("draws the band narrowing as rounds add up, around the expected line", () => {
    const g = chartGeometry(points, 600, 200);
    const upper = ys(g.band).slice(0, 3);  // the upper edge, left to right (y grows downwards)
    expect(upper[0]!).toBeLessThan(upper[1]!);
    expect(upper[1]!).toBeLessThan(upper[2]!);
    const expected = ys(g.expected);
    expect(new Set(expected.map((y) => y.toFixed(1))).size).toBe(1);
    expect(upper[2]!).toBeLessThan(expected[0]!);
  });

  it("puts a dot per day at its rounds, flagged where outside the band", () => {
    const g = chartGeometry([...points, point("2026-12-04", 20000, 3.0)], 600, 200);
    expect(g.dots.map((d) => d.inside)).toEqual([true, true, true, false]);
    expect(g.dots[3]!.x).toBeGreaterThan(g.dots[2]!.x);
    expect(g.dots[3]!.y).toBeLessThan(g.dots[2]!.y);  // a higher RTP is drawn higher
  });

  it("draws no band for a game without an SD", () => {
    const g = chartGeometry([{ day: "2026-12-01", rounds: 5, actual_rtp: 0.5, theoretical_rtp: null, band: null, inside: null }]);
    expect(g.band).toBe("");
    expect(g.expected).toBe("");
    expect(g.actual).toMatch(/^M/);
  });
});
