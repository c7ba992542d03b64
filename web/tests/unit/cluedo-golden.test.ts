// The golden reels' own art (screens/cluedo/symbols.ts): every weapon has a gilded look for the
// free spins, its ivory plaque turned to gold leaf; the portraits, the wild and the bonus keep
// their own (already gilt-framed) art.
import { describe, expect, it, vi } from "vitest";
vi.mock("pixi.js", () => import("./pixi-stub"));
import { paylineStrokes } from "../../src/render/reels";
import { CLUEDO_SYMBOLS, GOLDEN, gilded } from "../../src/screens/cluedo/symbols";
import { FREE_SPIN_LINE } from "../../src/screens/cluedo/theme";

const WEAPONS = ["CANDLESTICK", "DAGGER", "REVOLVER", "ROPE", "WRENCH"];

describe("Cluedo's golden reels' symbols", () => {
  it("gild every weapon's plaque, and only the weapons", () => {
    for (const [id, art] of Object.entries(CLUEDO_SYMBOLS)) {
      const golden = art.variants?.[GOLDEN]?.svg;
      if (!WEAPONS.includes(id)) { expect(golden, id).toBeUndefined(); continue; }
      expect(golden, id).toBeTruthy();
      expect(golden).not.toBe(art.svg);
      expect(golden).not.toContain('stop-color="#fbf4e0"'); // no ivory left
      expect(golden).toContain('stop-color="#e9c15a"'); // gold leaf
    }
  });

  it("refuse art with no ivory plaque (a portrait): a silent no-op would leave the reels as they were", () => {
    expect(() => gilded(CLUEDO_SYMBOLS.SCARLET!.svg!)).toThrow(/no ivory plaque/);
  });
});

describe("the free spins' winning line", () => {
  it("is drawn thick, on a dark rim, in a glow: over the golden reels, not the base game's thin line", () => {
    const cell = 213;
    const [plain, ...more] = paylineStrokes(cell, 0xffe066, null);
    expect(more).toEqual([]);
    const strokes = paylineStrokes(cell, 0xffe066, FREE_SPIN_LINE);
    const line = strokes.find((s) => s.color === FREE_SPIN_LINE.colour && s.alpha === 1)!;
    expect(line.width).toBeGreaterThanOrEqual(2 * plain!.width);
    // gold: red and green high, blue low
    expect([(line.color >> 16) & 255, (line.color >> 8) & 255, line.color & 255]).toSatisfy(([r, g, b]: number[]) => r! > 220 && g! > 180 && b! < 120);
    const under = strokes.slice(0, strokes.indexOf(line));
    // a soft glow wider than the line, and a dark rim just outside it
    expect(under.some((s) => s.width >= 2 * line.width && s.alpha < 1)).toBe(true);
    expect(under.some((s) => s.width > line.width && s.width < 2 * line.width && s.alpha === 1 && ((s.color >> 16) & 255) < 96)).toBe(true);
  });
});
