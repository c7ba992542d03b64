// Cops n Robbers' signs (signs.ts): the playtest read "A robber collects it" and asked what "it"
// was; on a phone the signs were hidden. Each sign says what it is about in full words, at
// both sizes.
import { describe, expect, it } from "vitest";
import { copsSigns, FORTUNE_SIGN } from "../../src/screens/cops-n-robbers/signs";
import { TRAIL } from "../../src/screens/cops-n-robbers/handlers";

const signs = copsSigns(Object.values(TRAIL.marks));

describe("the signs", () => {
  it("name what the robber collects: the presents' cash, at both sizes", () => {
    const presents = signs.find((s) => s.kind === "presents")!;
    for (const line of [presents.lines[0]!, presents.short]) {
      expect(line).toMatch(/collects the (cash values on the )?presents/);
      expect(line).not.toMatch(/\bit\b/);
    }
  });
  it("have a short line for the phone, each sign its own", () => {
    expect(signs.map((s) => s.kind)).toEqual(["presents", "trail", "gamble"]);
    for (const s of signs) expect(s.short.length).toBeGreaterThan(10);
    expect(signs.find((s) => s.kind === "trail")!.short).toContain("10x"); // the trail's top multiplier (the rule sheet)
  });
  it("say in Fortune Spins what the reels hold and what the player waits for (the playtest: mostly blank snowflakes, nothing said why)", () => {
    const fortune = FORTUNE_SIGN;
    expect(fortune.title).toBe("FORTUNE SPINS");
    expect(fortune.lines.join(" ")).toMatch(/presents, robbers and BONUS/);
    expect(fortune.lines.join(" ")).toMatch(/snowflakes are blanks/);
    expect(fortune.lines.join(" ")).toMatch(/robber.*collects the cash on every present/);
    expect(fortune.short).toMatch(/[Ss]nowflakes are blanks.*robber/);
  });
});
