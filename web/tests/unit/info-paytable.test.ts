// The information page's paytable arithmetic (screens/info/paytable.ts): the labels of a
// cluster table's sizes and a pay at a bet.
import { describe, expect, it } from "vitest";
import type { BetOption } from "../../src/net/types";
import { clusterLabels, payCredits } from "../../src/screens/info/paytable";

describe("information page paytable", () => {
  it("labels each cluster size up to the next listed one, the last up to the whole grid", () => {
    expect(clusterLabels([6, 7, 8, 13, 15, 35], 49)).toEqual(["6", "7", "8–12", "13–14", "15–34", "35–49"]);
    expect(clusterLabels([5], 5)).toEqual(["5"]);
  });

  it("pays line and cluster pays per bet per line, scatter pays per total bet", () => {
    const bet: BetOption = { lines: 20, bet_per_line: 3, stake_credits: 60, cost_minor: { base: 60 }, jackpot_eligible: false };
    expect(payCredits(40, "line", bet)).toBe(120);
    expect(payCredits(20, "stake", bet)).toBe(1200);
  });
});
