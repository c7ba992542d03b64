// A deadline that lets overrunning work go on (core/timing.ts withinOrLate): live play and the
// history's replay wait at most `ms` for an animation, then carry on; a real failure still throws.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { timeline, TimeoutError, withinOrLate } from "../../src/core/timing";

describe("withinOrLate", () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it("ends the wait at the deadline and says what overran", async () => {
    const late: TimeoutError[] = [];
    let done = false;
    const wait = withinOrLate(new Promise(() => {}), 100, "event line_win of spin 15", (e) => late.push(e)).then(() => { done = true; });
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await wait;
    expect(done).toBe(true);
    expect(late.map((e) => e.message)).toEqual(["event line_win of spin 15: not done after 100 ms"]);
  });

  it("waits for work done in time and tells nothing", async () => {
    const late: TimeoutError[] = [];
    await withinOrLate(Promise.resolve(), 100, "x", (e) => late.push(e));
    expect(late).toEqual([]);
  });

  it("throws any other failure", async () => {
    await expect(withinOrLate(Promise.reject(new Error("no handler")), 100, "x", () => {})).rejects.toThrow("no handler");
  });
});

describe("timeline", () => {
  beforeEach(() => { vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); });
  afterEach(() => { vi.useRealTimers(); });

  it("never resolves at(ms) before its clock reads ms, where a timer fires early by it", async () => {
    // CI read a 2,000 ms card gone after 1,998 by the page's clock
    let now = 0;
    const tl = timeline(() => now);
    let done = false;
    void tl.at(2000).then(() => { done = true; });
    now = 1998; // the timer fires, the clock 2 ms short
    await vi.advanceTimersByTimeAsync(2000);
    expect(done).toBe(false);
    now = 2000;
    await vi.advanceTimersByTimeAsync(2);
    expect(done).toBe(true);
  });
});
