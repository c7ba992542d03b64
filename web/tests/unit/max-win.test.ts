// The maximum win, said one way on every screen (core/max-win.ts): a new player read Cluedo's
// as "240,118.4x" on the lobby card, "240,118×" in the intro and "240,118.40 times" on the
// information page.
import { describe, expect, it } from "vitest";
import { maxWinExactly, maxWinSaid, maxWinTimes } from "../../src/core/max-win";

describe("the maximum win as a player reads it", () => {
  it("is whole times the bet, grouped, rounded down, never more than the game pays", () => {
    expect(maxWinSaid(240118.4)).toBe("240,118× the bet");
    expect(maxWinSaid(240118.99)).toBe("240,118× the bet");
    expect(maxWinSaid(10000)).toBe("10,000× the bet");
    expect(maxWinSaid(50000)).toBe("50,000× the bet");
    expect(maxWinTimes(100)).toBe("100×");
  });
  it("keeps a tenth below 100 times, still rounded down", () => {
    expect(maxWinTimes(12.75)).toBe("12.7×");
    expect(maxWinTimes(12)).toBe("12×");
    expect(maxWinTimes(99.99)).toBe("99.9×");
  });
  it("gives the exact multiple only where the figure shown is rounded", () => {
    expect(maxWinExactly(240118.4)).toBe("240,118.4×");
    expect(maxWinExactly(12.75)).toBe("12.75×");
    expect(maxWinExactly(10000)).toBeNull();
    expect(maxWinExactly(12.7)).toBeNull();
  });
});
