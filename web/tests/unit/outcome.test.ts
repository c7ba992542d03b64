import { describe, expect, it } from "vitest";
import { OutcomeInvalid, SCHEMA_VERSION, validateOutcome } from "../../src/core/outcome";
import { GAME_KEYS, fixture } from "./fixtures";

describe("outcome schema", () => {
  it("is version 1, as the server's reelforge schema outcome", () => {
    expect(SCHEMA_VERSION).toBe(1);
  });
  for (const key of GAME_KEYS) {
    it(`accepts every exported ${key} outcome`, () => {
      for (const r of fixture(key).rounds) expect(validateOutcome(r.outcome).game_id).toBe(fixture(key).game_id);
    });
  }
  it("refuses an outcome that does not match, saying where", () => {
    const good = fixture("cluedo").rounds[0]?.outcome as Record<string, unknown>;
    const bad = (patch: (o: Record<string, any>) => void) => {
      const copy = structuredClone(good) as Record<string, any>;
      patch(copy);
      return () => validateOutcome(copy);
    };
    expect(bad((o) => { o.total_win = -1; })).toThrow(OutcomeInvalid);
    expect(bad((o) => { o.total_win = 1.5; })).toThrow(OutcomeInvalid);
    expect(bad((o) => { delete o.spins; })).toThrow(/spins/);
    expect(bad((o) => { o.spins[0].events.push({ type: "confetti" }); })).toThrow(OutcomeInvalid);
    expect(bad((o) => { o.spins[0].events[0].surprise = 1; })).toThrow(OutcomeInvalid);
    expect(bad((o) => { o.schema_version = 2; })).toThrow(OutcomeInvalid);
    expect(() => validateOutcome(null)).toThrow(OutcomeInvalid);
  });
});
