// TOTAL BET on the Cops n Robbers console: what a spin debits is the server's cost for the mode;
// the line under it splits it into the stake and what Fortune Spins add (a Fortune Spins round
// costs 2 stakes: RULES.md, `[modes.fortune] price = 2`).
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../src/core/money";
import { costLine, spinCost } from "../../src/screens/cops-n-robbers/controls";

const euros = (minor: number) => formatMoney(minor, "EUR");
// 10 lines x 3 per line = 30 credits of 1 cent; the server's costs: 30 (base), 2 x 30 (fortune)
const bet = { lines: 10, stake_credits: 30, cost_minor: { base: 30, fortune: 60 } };

describe("TOTAL BET", () => {
  it("is the server's cost for the mode, the stake and the rest apart", () => {
    expect(spinCost(bet, "base", 1)).toEqual({ total: 30, stake: 30, extra: 0, lines: 10 });
    expect(spinCost(bet, "fortune", 1)).toEqual({ total: 60, stake: 30, extra: 30, lines: 10 });
  });
  it("reads the stake at the game's denomination", () => {
    expect(spinCost({ ...bet, cost_minor: { base: 60, fortune: 120 } }, "fortune", 2)).toEqual({ total: 120, stake: 60, extra: 60, lines: 10 });
  });
  it("has no price for a mode the server does not offer at this stake (over a limit)", () => {
    expect(spinCost({ ...bet, cost_minor: { base: 30 } }, "fortune", 1)).toBeNull();
  });
  it("says where the total comes from", () => {
    expect(costLine(spinCost(bet, "fortune", 1)!, "Fortune Spins", euros)).toBe(`${euros(30)} stake + ${euros(30)} Fortune Spins`);
    expect(costLine(spinCost(bet, "base", 1)!, "Fortune Spins", euros)).toBe(`${euros(30)} stake on 10 lines`);
  });
});
