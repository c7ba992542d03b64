import { describe, expect, it } from "vitest";
import { rememberTurbo, turboRemembered } from "../../src/core/turbo";
import { memoryStorage } from "./memory-storage";

describe("turbo kept per tab", () => {
  it("is off until switched on, then as last left", () => {
    const s = memoryStorage();
    expect(turboRemembered(s)).toBe(false);
    rememberTurbo(s, true);
    expect(turboRemembered(s)).toBe(true);
    rememberTurbo(s, false);
    expect(turboRemembered(s)).toBe(false);
  });
  it("is off where the storage refuses", () => {
    const refusing = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("denied"); }, removeItem: () => {} };
    expect(() => rememberTurbo(refusing, true)).not.toThrow();
    expect(turboRemembered(refusing)).toBe(false);
  });
});
