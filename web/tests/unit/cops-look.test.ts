// Cops n Robbers' look as data: how long the bonus's cards stand, and the words on the gamble
// wheels' segments (the gallery's reviewer: intros never seen; segments unlabelled).
import { describe, expect, it } from "vitest";
import { copsMomentMs } from "../../src/screens/cops-n-robbers/handlers";
import { segmentWords } from "../../src/screens/cops-n-robbers/wheel";
import { HUB_R, LABEL_EM, MIN_LABEL, segmentLabel, shownShare, sliceLabel, wheelSlices } from "../../src/screens/cops-n-robbers/wheel-spin";

describe("the bonus's cards stand long enough to be read", () => {
  it("the intro: its title and three lines, over 4 s; in turbo still 2 s", () => {
    expect(copsMomentMs("bonus-intro", false)).toBeGreaterThanOrEqual(4000);
    expect(copsMomentMs("bonus-intro", true)).toBeGreaterThanOrEqual(2000);
  });
  it("the outro's total: 2 s even in turbo", () => {
    expect(copsMomentMs("bonus-outro", true)).toBeGreaterThanOrEqual(2000);
    expect(copsMomentMs("bonus-outro", false)).toBeGreaterThanOrEqual(copsMomentMs("bonus-outro", true));
  });
});

describe("the wheels' segments say what they give, in the rule sheet's words", () => {
  it("green: the cash value, the bonus, the spin; red: LOSE", () => {
    expect(segmentWords("cash", 1333)).toEqual({ green: "1,333", red: "LOSE" });
    expect(segmentWords("bonus", 2)).toEqual({ green: "SUPER BONUS", red: "LOSE" });
    expect(segmentWords("chance", 0)).toEqual({ green: "SPIN", red: "LOSE" });
  });
  for (const [from, to] of [[0, 0.04], [0, 1 / 3], [0.04, 1], [1 / 3, 1], [0, 0.5], [0.96, 1]] as const) {
    it(`a word sits inside its arc ${from.toFixed(2)}..${to.toFixed(2)}, upright, sized to it`, () => {
      const at = segmentLabel(from, to)!;
      const angle = ((Math.atan2(at.x, -at.y) / (2 * Math.PI)) + 1) % 1;
      expect(angle).toBeGreaterThanOrEqual(from);
      expect(angle).toBeLessThanOrEqual(to);
      expect(Math.hypot(at.x, at.y)).toBeLessThan(80); // inside the rim's lights
      expect(Math.abs(at.rotate)).toBeLessThanOrEqual(90); // never upside down
      expect(at.size).toBeGreaterThanOrEqual(9);
    });
  }
  for (const [from, to] of [[0, 0.9], [0, 0.5], [0.3, 1], [0, 1]] as const) {
    it(`a long word level on the arc ${from}..${to} stays inside the rim's lights`, () => {
      const at = segmentLabel(from, to, "SUPER BONUS".length)!;
      const half = (LABEL_EM * at.size * "SUPER BONUS".length) / 2;
      for (const x of [at.x - half, at.x + half]) expect(Math.hypot(x, at.y)).toBeLessThanOrEqual(92.5);
    });
  }
  it("no word on an arc that is not drawn", () => {
    expect(segmentLabel(0, 0)).toBeNull();
    expect(segmentLabel(1, 1)).toBeNull();
  });
});

// The prize wheel's slices (wheelSlices): each word inside its slice, along the radius between
// the hub and the rim's lights, or none where it would be too small to read.
describe("the words on a prize wheel's slices", () => {
  for (const share of [0.04, 0.1, 1 / 3, 0.5, 0.75, 0.96]) {
    it(`sit inside their slices and between the hub and the lights at share ${share}`, () => {
      for (const word of ["LOSE", "1,333", "SUPER BONUS", "SUPER"]) {
        for (const s of wheelSlices(shownShare(share))) {
          const at = sliceLabel(s.from, s.to, word.length);
          if (!at) continue;
          expect(at.size).toBeGreaterThanOrEqual(MIN_LABEL);
          const angle = ((Math.atan2(at.x, -at.y) / (2 * Math.PI)) + 1) % 1;
          expect(angle).toBeGreaterThanOrEqual(s.from);
          expect(angle).toBeLessThanOrEqual(s.to);
          const half = (LABEL_EM * at.size * word.length) / 2;
          const r = Math.hypot(at.x, at.y);
          if (s.to - s.from < 0.3) {
            // along the radius: from r - half to r + half, clear of the hub, inside the lights
            expect(r - half).toBeGreaterThanOrEqual(HUB_R - 1e-9);
            expect(r + half).toBeLessThanOrEqual(92 + 1e-9);
          }
        }
      }
    });
  }
});
