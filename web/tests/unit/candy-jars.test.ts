// Candy Jar's jar captions: read from the information pages the server serves
// (candy-jar-clusters-help.json), the trigger count checked against the game file itself.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { GameInfo } from "../../src/net/types";
import { JAR_NAMES, JARS } from "../../src/screens/candy-jar-clusters/handlers";
import { extraLine, jarRules, superSpinEvery, triggerLine } from "../../src/screens/candy-jar-clusters/jars";

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
    const every = Number(/^per_super_spin\s*=\s*(\d+)/m.exec(gameFile)![1]);
    const rule = superSpinEvery(described);
    expect(rule).toEqual({ every, symbol: "Extra Free Spin" });
    expect(extraLine(1, rule)).toBe(`SUPER SPIN: 1 of ${every} Extra Free Spin symbols collected`);
    expect(superSpinEvery({ help: { sections: [] } })).toBeNull();
  });
});
