// The mode control's words (core/modes.ts): each mode named with its exact price and the cost
// the server gives at the bet; a bet the mode cannot play says so; a buy's question names the
// spins and the cost.
import { describe, expect, it } from "vitest";
import { buyQuestion, costNote, modeLabel, modeTitle, priceNumber, priceWords } from "../../src/core/modes";
import { formatMoney } from "../../src/core/money";

const eur = (minor: number) => formatMoney(minor, "EUR");

describe("bet modes", () => {
  it("reads an exact price: an integer or a fraction string", () => {
    expect(priceNumber(2)).toBe(2);
    expect(priceNumber("5/4")).toBe(1.25);
    expect(priceNumber("4/3")).toBeCloseTo(1.3333333, 6);
    expect(priceWords("5/4")).toBe("1.25×");
    expect(priceWords("4/3")).toBe("1.333×");
    expect(priceWords(36)).toBe("36×");
  });

  it("names each mode with its price and the server's cost at the bet", () => {
    expect(modeLabel({ name: "base", title: "base", price: 1 }, 20, eur)).toBe("Base game · 1× · €0.20");
    expect(modeLabel({ name: "ante", title: "Ante bet", price: "5/4" }, 25, eur)).toBe("Ante bet · 1.25× · €0.25");
    expect(modeLabel({ name: "ante", title: "Ante bet", price: "5/4" }, undefined, eur)).toBe("Ante bet · 1.25× · not at this bet");
    expect(modeTitle({ name: "fortune", title: "fortune", price: 2 })).toBe("fortune");
  });

  it("asks before a buy, naming the spins and the cost", () => {
    expect(buyQuestion({ name: "buy", title: "Buy free spins", price: 36, buy_spins: 10 }, 720, eur))
      .toBe("Buy 10 free spins for €7.20? The round starts with the free spins; there is no base spin.");
  });
});

describe("a bought round's account", () => {
  it("says the free spins were bought, not triggered by 0 scatters", async () => {
    const { genericWords } = await import("../../src/screens/history/account");
    const words = genericWords(undefined).free_spins_award;
    const at = {} as Parameters<typeof words>[1];
    const award = { type: "free_spins_award", spins_awarded: 10, spins_requested: 10, total_awarded: 10 } as const;
    expect(words({ ...award, trigger_count: 0 }, at)).toBe("Bought: 10 free spins");
    expect(words({ ...award, trigger_count: 3 }, at)).toBe("3 scatters: 10 free spins (10 in all)");
  });

  it("says under the bet what a mode's cost is, where it is not the stake", () => {
    const buy = { name: "buy", title: "Buy free spins", price: 36, buy_spins: 10 };
    expect(costNote(buy, 20, eur)).toBe(`Buy free spins: 36× the ${eur(20)} bet`);
    expect(costNote({ name: "ante", title: "Ante bet", price: "5/4" }, 200, eur)).toBe(`Ante bet: 1.25× the ${eur(200)} bet`);
    expect(costNote({ name: "base", title: "base", price: 1 }, 20, eur)).toBe("");
  });
});
