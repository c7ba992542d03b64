import { describe, expect, it } from "vitest";
import { recallBet, rememberBet } from "../../src/screens/info/current-bet";

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
}

describe("the current bet for the information page", () => {
  it("is the one last remembered for that game", () => {
    const s = memory();
    expect(recallBet(s, "cluedo")).toBeNull();
    rememberBet(s, "cluedo", { lines: 20, bet_per_line: 2, mode: "base" });
    rememberBet(s, "cops-n-robbers", { lines: 10, bet_per_line: 5, mode: "fortune" });
    expect(recallBet(s, "cluedo")).toEqual({ lines: 20, bet_per_line: 2, mode: "base" });
    expect(recallBet(s, "cops-n-robbers")?.mode).toBe("fortune");
  });
  it("refuses a corrupt or foreign entry", () => {
    const s = memory();
    s.setItem("reelforge.bet.cluedo", "{not json");
    expect(recallBet(s, "cluedo")).toBeNull();
    s.setItem("reelforge.bet.cluedo", JSON.stringify({ lines: 1.5, bet_per_line: 1, mode: "base" }));
    expect(recallBet(s, "cluedo")).toBeNull();
  });
});
