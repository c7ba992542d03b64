// Hold-and-win's result on the generic screen, over a served round (holdwin-round.json: 7 coins
// trigger, respins land coins and reset the count, a MAJOR coin, the screen fills for GRAND).
// A playtest saw no value on the locked coins, no respins counter, no total: the player could
// not tell what they won or why. Every figure asserted here is read from the outcome's own
// events (cash values in stakes, the collection's and the jackpots' wins), never the client's.
import { describe, expect, it } from "vitest";
import type { Cell, Outcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import type { FeatureMoment } from "../../src/screens/game/feature-moments";
import { genericHandlers, genericHooks } from "../../src/screens/game/handlers";
import type { HeldCoin, HoldState } from "../../src/screens/game/hold-and-win";
import type { SlotView } from "../../src/screens/game/registry";
import recorded from "./holdwin-round.json";

type Meter = Pick<HoldState, "respinsLeft" | "respins" | "total">;

class HoldView implements SlotView {
  grid: string[][] = [];
  held: readonly HeldCoin[] | null = null;
  /** At each respin's start: the coins held and the meter shown. */
  respins: { held: number; left: number; total: number }[] = [];
  meters: Meter[] = [];
  moments: FeatureMoment[] = [];
  captions: string[] = [];
  win = 0;
  spinStart() {}
  async land(symbols: string[][]) { this.grid = symbols; }
  async tumble(symbols: string[][]) { this.grid = symbols; }
  show(symbols: string[][]) { this.grid = symbols; }
  current() { return this.grid; }
  async highlight(_cells: Cell[], label: string) { this.captions.push(label); }
  clearHighlight() {}
  async banner(text: string) { this.captions.push(text); }
  async featureMoment(m: FeatureMoment) { this.moments.push(m); }
  holdCoins(coins: readonly HeldCoin[] | null) { this.held = coins; }
  holdMeter(state: Meter | null) { if (state) this.meters.push({ ...state }); }
  setWin(credits: number) { this.win = credits; }
  setSpinInfo() {}
  sound() {}
}

const outcome = recorded.outcome as unknown as Outcome;
const game = recorded.game as unknown as Parameters<typeof genericHandlers>[0] & Parameters<typeof genericHooks>[0];

async function play(): Promise<HoldView> {
  const view = new HoldView();
  const hooks = genericHooks(game);
  const withRespins = { ...hooks, beforeSpin: async (spin: Parameters<NonNullable<typeof hooks.beforeSpin>>[0], ctx: Parameters<NonNullable<typeof hooks.beforeSpin>>[1]) => {
    await hooks.beforeSpin?.(spin, ctx);
    const m = view.meters.at(-1);
    if (spin.kind === "bonus" && m) view.respins.push({ held: view.held?.length ?? 0, left: m.respinsLeft, total: m.total });
  } };
  await new EventPlayer<SlotView>(genericHandlers(game), withRespins, { timeoutMs: 5000 }).play(view, outcome, { fast: true });
  return view;
}

const last = outcome.spins.at(-1)!;
const paid = (type: string) => last.events.filter((e) => e.type === type) as { win: number; jackpot?: string }[];
const cash = outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "cash")) as { reel: number; row: number; value: number }[];

describe("hold-and-win presentation (a served round)", () => {
  it("every locked coin is held with its value, which adds up to what the outcome paid for it", async () => {
    const view = await play();
    expect(view.held?.map((c) => [...c.cell])).toEqual(cash.map((c) => [c.reel, c.row]));
    const named = view.held!.filter((c) => c.jackpot);
    // the plain coins are the collection's; each named coin is its jackpot event's
    expect(view.held!.filter((c) => !c.jackpot).reduce((a, c) => a + c.credits, 0)).toBe(paid("collection")[0]!.win);
    expect(named.map((c) => [c.jackpot, c.credits])).toEqual(paid("jackpot").filter((j) => j.jackpot !== "GRAND").map((j) => [j.jackpot, j.win]));
  });

  it("the respins left count down and go back to 3 when a coin lands", async () => {
    const view = await play();
    // the recorded respins land coins on 1, 2, 4, 5 and 7: from 3, one used per respin, 3 again after a landing
    expect(view.respins.map((r) => r.left)).toEqual([2, 2, 2, 1, 2, 2, 1]);
    expect(view.respins.map((r) => r.held)).toEqual(outcome.spins.slice(1).map((s) => outcome.spins.filter((p) => p.index < s.index).flatMap((p) => p.events).filter((e) => e.type === "cash").length));
    expect(view.meters.at(-1)!.respinsLeft).toBe(0);
  });

  it("the running total rises with each coin and ends on the feature's win, which the collect moment and WIN meter show", async () => {
    const view = await play();
    const totals = view.meters.map((m) => m.total);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const feature = outcome.spins.filter((s) => s.kind === "bonus").reduce((a, s) => a + s.win, 0);
    expect(paid("collection")[0]!.win + paid("jackpot").reduce((a, j) => a + j.win, 0)).toBe(feature);
    expect(totals.at(-1)).toBe(feature);
    const collect = view.moments.find((m) => m.kind === "hw-collect");
    expect(collect?.total).toBe(feature);
    expect(view.win).toBe(outcome.total_win);
    expect(view.moments[0]?.kind).toBe("hw-intro");
    expect(view.captions.some((c) => c.includes("GRAND"))).toBe(true);
  });
});
