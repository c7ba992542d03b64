import { describe, expect, it } from "vitest";
import { copsWinSummary } from "../../src/screens/cops-n-robbers/summary";

// The banner beside the WIN meter accounts for the meter's total: after a bonus the last spin's
// lines are not all the round paid (the playtest: "4 winning lines pay 125" beside WIN 130).
describe("Cops' win summary", () => {
  it("names what the spins before the last paid", () => {
    expect(copsWinSummary(4, 0, 125, 5)).toBe("Last spin: 4 winning lines pay 125 · the spins before: 5");
    expect(copsWinSummary(0, 1, 480, 744)).toBe("Last spin: the robber's collection pays 480 · the spins before: 744");
    expect(copsWinSummary(0, 0, 0, 105)).toBe("Last spin: no win · the spins before: 105");
  });
  it("sums lines and collections of a single spin, and leaves lines alone to the generic summary", () => {
    expect(copsWinSummary(2, 1, 90, 0)).toBe("2 winning lines and the robber's collection pay 90");
    expect(copsWinSummary(4, 0, 125, 0)).toBeNull();
    expect(copsWinSummary(0, 1, 70, 0)).toBeNull();
  });
});
