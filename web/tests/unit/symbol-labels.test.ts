// The generic tiles' words (render/symbol-labels.ts): a symbol the module draws no art for is
// labelled with the game file's name, so no two symbols of a game read alike.
import { describe, expect, it } from "vitest";
import { LABEL_FIT, labelScale, symbolLabels } from "../../src/render/symbol-labels";

describe("symbolLabels", () => {
  it("labels each symbol with its name, not its initial: Wolf, Wild and Wild x2 read apart", () => {
    const labels = symbolLabels([{ id: "WOLF", name: "Wolf" }, { id: "WILD", name: "Wild" }, { id: "WILD2", name: "Wild x2" }, { id: "TEN", name: "10" }, { id: "X5", name: "x5" }]);
    expect(Object.fromEntries(labels)).toEqual({ WOLF: "WOLF", WILD: "WILD", WILD2: "WILD\nx2", TEN: "10", X5: "x5" });
  });

  it("uses the id where a symbol has no name, or two names would read alike", () => {
    const labels = symbolLabels([{ id: "S1", name: "Star" }, { id: "S2", name: "star" }, { id: "PEARL" }]);
    expect(Object.fromEntries(labels)).toEqual({ S1: "S1", S2: "S2", PEARL: "PEARL" });
  });

  it("fits a label to the tile: a long name shrinks to the tile's width, a short one keeps its size", () => {
    const s = 100;
    // SAPPHIRE drawn 150 x 34 at the label size: shrunk until it spans LABEL_FIT.width of the tile
    expect(150 * labelScale(150, 34, s)).toBeCloseTo(s * LABEL_FIT.width);
    // a two-line name too tall for the tile is fitted by its height
    expect(80 * labelScale(60, 80, s)).toBeCloseTo(s * LABEL_FIT.height);
    expect(labelScale(30, 34, s)).toBe(1);
  });
});
