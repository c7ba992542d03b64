// The console's sentence as a step (a gamble, Spin Chance) ends the round.
import { describe, expect, it } from "vitest";
import { stepEndNotice } from "../../src/screens/game/step-end";

describe("step end notice", () => {
  it("says what a paying step paid, in credits and money", () => {
    expect(stepEndNotice("gamble", "collect", 120, "€1.20", false)).toBe("The round paid 120 credits (€1.20).");
  });
  it("says a lost gamble or Spin Chance lost, in two words when the player is out of funds", () => {
    expect(stepEndNotice("gamble", "red", 0, "€0.00", false)).toBe("The gamble is lost: the round pays nothing.");
    expect(stepEndNotice("cash_wheel", ["spin"], 0, "€0.00", false)).toBe("The gamble is lost: the round pays nothing.");
    expect(stepEndNotice("spin_chance", "play", 0, "€0.00", false)).toBe("Spin Chance lost: the round pays nothing.");
    expect(stepEndNotice("spin_chance", "play", 0, "€0.00", true)).toBe("Spin Chance lost.");
  });
  it("does not call a declined Spin Chance lost: the credit stays in the balance", () => {
    for (const choice of ["decline", ["decline"]]) {
      const words = stepEndNotice("spin_chance", choice, 0, "€0.00", false);
      expect(words).not.toMatch(/lost/);
      expect(words).toBe("Spin Chance declined: your credit stays in the balance.");
    }
    expect(stepEndNotice("spin_chance", "decline", 0, "€0.00", true)).toBe("Spin Chance declined.");
  });
});
