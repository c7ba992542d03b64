// The intro card of a game with none written for it (ui/intro.ts derivedIntro): what a new
// player needs, from the game's own data: its rules' overview, the gist of its features, its RTP
// and maximum win.
import { describe, expect, it } from "vitest";
import { INTROS, derivedIntro, introFor } from "../../src/ui/intro";
import type { GameInfo, HelpSection } from "../../src/net/types";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const help: HelpSection[] = [
  { id: "overview", title: "Game overview", blocks: [{ kind: "p", parts: ["Gems is played on a 7×7 grid. Symbols pay in clusters of at least ", { strong: "5" }, " symbols."] }] },
  { id: "pays", title: "Symbol payouts", blocks: [{ kind: "ul", items: [["Each cluster is paid once."]] }, { kind: "paytable" }] },
  { id: "tumble", title: "Tumble feature", blocks: [{ kind: "ul", items: [["After every spin, winning clusters are paid and their symbols disappear. The rest fall."], ["Tumbling continues."]] }] },
  { id: "free-spins", title: "Free spins", blocks: [{ kind: "ul", items: [["Scatter never forms a cluster."], ["3 or more scatters award free spins: 3 → 10, 4 → 12."]] }] },
  { id: "max-win", title: "Maximum win", blocks: [{ kind: "ul", items: [["A round's win is capped at 5000 times the bet."]] }] },
];
const here0 = dirname(fileURLToPath(import.meta.url));
/** The shipped Cluedo's data as the server sends it (tests/fixtures/cluedo.json). */
const cluedoInfo = (JSON.parse(readFileSync(join(here0, "..", "fixtures", "cluedo.json"), "utf8")) as { info: GameInfo }).info;
const game = {
  title: "Gems", currency: "EUR", modes: [{ name: "base", title: "Base", price: 1 }],
  rtp: [{ mode: "base", value: 0.9612, source: "exact", ci95: null }],
  max_win: { credits: 100000, x: 5000, enforced: "cap" },
  info: { help: { sections: help }, description: "7x7 clusters of 5+" },
};

const cluedo = { ...game, title: "Cluedo", info: { ...cluedoInfo, help: { sections: [] }, description: "" } };

describe("a derived intro", () => {
  it("leads with the rules' overview, gives each feature's gist (a sentence with a number first), then RTP and maximum win", () => {
    const { lead, points } = derivedIntro(game);
    expect(lead).toBe("Gems is played on a 7×7 grid. Symbols pay in clusters of at least 5 symbols.");
    expect(points).toEqual([
      "Tumble feature: After every spin, winning clusters are paid and their symbols disappear.",
      "Free spins: 3 or more scatters award free spins.",
      "Return to player 96.12% · maximum win 5,000× the bet",
    ]);
  });
  it("falls back on the game's description when it has no help pages", () => {
    const bare = { ...game, info: { help: { sections: [] }, description: "7x7 clusters of 5+" } };
    expect(derivedIntro(bare).lead).toBe("7x7 clusters of 5+");
  });
});

describe("a written intro", () => {
  it("ends with the game's RTP and maximum win, as a derived one does (the playtest found Candy Jar's card without its 10,000x)", () => {
    const candy = { ...game, title: "Candy Jar Clusters", max_win: { credits: 200000, x: 10000, enforced: "cap" } };
    const { lead, points } = introFor("candy-jar-clusters", candy);
    expect(lead).toBe(INTROS["candy-jar-clusters"]!.lead);
    expect(points.slice(0, -1)).toHaveLength(INTROS["candy-jar-clusters"]!.points.length);
    expect(points.at(-1)).toBe("Return to player 96.12% · maximum win 10,000× the bet");
  });
  it("says a maximum win of a fraction of the bet as whole times the bet, never more than it is (the playtest read Cluedo's 240,118.4x)", () => {
    // the server's x is the top award over the stake at the bet it is reached with: exact, so
    // often not whole; the card rounds it down, so it never promises more than the game pays
    const at = (x: number) => introFor("cluedo", { ...game, max_win: { credits: 1, x, enforced: "none" } }).points.at(-1);
    expect(at(240118.4)).toBe("Return to player 96.12% · maximum win 240,118× the bet");
    expect(at(5000)).toBe("Return to player 96.12% · maximum win 5,000× the bet");
    expect(at(12.75)).toBe("Return to player 96.12% · maximum win 12.7× the bet");
  });
  it("names Cluedo's bonus symbol by the seed's name, Mystery Bonus symbols (the playtest read 'files')", () => {
    const said = introFor("cluedo", cluedo).points.join(" ");
    expect(said).toContain("3 or more Mystery Bonus symbols");
    expect(said).not.toMatch(/files/);
  });
  it("Cluedo's card says what its paytable pays: the symbols that pay 2 of a kind named beside the 3 or more (the playtest saw a wild and one Miss Scarlet pay)", () => {
    const rows = cluedo.info.pays.table.map((r) => ({ name: cluedo.info.symbols.find((s) => s.id === r.symbol)!.name, from: Math.min(...r.pays.map(([n]) => n)) }));
    const two = rows.filter((r) => r.from === 2).map((r) => r.name);
    expect(two.length).toBeGreaterThan(0); // (the fixture is the shipped game's: MJ and Miss Scarlet)
    const line = introFor("cluedo", cluedo).points.find((p) => p.startsWith("Line up"))!;
    expect(line).toMatch(/^Line up 3 or more suspects or weapons from the left on a line to win; /);
    for (const name of two) expect(line).toContain(name);
    expect(line).toMatch(/pay from 2\.$/);
    // and the Mystery Bonus: 2 pay a scatter award, 3 start the free spins
    expect(introFor("cluedo", cluedo).points.join(" ")).toContain("3 or more Mystery Bonus symbols anywhere open free spins on the secret golden reels (2 or more pay too).");
  });
  it("Cluedo's card says who can win the progressive jackpot, from the game's data (the playtest's first visit read nothing of it): bet max, line 1 the centre line, the free spins too", () => {
    const bets = [
      { lines: 20, bet_per_line: 1, stake_credits: 20, cost_minor: {}, jackpot_eligible: false },
      { lines: 20, bet_per_line: 5, stake_credits: 100, cost_minor: {}, jackpot_eligible: true },
    ];
    const said = introFor("cluedo", { ...cluedo, bets }).points;
    expect(said).toContain("Bet max (100 credits) to be eligible for the progressive jackpot: 5 MegaJackpots on the centre payline, in Mystery Bonus free spins too.");
    // the figures are the game's: another jackpot line and no free games say so
    const { free_games: _none, ...noFree } = cluedo.info;
    const other = { ...cluedo, bets, info: { ...noFree, progressive_jackpot: { symbol: "MJ", count: 4, line: 2, requires_max_bet: true } } };
    expect(introFor("cluedo", other).points).toContain("Bet max (100 credits) to be eligible for the progressive jackpot: 4 MegaJackpots on line 2.");
    // a game file without the jackpot: no point, not an empty one
    const { progressive_jackpot: _gone, ...noJackpot } = cluedo.info;
    const plain = introFor("cluedo", { ...cluedo, info: noJackpot }).points;
    expect(plain.some((p) => /progressive jackpot/.test(p) || !p)).toBe(false);
  });
  it("a written intro without a paytable to read says its written counts", () => {
    expect(introFor("cluedo", game).points[0]).toBe("Line up 3 or more suspects or weapons from the left on a line to win.");
  });
  it("a game without a written one gets the derived intro", () => {
    expect(introFor("gems", game)).toEqual(derivedIntro(game));
  });
  it("Candy Jar's says what starts free spins as its rules do: how many candies in one spin, never full jars", () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const described = JSON.parse(readFileSync(join(here, "..", "fixtures", "candy-jar-clusters-help.json"), "utf8")) as { help: { sections: HelpSection[] } };
    const said = JSON.stringify(described.help);
    const trigger = Number(/receive (\d+) or more candies in one spin/.exec(said)![1]);
    const candy = { ...game, title: "Candy Jar Clusters", info: { help: described.help, description: "" } };
    const { points } = introFor("candy-jar-clusters", candy);
    expect(points.filter((p) => /jar/i.test(p))).toEqual([`Yellow, red and green candies drop into three jars: ${trigger} or more in one spin start free spins with extra treats.`]);
    expect(points.join(" ")).not.toMatch(/full jars|\{/);
  });
});

