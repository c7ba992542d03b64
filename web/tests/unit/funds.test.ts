import { describe, expect, it } from "vitest";
import { betTooHigh } from "../../src/screens/game/funds";

const money = (minor: number) => `€${(minor / 100).toFixed(2)}`;
// Cluedo-like bets: lines x bet per line, each costing its stake in cents in the base mode
const bets = [1, 5, 20].flatMap((lines) => [1, 2, 5].map((bpl) => ({ lines, bet_per_line: bpl, cost_minor: { base: lines * bpl } as Record<string, number> })));
const at = (lines: number, bpl: number) => bets.find((b) => b.lines === lines && b.bet_per_line === bpl) as (typeof bets)[number];

describe("the bet over the balance (the notice line, with a bet one tap lowers it to)", () => {
  it("is nothing while the balance pays the bet, or where the mode has no price", () => {
    expect(betTooHigh(bets, at(5, 2), "base", 10, money)).toBeNull();
    expect(betTooHigh(bets, at(5, 2), "buy", 10, money)).toBeNull();
  });

  it("says the bet and the balance, and offers the largest bet paid at the lines chosen", () => {
    const note = betTooHigh(bets, at(20, 5), "base", 45, money);
    expect(note?.text).toBe("Bet €1.00 is over your balance €0.45");
    expect(note?.lower).toBe(at(20, 2)); // 40 of 45 at 20 lines (5 x 5 = 25 at 5 lines is less)
    expect(note?.button).toBe("Bet €0.40");
    expect(note?.label).toBe("Lower the bet to €0.40");
  });

  it("offers the largest bet paid at any lines where none at the lines chosen is", () => {
    const note = betTooHigh(bets, at(20, 1), "base", 12, money);
    expect(note?.lower).toBe(at(5, 2)); // 10: the largest of 1, 2, 5, 5 and 10 cents
  });

  it("is nothing where no bet is paid at all (out of funds, or Spin Chance, says what to do)", () => {
    expect(betTooHigh(bets, at(20, 5), "base", 0, money)).toBeNull();
  });
});
