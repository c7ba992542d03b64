// The lobby's posters (screens/lobby/poster.ts): every shipped game's tile stands its cast of
// three of its own symbols in front of its scene (the gallery's reviewer found Cops' and
// Candy's tiles thin beside Cluedo's hero), and no two copies of art in the page share an id.
import { describe, expect, it, vi } from "vitest";
vi.mock("pixi.js", () => import("./pixi-stub"));
import { castOf, sceneOf } from "../../src/screens/lobby/poster";
import { CLUEDO_THEME } from "../../src/screens/cluedo/theme";
import { CLUEDO_SYMBOLS } from "../../src/screens/cluedo/symbols";
import { COPS_THEME } from "../../src/screens/cops-n-robbers/theme";
import { COPS_SYMBOLS } from "../../src/screens/cops-n-robbers/symbols";
import { CANDY_THEME } from "../../src/screens/candy-jar-clusters/theme";
import { CANDY_SYMBOLS } from "../../src/screens/candy-jar-clusters/symbols";

const SHIPPED = [
  { key: "cluedo", title: "Cluedo MegaJackpots", theme: CLUEDO_THEME, symbols: CLUEDO_SYMBOLS },
  { key: "cops-n-robbers", title: "Cops n Robbers Big Money Christmas", theme: COPS_THEME, symbols: COPS_SYMBOLS },
  { key: "candy-jar-clusters", title: "Candy Jar Clusters", theme: CANDY_THEME, symbols: CANDY_SYMBOLS },
];
const ids = (svg: string) => [...svg.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);

describe("a lobby poster", () => {
  it("stands three of the game's own symbols in front of its scene, for every shipped game", () => {
    for (const g of SHIPPED) {
      const cast = castOf(g);
      expect(cast, g.key).toHaveLength(3);
      cast.forEach((svg, i) => expect(svg, `${g.key} ${g.theme.cast![i]}`).toBe(castOf({ key: g.key, theme: { cast: [g.theme.cast![i]!] }, symbols: g.symbols })[0]));
    }
  });
  it("gives every copy of art in the lobby its own ids", () => {
    const all = SHIPPED.flatMap((g) => [...castOf(g), sceneOf(g.theme.tile!, g.title, true, `ground-${g.key}-`), sceneOf(g.theme.tile!, g.title, true, `scene-${g.key}-`)].flatMap(ids));
    expect(new Set(all).size).toBe(all.length);
  });
  it("names the game once: the scene without the name its logo says, nor the tile's frame", () => {
    const scene = sceneOf(COPS_THEME.tile!, "Cops n Robbers Big Money Christmas", true, "s-");
    expect(scene).not.toContain("COPS n ROBBERS");
    expect(sceneOf(CLUEDO_THEME.tile!, "Cluedo MegaJackpots", true, "s-")).not.toMatch(/<rect\b[^>]*fill="none"[^>]*\/>\s*<\/svg>\s*$/);
  });
  it("has no cast where the theme names none or the table lacks a symbol", () => {
    expect(castOf(undefined)).toEqual([]);
    expect(castOf({ key: "x", theme: { cast: ["NOPE"] }, symbols: {} })).toEqual([]);
  });
});

describe("a logo on a phone's tile", () => {
  it("is cut above its subtitle (too small to read there), below its title's line", async () => {
    const { logoTitleBox } = await import("../../src/screens/lobby/tile");
    for (const g of SHIPPED) {
      const logo = g.theme.logo!;
      const texts = [...logo.matchAll(/<text\b[^>]*\by="([\d.]+)"[^>]*\bfont-size="([\d.]+)"[^>]*>|<text\b[^>]*\bfont-size="([\d.]+)"[^>]*\by="([\d.]+)"[^>]*>/g)]
        .map((m) => ({ y: Number(m[1] ?? m[4]), size: Number(m[2] ?? m[3]) }));
      const big = Math.max(...texts.map((t) => t.size));
      const box = logoTitleBox(logo);
      expect(box, g.key).not.toBeNull();
      // every title line whole above the cut, every subtitle's letters below it
      for (const t of texts.filter((t) => t.size === big)) expect(box!.title, `${g.key} title at ${t.y}`).toBeGreaterThan(t.y);
      for (const t of texts.filter((t) => t.size < big)) expect(box!.title, `${g.key} subtitle at ${t.y}`).toBeLessThanOrEqual(t.y - t.size * 0.75);
      expect(box!.width).toBeGreaterThan(0);
    }
    expect(logoTitleBox('<svg viewBox="0 0 100 40"><text y="30" font-size="30">ONE</text></svg>')).toBeNull();
  });
});
