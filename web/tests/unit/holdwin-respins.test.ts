// A hold-and-win round on the generic handlers: its base spin may slow its reels for the
// trigger; its respins (kind "bonus") hold the locked prizes that met it already, so they land
// without anticipation (each slowed ~5 s and a dozen-respin round kept PLAY off past a minute).
import { describe, expect, it } from "vitest";
import type { Outcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import { genericHandlers } from "../../src/screens/game/handlers";
import type { SlotView } from "../../src/screens/game/registry";
import { RecordingView } from "./recording-view";

const LandingView = RecordingView; // what it keeps: each land's anticipate

const col = (a: string, b: string, c: string) => [a, b, c];
const window = (cols: string[][]) => ({ type: "window" as const, symbols: cols });

describe("hold-and-win respins", () => {
  it("the base spin may anticipate, the respins never", async () => {
    const base = [col("COIN", "J", "COIN"), col("COIN", "K", "COIN"), col("COIN", "Q", "A"), col("K", "J", "Q"), col("A", "K", "J")];
    const held = base.map((c) => c.map((s) => (s === "COIN" ? s : "BLANK")));
    const spins = [
      { index: 0, kind: "base", win: 0, events: [window(base), { type: "bonus", trigger_count: 6, start_multiplier: 1 }] },
      { index: 1, kind: "bonus", win: 0, events: [window(held)] },
      { index: 2, kind: "bonus", win: 300, events: [window(held), { type: "collection", collectors: 6, values: 6, multiplier: 1, win: 300 }] },
    ];
    const outcome = { spins } as unknown as Outcome;
    const game = { info: { symbols: [{ id: "COIN", role: "bonus" }], paylines: [] } } as unknown as Parameters<typeof genericHandlers>[0];
    const view = new LandingView();
    await new EventPlayer<SlotView>(genericHandlers(game), {}, { timeoutMs: 5000 }).play(view, outcome);
    expect(view.anticipate).toEqual([true, false, false]);
  });
});
