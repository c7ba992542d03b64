// Candy Jar's jar captions: read from the information pages the server serves
// (candy-jar-clusters-help.json), the trigger count checked against the game file itself.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { GameInfo } from "../../src/net/types";
import { JAR_NAMES, JARS } from "../../src/screens/candy-jar-clusters/handlers";
import { extraLine, extraMeter, JAR_BOX, jarFill, jarRules, pileSlots, superSpinEvery, triggerLine } from "../../src/screens/candy-jar-clusters/jars";
import { MODIFIER_ART, modifierWords } from "../../src/screens/candy-jar-clusters/modifiers";

const here = dirname(fileURLToPath(import.meta.url));
const described = JSON.parse(readFileSync(join(here, "..", "fixtures", "candy-jar-clusters-help.json"), "utf8")) as { help: GameInfo["help"] };
const gameFile = readFileSync(join(here, "..", "..", "..", "src", "reelforge", "games", "candy_jar_clusters", "candy-jar-clusters-v1.toml"), "utf8");

describe("candy jar captions", () => {
  const rules = jarRules(described);

  it("say for every jar the candy it collects and the modifier it is for, as the pages do", () => {
    expect([...rules.captions.keys()].sort()).toEqual([...JARS].sort());
    expect(rules.captions.get("wild")?.candy).toBe("Yellow candy");
    expect(rules.captions.get("free_spins")?.candy).toBe("Red candy");
    expect(rules.captions.get("jackpots")?.candy).toBe("Green candy");
    for (const j of JARS) expect(rules.captions.get(j)?.gives, j).toContain(`Free Spins with the ${JAR_NAMES[j]} modifier`);
  });

  it("give the game file's trigger count: the candies in one spin that start Free Spins", () => {
    const inFile = /^trigger_candies\s*=\s*(\d+)/m.exec(gameFile);
    expect(inFile).not.toBeNull();
    expect(rules.trigger).toBe(Number(inFile![1]));
  });

  it("say nothing the pages do not: no section, no captions", () => {
    const none = jarRules({ help: { sections: [] } } as unknown as Pick<GameInfo, "help">);
    expect(none.captions.size).toBe(0);
    expect(none.trigger).toBeNull();
  });

  // the words under the jars and beside the counter: the sheet's, in plain terms (the playtest
  // found "3 or more candies in one spin: FREE SPINS start" and "EXTRA FREE SPINS: 1 toward the
  // next SUPER SPIN" unclear)
  it("say which candies start Free Spins, and what a SUPER SPIN takes, from the pages and the game file", () => {
    // the pages: the jars are emptied after every spin (the counter beside the line reads 0 / 3
    // again each spin: a playtest read "full jars start free spins" against it)
    expect(rules.emptiedEverySpin).toBe(true);
    expect(triggerLine(rules)).toBe(`${rules.trigger} or more yellow, red or green candies in one spin start FREE SPINS · the jars empty after every spin`);
    expect(triggerLine({ ...rules, emptiedEverySpin: false })).toBe(`${rules.trigger} or more yellow, red or green candies in one spin start FREE SPINS`);
    // a phone's, short enough for 12 px in half its width (the jars' lids show the colours)
    expect(triggerLine(rules, true)).toBe(`${rules.trigger} or more candies in one spin start FREE SPINS · jars empty every spin`);
    const every = Number(/^per_super_spin\s*=\s*(\d+)/m.exec(gameFile)![1]);
    const rule = superSpinEvery(described);
    expect(rule).toEqual({ every, symbol: "Extra Free Spin" });
    expect(extraLine(1, rule)).toBe(`SUPER SPIN: 1 of ${every} Extra Free Spin symbols collected`);
    expect(superSpinEvery({ help: { sections: [] } })).toBeNull();
  });
});

describe("the candies in a jar's glass", () => {
  it("a candy per candy up to the trigger, then full (the count says the rest)", () => {
    expect(jarFill(0, 3)).toEqual({ pieces: 0, full: false });
    expect(jarFill(2, 3)).toEqual({ pieces: 2, full: false });
    expect(jarFill(3, 3)).toEqual({ pieces: 3, full: true });
    expect(jarFill(7, 3)).toEqual({ pieces: 3, full: true });
  });

  for (const capacity of [1, 2, 3, 4, 5, 7, 9, 12]) {
    it(`${capacity} candies lie inside the glass, bottom first, none on another (capacity ${capacity})`, () => {
      const slots = pileSlots(capacity);
      expect(slots).toHaveLength(capacity);
      for (const s of slots) {
        // inside the body (art/jar-back.svg: x 8..112, floor 118) and under the lid (y 28)
        expect(s.x - s.d / 2).toBeGreaterThanOrEqual(8);
        expect(s.x + s.d / 2).toBeLessThanOrEqual(112);
        expect(s.y + s.d / 2).toBeLessThanOrEqual(118);
        expect(s.y - s.d / 2).toBeGreaterThanOrEqual(28);
        expect(s.d).toBeGreaterThan(10);
      }
      for (let i = 0; i < slots.length; i++) for (let j = i + 1; j < slots.length; j++) {
        const a = slots[i]!, b = slots[j]!;
        expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual(a.d * 0.99);
      }
      // the first lands on the floor; none lies lower than an earlier one's row
      expect(slots[0]!.y + slots[0]!.d / 2).toBeCloseTo(116, 5);
      for (let i = 1; i < slots.length; i++) expect(slots[i]!.y).toBeLessThanOrEqual(slots[i - 1]!.y + 1e-9);
    });
  }

  it("the shipped trigger's candies fill the glass up to its neck (two on the floor, one on them)", () => {
    const trigger = Number(/trigger_candies\s*=\s*(\d+)/.exec(gameFile)![1]);
    const slots = pileSlots(trigger);
    expect(Math.min(...slots.map((s) => s.y - s.d / 2))).toBeLessThan(JAR_BOX.height * 0.35);
    expect(Math.max(...slots.map((s) => s.x + s.d / 2)) - Math.min(...slots.map((s) => s.x - s.d / 2))).toBeGreaterThan(JAR_BOX.width * 0.6);
  });
});

// The free spins' intro pictures each modifier drawn with what it does (the gallery review: the
// modifiers were words alone): the pages' sentence, the game file's numbers in it.
describe("the modifiers' pictures and words", () => {
  const words = modifierWords(described);
  const range = (key: string) => {
    const values = new RegExp(`^${key}\\s*=\\s*\\{\\s*values\\s*=\\s*\\[([^\\]]*)\\]`, "m").exec(gameFile)![1]!.split(",").map(Number);
    return `${Math.min(...values)} to ${Math.max(...values)}`;
  };

  it("say for every modifier what it does, in the pages' first sentence about it, with the game file's numbers", () => {
    expect([...words.keys()].sort()).toEqual([...JARS].sort());
    expect(words.get("wild")?.line).toBe(`${range("count")} wild symbols are placed on the grid in random positions on every spin.`);
    expect(words.get("wild")?.gist).toBe(`${range("count")} wild symbols`);
    expect(words.get("free_spins")?.line).toBe(`At the start of the round, ${range("extra_start")} additional free spins are awarded.`);
    expect(words.get("free_spins")?.gist).toBe(`${range("extra_start")} additional free spins`);
    // the game file's jackpots: one `NAME = { collect = ... }` line each in [features.jackpots]
    const section = gameFile.slice(gameFile.indexOf("[features.jackpots]")).split(/\n\[/)[0]!;
    const count = (section.match(/^\w+ = \{ collect =/gm) ?? []).length;
    expect(count).toBeGreaterThan(0);
    expect(words.get("jackpots")?.line).toBe(`${count} fixed jackpots are available, each with its own symbol.`);
    expect(words.get("jackpots")?.gist).toBe(`${count} fixed jackpots`);
  });

  it("say nothing the pages do not", () => {
    expect(modifierWords({ help: { sections: [] } } as unknown as Pick<GameInfo, "help">).size).toBe(0);
  });

  it("each modifier has its own picture, a drawing of several shapes", () => {
    const pictures = JARS.map((j) => MODIFIER_ART[j]);
    expect(new Set(pictures).size).toBe(JARS.length);
    for (const svg of pictures) {
      expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 120 120"/);
      expect((svg.match(/<(path|circle|ellipse|rect)\b/g) ?? []).length).toBeGreaterThan(5);
    }
  });
});

// The SUPER SPIN count was a sentence in a box ("SUPER SPIN: 2 of 5 Extra Free Spin symbols
// collected", two lines on a phone) that read as a test's log: now a meter, a pip per symbol the
// rule takes, lit as they are collected, and the count; the sentence stays for assistive tools.
describe("the SUPER SPIN meter", () => {
  it("a pip per symbol the pages say a SUPER SPIN takes, lit for each collected", () => {
    expect(extraMeter(2, { every: 5, symbol: "Extra Free Spin" })).toEqual({ pips: 5, lit: 2, count: "2 / 5" });
    expect(extraMeter(0, { every: 5, symbol: "Extra Free Spin" })).toEqual({ pips: 5, lit: 0, count: "0 / 5" });
  });
  it("no pips where the pages give no rule: the count alone", () => {
    expect(extraMeter(3, null)).toEqual({ pips: 0, lit: 0, count: "3" });
  });
});
