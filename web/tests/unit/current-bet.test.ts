import { describe, expect, it } from "vitest";
import { recallBet, rememberBet } from "../../src/screens/info/current-bet";
import { memoryStorage } from "./memory-storage";

describe("the current bet for the information page", () => {
  it("is the one last remembered for that game", () => {
    const s = memoryStorage();
    expect(recallBet(s, "cluedo")).toBeNull();
    rememberBet(s, "cluedo", { lines: 20, bet_per_line: 2, mode: "base" });
    rememberBet(s, "cops-n-robbers", { lines: 10, bet_per_line: 5, mode: "fortune" });
    expect(recallBet(s, "cluedo")).toEqual({ lines: 20, bet_per_line: 2, mode: "base" });
    expect(recallBet(s, "cops-n-robbers")?.mode).toBe("fortune");
  });
  it("refuses a corrupt or foreign entry", () => {
    const s = memoryStorage();
    s.setItem("reelforge.bet.cluedo", "{not json");
    expect(recallBet(s, "cluedo")).toBeNull();
    s.setItem("reelforge.bet.cluedo", JSON.stringify({ lines: 1.5, bet_per_line: 1, mode: "base" }));
    expect(recallBet(s, "cluedo")).toBeNull();
  });
});
