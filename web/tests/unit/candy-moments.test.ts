// The moments' words and look that gallery reviews found wrong: the celebration's multiple of
// the bet without its thousands separator ("10000x the bet" beside "200,000"), a capped round's
// count-up under a MAX WIN plaque already reading the total, and Candy Jar's moment cards caught
// half-transparent over the grid as they appeared.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { celebrationCount, timesCost } from "../../src/core/celebration";

const here = dirname(fileURLToPath(import.meta.url));

describe("the celebration's words", () => {
  it("the multiple of the cost is grouped as every other figure is", () => {
    expect(timesCost(200_000, 20)).toBe("10,000x");
    expect(timesCost(2_345, 20)).toBe("117x"); // whole times only, not 117.25x
    expect(timesCost(1_000_000, 1)).toBe("1,000,000x");
  });

  it("a capped round's amount is shown whole from the start: the MAX WIN plaque and the WIN meter already read it", () => {
    expect(celebrationCount({ total_win: 200_000, win_capped: true })).toEqual({ to: 200_000, still: true });
    expect(celebrationCount({ total_win: 4_000, win_capped: false })).toEqual({ to: 4_000, still: false });
    expect(celebrationCount({ total_win: 4_000 })).toEqual({ to: 4_000, still: false });
  });
});

describe("Candy Jar's moment cards", () => {
  const css = readFileSync(join(here, "../../src/screens/candy-jar-clusters/candy.css"), "utf8");
  const base = readFileSync(join(here, "../../src/ui/style.css"), "utf8");
  const keyframes = (name: string) => {
    const at = (css + base).indexOf(`@keyframes ${name} `);
    expect(at, `@keyframes ${name}`).toBeGreaterThanOrEqual(0);
    const from = (css + base).slice(at);
    return from.slice(0, from.indexOf("} }") + 3);
  };

  it("appear at full opacity (a card fading in from 0 was photographed see-through over the grid)", () => {
    const rule = /\.theme-candy-jar-clusters \.moment \{([^}]*)\}/.exec(css)?.[1] ?? "";
    // the card's own entrance, else the shared one
    const name = /animation:\s*([\w-]+)/.exec(rule)?.[1] ?? /\n\.moment \{[^}]*animation:\s*([\w-]+)/.exec(base)?.[1];
    expect(name).toBeTruthy();
    expect(keyframes(name!)).not.toMatch(/opacity:\s*0[;\s}]/);
  });

  it("have an opaque backing and full-opacity text", () => {
    const rules = [...css.matchAll(/(\.theme-candy-jar-clusters \.moment[^{]*)\{([^}]*)\}/g)];
    expect(rules.length).toBeGreaterThan(0);
    for (const [, sel, body] of rules) {
      expect(body, sel).not.toMatch(/(^|;)\s*opacity:\s*0?\.\d/);
      const backing = /(?:^|;)\s*background:([^;]*)/.exec(body ?? "")?.[1] ?? "";
      expect(backing, sel).not.toMatch(/rgba\([^)]*,\s*0?\.[0-7]\d*\)|transparent/);
    }
  });
});

describe("Candy Jar's outlined titles", () => {
  // Fredoka's 600 keeps the variable font's overlapping contours: a stroke drawn over the fill
  // outlines them inside the letters (the leg of R and the bar of A came out as loose wedges on
  // FREE SPINS OVER and JACKPOT). Drawn under the fill, only the letters' outer edge shows.
  const css = readFileSync(join(here, "../../src/screens/candy-jar-clusters/candy.css"), "utf8");
  const rules = [...css.replace(/\/\*[\s\S]*?\*\//g, "").matchAll(/([^{}]+)\{([^}]*)\}/g)].map(([, sel, body]) => ({ sel: sel!.trim(), body: body! }));
  const base = rules.find((r) => r.sel === ".theme-candy-jar-clusters .moment-title");

  it("draw their stroke under the fill", () => {
    const stroked = rules.filter((r) => /-webkit-text-stroke:\s*[1-9]/.test(r.body));
    expect(stroked.length).toBeGreaterThan(0);
    for (const r of stroked) {
      const own = /paint-order:\s*stroke/.test(r.body);
      const inherited = r.sel.split(",").every((s) => s.trim().startsWith(".theme-candy-jar-clusters") && s.trim().endsWith(".moment-title"))
        && /paint-order:\s*stroke/.test(base?.body ?? "");
      expect(own || inherited, r.sel).toBe(true);
    }
  });
});

describe("Candy Jar's SUPER SPIN meter on a phone", () => {
  const css = readFileSync(join(here, "../../src/screens/candy-jar-clusters/candy.css"), "utf8");
  // in half a phone's width it broke as "SUPER / SPIN" over "2/ 5" (the gallery's 390x844)
  it("stays on one line: its name, its pips and its count in a row, none of them broken", () => {
    const rule = /\.candy\[data-orientation="portrait"\] \.extra \{([^}]*)\}/.exec(css)?.[1] ?? "";
    expect(rule).toMatch(/flex-direction:\s*row/);
    expect(rule).toMatch(/white-space:\s*nowrap/);
  });
});
