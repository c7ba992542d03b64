// Cops n Robbers' signs (signs.ts): the playtest read "A robber collects it" and asked what "it"
// was; on a phone the signs were hidden. Each sign says what it is about in full words, at
// both sizes.
import { describe, expect, it } from "vitest";
import { copsSigns, FORTUNE_SIGN } from "../../src/screens/cops-n-robbers/signs";
import { TRAIL } from "../../src/screens/cops-n-robbers/handlers";

const signs = copsSigns(Object.values(TRAIL.marks));

describe("the signs", () => {
  it("name what the robber collects: the presents' cash, on the sign and in full", () => {
    const presents = signs.find((s) => s.kind === "presents")!;
    for (const line of [presents.full, presents.short]) {
      expect(line).toMatch(/collects the (cash values on the )?presents/i);
      expect(line).not.toMatch(/\bit\b/);
    }
  });
  // The reviewer: paragraphs under the reels, where a commercial slot shows signs. Each sign's
  // line is a few words; what it promises in full is its accessible name and tooltip.
  it("say a few words each, the rule sheet's promise in full beside them", () => {
    expect(signs.map((s) => s.kind)).toEqual(["presents", "trail", "gamble"]);
    for (const s of [...signs, FORTUNE_SIGN]) {
      expect(`${s.title} ${s.short}`.split(/\s+/).length).toBeLessThanOrEqual(10);
      expect(s.full.length).toBeGreaterThan(s.short.length);
    }
    expect(signs.find((s) => s.kind === "trail")!.short).toContain("10x"); // the trail's top multiplier (the rule sheet)
    expect(signs.find((s) => s.kind === "gamble")!.full).toMatch(/third more, double or triple/);
  });
  it("say in Fortune Spins what the reels hold and what the player waits for (the playtest: mostly blank snowflakes, nothing said why)", () => {
    const fortune = FORTUNE_SIGN;
    expect(fortune.title).toBe("FORTUNE SPINS");
    expect(fortune.full).toMatch(/presents, robbers and BONUS/);
    expect(fortune.full).toMatch(/snowflakes are blanks/);
    expect(fortune.full).toMatch(/robber.*collects the cash on every present/);
    expect(fortune.short).toMatch(/snowflakes are blanks.*robber/i);
  });
});
