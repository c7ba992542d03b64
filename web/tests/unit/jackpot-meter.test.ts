// The progressive jackpot's meter ticks like a studio's, honestly (core/jackpot-meter.ts): up
// from what it shows to each pool the server reports, smoothly, never past it; down at once.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jackpotMeter, JACKPOT_REFRESH_MS, JACKPOT_TICK } from "../../src/core/jackpot-meter";

const SPREAD = 1000, STEP = 50;

function meter() {
  const seen: number[] = [];
  const m = jackpotMeter((v) => seen.push(v), { spreadMs: SPREAD, stepMs: STEP });
  return { m, seen };
}

describe("the jackpot meter", () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it("shows the first figure at once", () => {
    const { m, seen } = meter();
    m.report(100_000_000);
    expect(seen).toEqual([100_000_000]);
    expect(m.shown()).toBe(100_000_000);
  });

  it("lets a count run on through a report of the same pool (the poll, with no stake since)", () => {
    // the e2e saw a count restarted by each 10 s poll of an unchanged pool land 18 s late
    const { m } = meter();
    m.report(1000);
    m.report(1200);
    vi.advanceTimersByTime(SPREAD * 0.8);
    m.report(1200);
    vi.advanceTimersByTime(SPREAD * 0.2);
    expect(m.shown()).toBe(1200);
  });

  it("counts up to a new pool over its spread, a step at a time, in whole minor units", () => {
    const { m, seen } = meter();
    m.report(1000);
    m.report(1200);
    expect(m.shown()).toBe(1000); // nothing shown before the first step
    vi.advanceTimersByTime(SPREAD / 2);
    const half = m.shown()!;
    expect(half).toBeGreaterThan(1000);
    expect(half).toBeLessThan(1200);
    expect(Math.abs(half - 1100)).toBeLessThanOrEqual(10); // linear: half-way at half the time
    vi.advanceTimersByTime(SPREAD / 2);
    expect(m.shown()).toBe(1200);
    // many figures on the way, each a whole number, rising, never past the server's
    expect(seen.length).toBeGreaterThan(SPREAD / STEP / 2);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
    expect(seen.every((v) => Number.isInteger(v) && v <= 1200)).toBe(true);
    // and it stops there: no figure after the last
    const n = seen.length;
    vi.advanceTimersByTime(SPREAD * 5);
    expect(seen.length).toBe(n);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a rise of a cent or two shows once each, never twice the same figure", () => {
    const { m, seen } = meter();
    m.report(500);
    m.report(502);
    vi.advanceTimersByTime(SPREAD);
    expect(seen).toEqual([500, 501, 502]);
  });

  it("a new report mid-count carries on from what is shown, to the new figure", () => {
    const { m, seen } = meter();
    m.report(0);
    m.report(1000);
    vi.advanceTimersByTime(SPREAD / 2);
    const mid = m.shown()!;
    m.report(1400);
    expect(m.shown()).toBe(mid); // no jump on the report
    vi.advanceTimersByTime(SPREAD);
    expect(m.shown()).toBe(1400);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
  });

  it("a pool below what is shown (claimed and reseeded) shows at once, the count dropped", () => {
    const { m, seen } = meter();
    m.report(5000);
    m.report(9000);
    vi.advanceTimersByTime(SPREAD / 4);
    m.report(100);
    expect(m.shown()).toBe(100);
    vi.advanceTimersByTime(SPREAD * 2);
    expect(m.shown()).toBe(100);
    expect(seen.at(-1)).toBe(100);
  });

  it("never shows more than the latest report: a lower report mid-count, still above the figure shown, is the new end", () => {
    const { m, seen } = meter();
    m.report(0);
    m.report(1000);
    vi.advanceTimersByTime(SPREAD / 4);
    const mid = m.shown()!;
    m.report(mid + 10);
    vi.advanceTimersByTime(SPREAD * 2);
    expect(m.shown()).toBe(mid + 10);
    expect(Math.max(...seen.slice(seen.indexOf(mid)))).toBe(mid + 10);
  });

  it("ignores what is not a figure, and stops on stop()", () => {
    const { m } = meter();
    m.report(10);
    m.report(Number.NaN);
    m.report(-5);
    m.report(1.5);
    expect(m.shown()).toBe(10);
    m.report(90);
    vi.advanceTimersByTime(SPREAD / 2);
    const at = m.shown();
    m.stop();
    vi.advanceTimersByTime(SPREAD);
    expect(m.shown()).toBe(at);
  });

  it("the shell's count lands before its next report", () => {
    expect(JACKPOT_TICK.spreadMs).toBeLessThan(JACKPOT_REFRESH_MS);
  });
});
