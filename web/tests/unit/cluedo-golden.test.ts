// The golden reels' own art (screens/cluedo/symbols.ts): every weapon has a gilded look for the
// free spins, its ivory plaque turned to gold leaf; the portraits, the wild and the bonus keep
// their own (already gilt-framed) art.
import { describe, expect, it, vi } from "vitest";
vi.mock("pixi.js", () => import("./pixi-stub"));
import { CLUEDO_SYMBOLS, GOLDEN, gilded } from "../../src/screens/cluedo/symbols";

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
