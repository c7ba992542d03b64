// A line game's expanding sticky wilds (the generic handlers): in each free spin the reels a wild
// held before it land on the wild, every sticky_wild event fills its reel under its multiplier's
// badge after the landing and before the line wins, and a reel filling now is announced. The
// round is a real one (sticky-round.json: its `command` says how the server's round code played
// it).
import { describe, expect, it } from "vitest";
import type { StickyWildEvent } from "../../src/core/outcome";
import { validateOutcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import { genericHandlers, withHeldWilds } from "../../src/screens/game/handlers";
import type { SlotView } from "../../src/screens/game/registry";
import round from "./sticky-round.json";
import { RecordingView } from "./recording-view";

class ExpandingView extends RecordingView {
  landed: string[][][] = [];
  constructor() { super(["land", "highlight", "banner"]); }
  override async land(symbols: string[][]) { await super.land(symbols.map((c) => [...c])); this.landed.push(this.grid); }
  expandReel(reel: number, symbol: string, text: string, held: boolean) {
    this.calls.push(`expand ${reel} ${text}${held ? " held" : ""}`);
    this.grid[reel] = this.grid[reel]!.map(() => symbol);
  }
}

describe("sticky wilds", () => {
  it("fills each wild reel under its badge after the landing, before the wins; held reels land wild", async () => {
    const outcome = validateOutcome(round.outcome);
    const view = new ExpandingView();
    const game = { info: round.info } as unknown as Parameters<typeof genericHandlers>[0];
    await new EventPlayer<SlotView>(genericHandlers(game), {}, { timeoutMs: 5000 }).play(view, outcome);
    const sticky = outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "sticky_wild"));
    expect(sticky.some((e) => e.held) && sticky.some((e) => !e.held)).toBe(true);
    expect(view.calls.filter((c) => c.startsWith("expand "))).toEqual(
      sticky.map((e) => `expand ${e.reel} x${e.value}${e.held ? " held" : ""}`));
    // a reel filling now is announced; a held one is not again
    expect(view.calls.filter((c) => c.startsWith("banner WILD REEL"))).toEqual(
      sticky.filter((e) => !e.held).map((e) => `banner WILD REEL ${e.reel + 1} x${e.value}`));
    outcome.spins.forEach((spin, k) => {
      const held = spin.events.filter((e): e is StickyWildEvent => e.type === "sticky_wild" && e.held);
      for (const e of held) expect(view.landed[k]![e.reel]!.every((s) => s === "WILD")).toBe(true);
    });
    // within a spin: land, then every expansion, then the wins
    let spinStart = 0;
    for (const spin of outcome.spins) {
      const n = spin.events.filter((e) => e.type === "sticky_wild").length;
      const landAt = view.calls.indexOf("land", spinStart);
      const nextLand = view.calls.indexOf("land", landAt + 1);
      const mine = view.calls.slice(landAt, nextLand < 0 ? undefined : nextLand);
      const expands = mine.map((c, i) => (c.startsWith("expand ") ? i : -1)).filter((i) => i >= 0);
      expect(expands.length).toBe(n);
      const win = mine.findIndex((c) => c.startsWith("highlight Line"));
      if (n && win >= 0) expect(win).toBeGreaterThan(expands.at(-1)!);
      spinStart = landAt + 1;
    }
  });

  it("lands a spin's held reels on the wild, and leaves the others as they landed", () => {
    const spin = { events: [{ type: "sticky_wild" as const, reel: 1, symbol: "WILD", value: 3, held: true }, { type: "sticky_wild" as const, reel: 2, symbol: "WILD", value: 2, held: false }] };
    const landed = [["A", "B", "C"], ["K", "Q", "J"], ["A", "WILD", "Q"]];
    expect(withHeldWilds(landed, spin)).toEqual([["A", "B", "C"], ["WILD", "WILD", "WILD"], ["A", "WILD", "Q"]]);
    expect(withHeldWilds(landed, { events: [] })).toBe(landed);
  });
});
