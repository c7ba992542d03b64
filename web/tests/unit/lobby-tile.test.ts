// A lobby tile names its game once (screens/lobby/tile.ts).
import { describe, expect, it } from "vitest";
import { pictureNamesGame } from "../../src/screens/lobby/tile";

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
