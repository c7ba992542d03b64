// A lobby tile names its game once (screens/lobby/tile.ts).
import { describe, expect, it } from "vitest";
import { pictureNamesGame, prefixIds, tileCard, withoutFrame, withoutName } from "../../src/screens/lobby/tile";
import { cluedoCard } from "../../src/screens/cluedo/pitch";
import { copsCard } from "../../src/screens/cops-n-robbers/pitch";
import { candyCard } from "../../src/screens/candy-jar-clusters/pitch";
import { fixture } from "./fixtures";
import { COPS_THEME } from "../../src/screens/cops-n-robbers/theme";
import candyTile from "../../src/screens/candy-jar-clusters/art/tile.svg?raw";

describe("a tile's picture names its game", () => {
  it("by the whole title or its first words", () => {
    expect(pictureNamesGame(["COPS n ROBBERS"], "Cops n Robbers Big Money Christmas")).toBe(true);
    expect(pictureNamesGame(["CANDY JAR"], "Candy Jar Clusters")).toBe(true);
    expect(pictureNamesGame(["Ways Example"], "Ways Example")).toBe(true);
  });
  it("not by a word that only begins the title's, nor by other texts, nor by none", () => {
    expect(pictureNamesGame(["CAND"], "Candy Jar Clusters")).toBe(false);
    expect(pictureNamesGame(["WILD", "x2"], "Wild Multiplier Example")).toBe(false);
    expect(pictureNamesGame(["7"], "7 Sevens")).toBe(false);
    expect(pictureNamesGame([], "Cluedo")).toBe(false);
  });
});

// The playtest: Cops' and Candy's tiles had no logo under their art (Cluedo's has), and "Big
// Money Christmas" showed nowhere. Every tile now shows its logo; the art's own name goes.
describe("a tile's art without the game's name", () => {
  const texts = (svg: string) => [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  it("drops the texts that name the game, keeps the others", () => {
    const cops = withoutName(COPS_THEME.tile!, "Cops n Robbers Big Money Christmas");
    expect(texts(COPS_THEME.tile!)).toContain("COPS n ROBBERS");
    expect(texts(cops)).not.toContain("COPS n ROBBERS");
    expect(texts(cops).filter((t) => t === "WILD")).toHaveLength(2);
    expect(texts(withoutName(candyTile, "Candy Jar Clusters"))).toEqual([]);
    expect(withoutName(candyTile, "Candy Jar Clusters")).toContain("<rect");
  });
  it("leaves a picture that does not name the game as it is", () => {
    const svg = '<svg><text x="1">x2</text><text>WILD</text></svg>';
    expect(withoutName(svg, "Wild Multiplier Example")).toBe(svg);
  });
});

describe("a second copy of a tile's art (the lobby's hero)", () => {
  it("names its ids and their references apart, leaving the rest alone", () => {
    const svg = `<svg><defs><linearGradient id="sky"/><pattern id="w"/></defs><rect fill="url(#sky)"/><use href="#w"/><rect fill="#123"/></svg>`;
    expect(prefixIds(svg, "hero-")).toBe(`<svg><defs><linearGradient id="hero-sky"/><pattern id="hero-w"/></defs><rect fill="url(#hero-sky)"/><use href="#hero-w"/><rect fill="#123"/></svg>`);
  });
});

describe("a tile's art without its frame (the lobby's hero)", () => {
  it("drops a last unfilled rect only", () => {
    expect(withoutFrame(`<svg><rect fill="none" x="1"/><circle/><rect x="3" fill="none" stroke="gold"/>\n</svg>\n`)).toBe(`<svg><rect fill="none" x="1"/><circle/></svg>\n`);
    expect(withoutFrame(`<svg><rect fill="#000"/></svg>`)).toBe(`<svg><rect fill="#000"/></svg>`);
  });
});

// The playtest read the info card as a spec (Candy's "RTP 96.00%" in the description, then
// "95.98% est."; "ID parade"): a pitch and features in a player's words, one RTP, max win.
describe("a tile's info card", () => {
  const game = (rtp: { mode: string; value: number; source: string }[], info = fixture("candy-jar-clusters").info) => ({
    info, rtp: rtp.map((r) => ({ ...r, ci95: null })), max_win: { credits: 4000000, x: 10000, enforced: "cap" },
    bets: [{ lines: 20, bet_per_line: 1 }] as never[], denomination: 1, currency: "EUR", jackpot: false,
  });
  it("says one RTP, the base game's as the server publishes it, without the estimate's note", () => {
    expect(tileCard(game([{ mode: "base", value: 0.95977757, source: "estimate" }])).rtp).toBe("95.98%");
    expect(tileCard(game([{ mode: "fortune", value: 0.93, source: "exact" }, { mode: "base", value: 0.92, source: "exact" }])).rtp).toBe("92.00%");
    expect(tileCard(game([])).rtp).toBe("—");
  });
  it("says the max win as every screen does (core/max-win.ts), then in credits and money at the top bet", () => {
    expect(tileCard(game([])).maxWin).toEqual({ x: "10,000× the bet", detail: "4,000,000 credits, €40,000.00 at the top bet" });
    // the new player read Cluedo's exact 240,118.4 as "240,118.4x" here, "240,118×" in its intro
    const cluedo = { ...game([]), max_win: { credits: 24011840, x: 240118.4, enforced: "exact" } };
    expect(tileCard(cluedo).maxWin.x).toBe("240,118× the bet");
  });
  it("says a progressive jackpot is paid on top of the max win, and nothing of one without it", () => {
    // the new player saw Cluedo's €1,000,000 jackpot beside "Max win" and could not tell the one from the other
    expect(tileCard({ ...game([]), jackpot: true }).jackpot).toBe("Plus the progressive Jackpot, paid on top of the max win");
    expect(tileCard(game([])).jackpot).toBeNull();
  });
  it("takes the module's words, else the game file's description", () => {
    const g = game([]);
    expect(tileCard(g, { pitch: "P", features: ["F"] })).toMatchObject({ pitch: "P", features: ["F"] });
    expect(tileCard(g)).toMatchObject({ pitch: g.info.description, features: [] });
  });
  it("gives each shipped game a pitch and features from its own figures, none of the description's spec words", () => {
    const cluedo = cluedoCard({ info: fixture("cluedo").info, gamble: "on" });
    expect(cluedo.features).toContain("3+ Mystery Bonus: 15 free spins on golden reels, wins x3");
    expect(cluedo.features).toContain("5 MegaJackpots on line 1 at max bet win the jackpot");
    expect(cluedoCard({ info: fixture("cluedo").info, gamble: "off" }).features.some((f) => f.includes("Gamble"))).toBe(false);
    const cops = copsCard({ modes: [{ name: "base", title: "Base", price: 1 }, { name: "fortune", title: "Fortune Spins", price: 2 }], gamble: "5x" });
    expect(cops.features).toContain("Fortune Spins: 2x the stake for reels of presents and robbers");
    expect(cops.features).toContain("Gamble wins of 5x the stake or more on the cash and bonus wheels");
    const jackpots = [{ name: "MINI", collect: 2, pays_x: 10 }, { name: "MAXI", collect: 5, pays_x: 100 }, { name: "GRAND", collect: 5, pays_x: 2000 }];
    const candy = candyCard({ info: { ...fixture("candy-jar-clusters").info, jackpots } });
    expect(candy.features).toContain("Fixed jackpots from Mini (10x) to Grand (2,000x the bet)");
    expect(candy.pitch).toContain("jackpots up to Grand");
    expect(candyCard({ info: { ...fixture("candy-jar-clusters").info, jackpots: [] } }).pitch).not.toContain("jackpots");
    for (const card of [cluedo, cops, candy]) {
      expect(card.pitch.length).toBeLessThanOrEqual(80);
      for (const line of [card.pitch, ...card.features]) expect(line).not.toMatch(/RTP|\best\.|5x3|7x7/);
    }
  });
});
