// A lobby tile names its game once (screens/lobby/tile.ts).
import { describe, expect, it } from "vitest";
import { pictureNamesGame, prefixIds, withoutFrame, withoutName } from "../../src/screens/lobby/tile";
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
