import { describe, expect, it } from "vitest";
import { formatMoney } from "../../src/core/money";
import { creditsAndMoney } from "../../src/core/money";
import { copsWinSummary, labelsWithMoney } from "../../src/screens/cops-n-robbers/summary";

// The banner beside the WIN meter accounts for the meter's total: after a bonus the last spin's
// lines are not all the round paid (the playtest: "4 winning lines pay 125" beside WIN 130).
describe("Cops' win summary", () => {
  it("names what the spins before the last paid", () => {
    // the total first (its own line, set big), the parts under it
    expect(copsWinSummary(4, 0, 125, 5)).toBe("BONUS TOTAL 130\nlast spin 125 · the spins before 5");
    expect(copsWinSummary(0, 1, 480, 744)).toBe("BONUS TOTAL 1,224\nlast spin 480 · the spins before 744");
    expect(copsWinSummary(0, 0, 0, 105)).toBe("BONUS TOTAL 105\nlast spin 0 · the spins before 105");
    // the spin that started the bonus paid too: the round's total, not the bonus's
    expect(copsWinSummary(1, 1, 14, 29, false)).toBe("TOTAL WIN 43\nlast spin 14 · the spins before 29");
  });
  it("sums lines and collections of a single spin, and leaves lines alone to the generic summary", () => {
    expect(copsWinSummary(2, 1, 90, 0)).toBe("2 winning lines and the robber's collection pay 90");
    expect(copsWinSummary(4, 0, 125, 0)).toBeNull();
    expect(copsWinSummary(0, 1, 70, 0)).toBeNull();
  });
});

// The playtest: the stake in euros, the wins in credits ("Line 6 pays 125"): a win's amount has
// its money beside it (1 credit = €0.01 here).
describe("Cops' wins with their money", () => {
  const money = (c: number) => formatMoney(c, "EUR");
  it("says credits and money", () => {
    expect(creditsAndMoney(125, money)).toBe("125 (€1.25)");
    expect(creditsAndMoney(6000, money)).toBe("6,000 (€60.00)");
    expect(creditsAndMoney(125)).toBe("125");
  });
  it("the win cycle's labels with their money when each is named alone, in credits beside a summary", () => {
    const wins = [{ win: { label: "Line 6 pays 125", line: 6 }, credits: 125 }, { win: { label: "Robber collects 3x stake: 30", line: 0 }, credits: 30 }];
    expect(labelsWithMoney(wins, null, money).map((w) => w.label)).toEqual(["Line 6 pays 125 (€1.25)", "Robber collects 3x stake: 30 (€0.30)"]);
    expect(labelsWithMoney(wins, "2 winning lines pay 155", money).map((w) => w.label)).toEqual(["Line 6 pays 125", "Robber collects 3x stake: 30"]);
    expect(labelsWithMoney([{ win: { label: "Line 1 pays 5" }, credits: undefined }], null, money)[0]!.label).toBe("Line 1 pays 5");
  });
});
