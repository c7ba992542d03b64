import { describe, expect, it } from "vitest";
import { spinChanceResult, spinChanceText } from "../../src/screens/cops-n-robbers/chance";
import { outOfFunds } from "../../src/screens/game/funds";

const euro = (credits: number) => `€${(credits / 100).toFixed(2)}`;

// Spin Chance says what it is (one spin at the bet for what is left), the chance in words
// (the credit's share of the price: the rule sheet's ratio), and what each choice does.
describe("Spin Chance's words", () => {
  it("says the credit left, the price of a spin and the chance", () => {
    const t = spinChanceText(9, 10, euro);
    expect(t.lead).toBe("9 credits (€0.09) left: not enough for a spin at your bet of 10 credits (€0.10).");
    expect(t.ask).toMatch(/one spin at your bet/);
    expect(t.odds).toBe("9 in 10 chance of green");
    expect(t.red).toBe("Red: the 9 credits are lost");
    expect(t.keep).toBe("NO THANKS keeps your 9 credits");
    expect(spinChanceText(3, 40, euro).odds).toBe("about 1 in 13 chance of green");
  });
  it("refuses a credit that is no Spin Chance", () => {
    expect(() => spinChanceText(0, 10, euro)).toThrow(/credit left \(0\)/);
    expect(() => spinChanceText(10, 10, euro)).toThrow(/price of a spin \(10\)/);
  });
  it("says a loss with the balance left, a win with the spin it plays", () => {
    expect(spinChanceResult(false, 9, 10, "€0.00")).toEqual({ title: "LOSE", lines: ["−9 credits", "Balance €0.00"] });
    expect(spinChanceResult(true, 9, 10, "€0.00").lines[0]).toBe("A spin at 10 credits");
  });
});

describe("out of funds", () => {
  const money = (minor: number) => `€${(minor / 100).toFixed(2)}`;
  it("says nothing while the smallest bet can be paid", () => {
    expect(outOfFunds(10, 10, true, "demo", money)).toBeNull();
  });
  it("tells a demo player to start a new demo, a real-money player to add funds", () => {
    const d = outOfFunds(0, 10, true, "poor", money);
    expect(d?.text).toBe("Out of funds: €0.00 left, the smallest bet is €0.10.");
    expect(d?.link?.href).toBe("/demo?operator=poor");
    const r = outOfFunds(5, 10, false, "op", money);
    expect(r?.text).toMatch(/€0.05 left, .*Add funds with your operator/);
    expect(r?.link).toBeUndefined();
  });
});
