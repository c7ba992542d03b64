// Cluedo's signs under the reels on a phone (cluedo/signs.ts): each feature's words from the
// game's own figures as the server sends them (the fixture is the shipped cluedo-v1's info).
import { describe, expect, it } from "vitest";
import { cluedoSigns } from "../../src/screens/cluedo/signs";
import { fixture } from "./fixtures";

const info = fixture("cluedo").info;

describe("Cluedo's signs", () => {
  it("say the MegaJackpot, the Mystery Bonus and the wild from the game's figures", () => {
    const signs = cluedoSigns(info);
    expect(signs.map((s) => s.kind)).toEqual(["jackpot", "bonus", "wild"]);
    const jp = info.progressive_jackpot!, fg = info.free_games!;
    // the sheet's words: "5 MegaJackpots symbols on the centre payline with max bet" (line 1 is
    // the centre row; the playtest read "5 on line 1 at max bet")
    expect(signs[0]!.line).toBe(`${jp.count} on the centre payline at max bet`);
    expect(signs[1]!.line).toBe(`3+ anywhere: ${fg.award.find(([n]) => n === 3)![1]} free spins, wins x${fg.multiplier}`);
    expect(signs[2]!.title).toBe("WILD x2");
    expect(signs[2]!.line).toMatch(/^MegaJackpots doubles a line's pay$/);
  });
  it("name a jackpot line that is not the centre row by its number", () => {
    const other = { ...info, progressive_jackpot: { ...info.progressive_jackpot!, line: 2 } };
    expect(cluedoSigns(other)[0]!.line).toBe(`${info.progressive_jackpot!.count} on line 2 at max bet`);
  });
  it("show no sign of a feature the game does not have", () => {
    expect(cluedoSigns({ ...info, progressive_jackpot: undefined, free_games: undefined, wilds: [] }).map((s) => s.kind)).toEqual([]);
  });
});
