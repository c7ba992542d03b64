import { describe, expect, it } from "vitest";
import { FRAME_CAP_KEY, frameCap } from "../../src/render/clock";

const stored = (value: string | null) => ({ getItem: (k: string) => (k === FRAME_CAP_KEY ? value : null) });

describe("frameCap", () => {
  it("is none unless a whole number of frames of at least one is stored", () => {
    for (const v of [null, "", "0", "-3", "0.5", "abc", "NaN", "Infinity"]) expect(frameCap(stored(v)), String(v)).toBe(0);
    expect(frameCap(undefined)).toBe(0);
  });
  it("takes the stored cap, whole, at most 240", () => {
    expect(frameCap(stored("4"))).toBe(4);
    expect(frameCap(stored("7.9"))).toBe(7);
    expect(frameCap(stored("100000"))).toBe(240);
  });
});
