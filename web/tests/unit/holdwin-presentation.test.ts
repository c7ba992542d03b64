// Hold-and-win's result on the generic screen, over a served round (holdwin-round.json: 7 coins
// trigger, respins land coins and reset the count, a MAJOR coin, the screen fills for GRAND).
// A playtest saw no value on the locked coins, no respins counter, no total: the player could
// not tell what they won or why. Every figure asserted here is read from the outcome's own
// events (cash values in stakes, the collection's and the jackpots' wins), never the client's.
// A second playtest: the WIN meter had the trigger spin's ways win in it and nothing named it
// (holdwin-trigger-win-round.json: ways win 6, coins 350, WIN 356); in turbo the respins were
// a blur; a landed coin's value came on screen after the total had counted it.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Cell, Outcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import type { FeatureMoment } from "../../src/screens/game/feature-moments";
import { genericHandlers, genericHooks } from "../../src/screens/game/handlers";
import type { HeldCoin, HoldMeter } from "../../src/screens/game/hold-and-win";
import type { SlotView } from "../../src/screens/game/registry";
import recorded from "./holdwin-round.json";
import recordedWithWays from "./holdwin-trigger-win-round.json";

/** A meter shown, with the credits of the coins on the screen as it was shown. */
type Meter = HoldMeter & { onScreen: number };

/** A frame: what the view draws is on the screen this long after it asked (a canvas draws in
 * its next frame; the meter's DOM words show as soon as they are set). */
const FRAME_MS = 16;

class HoldView implements SlotView {
  grid: string[][] = [];
  held: readonly HeldCoin[] | null = null;
  /** The coins the last drawn frame shows. */
  onScreen: readonly HeldCoin[] = [];
  /** At each respin's start: the coins held, the meter shown, the clock (ms). */
  respins: { held: number; left: number; total: number; at: number }[] = [];
  meters: Meter[] = [];
  momentAt: Partial<Record<FeatureMoment["kind"], number>> = {};
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
  async featureMoment(m: FeatureMoment) { this.moments.push(m); this.momentAt[m.kind] = performance.now(); }
  holdCoins(coins: readonly HeldCoin[] | null) {
    this.held = coins;
    return new Promise<void>((drawn) => setTimeout(() => { this.onScreen = coins ?? []; drawn(); }, FRAME_MS));
  }
  holdMeter(state: HoldMeter | null) { if (state) this.meters.push({ ...state, onScreen: this.onScreen.reduce((a, c) => a + c.credits, 0) }); }
  setWin(credits: number) { this.win = credits; }
  setSpinInfo() {}
  sound() {}
}

type Game = Parameters<typeof genericHandlers>[0] & Parameters<typeof genericHooks>[0];
const outcome = recorded.outcome as unknown as Outcome;
const game = recorded.game as unknown as Game;

afterEach(() => { vi.useRealTimers(); });

/** The round played on the fake view, in turbo unless `fast` is false, on a fake clock (its
 * waits take no real time; the view's clock reads it). */
async function play(round: { outcome: Outcome; game: Game } = { outcome, game }, fast = true): Promise<HoldView> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date", "performance"] });
  const view = new HoldView();
  const hooks = genericHooks(round.game);
  const withRespins = { ...hooks, beforeSpin: async (spin: Parameters<NonNullable<typeof hooks.beforeSpin>>[0], ctx: Parameters<NonNullable<typeof hooks.beforeSpin>>[1]) => {
    const at = performance.now();
    await hooks.beforeSpin?.(spin, ctx);
    const m = view.meters.at(-1);
    if (spin.kind === "bonus" && m) view.respins.push({ held: view.held?.length ?? 0, left: m.respinsLeft, total: m.total, at });
  } };
  let done = false;
  const played = new EventPlayer<SlotView>(genericHandlers(round.game), withRespins, { timeoutMs: 5000 }).play(view, round.outcome, { fast }).finally(() => { done = true; });
  while (!done) await vi.advanceTimersByTimeAsync(5);
  await played;
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

const withWays = { outcome: recordedWithWays.outcome as unknown as Outcome, game: recordedWithWays.game as unknown as Game };

describe("hold-and-win: the trigger spin's win, the respins' pace, a coin before its total", () => {
  // the trigger spin's ways wins, from its events; the feature's, from the last respin's
  const spins = withWays.outcome.spins;
  const ways = spins[0]!.events.filter((e) => e.type === "ways_win").reduce((a, e) => a + (e as { win: number }).win, 0);
  const feature = spins.at(-1)!.events.filter((e) => e.type === "collection" || e.type === "jackpot").reduce((a, e) => a + (e as { win: number }).win, 0);

  it("the trigger spin's ways win is named before the respins and beside their total at the end, which add up to WIN", async () => {
    expect(ways).toBeGreaterThan(0);
    expect(feature + ways).toBe(withWays.outcome.total_win);
    const view = await play(withWays);
    const intro = view.moments.find((m) => m.kind === "hw-intro")!;
    expect(intro.lines).toContain(`ALREADY WON: WAYS WIN ${ways}`);
    const collect = view.moments.find((m) => m.kind === "hw-collect")!;
    expect(collect.total).toBe(feature);
    expect(collect.lines.map((l) => l.replace(/\u00a0/g, " "))).toContain(`${feature} + WAYS WIN ${ways} = WIN ${withWays.outcome.total_win}`);
    // the meter left under the reels says it too: TOTAL 350 + WAYS WIN 6 = WIN 356
    const end = view.meters.at(-1)!;
    expect([end.total, end.base, end.won]).toEqual([feature, { name: "WAYS WIN", win: ways }, withWays.outcome.total_win]);
    expect(view.win).toBe(withWays.outcome.total_win);
  });

  it("a round whose coins are its whole win names no other win", async () => {
    const view = await play();
    expect(view.moments.flatMap((m) => m.lines).filter((l) => l.includes("ALREADY WON") || l.replace(/\u00a0/g, " ").includes(" = WIN "))).toEqual([]);
    expect(view.meters.some((m) => m.base || m.won !== undefined)).toBe(false);
  });

  it("in turbo each respin still takes at least 0.7 s, and at normal speed no less than in turbo", async () => {
    const gaps = (view: HoldView) => {
      const starts = [...view.respins.map((r) => r.at), view.momentAt["hw-collect"]!];
      return starts.slice(1).map((t, i) => t - starts[i]!);
    };
    const turbo = gaps(await play(undefined, true));
    expect(turbo).toHaveLength(outcome.spins.filter((s) => s.kind === "bonus").length);
    for (const ms of turbo) expect(ms).toBeGreaterThanOrEqual(700);
    const normal = gaps(await play(undefined, false));
    normal.forEach((ms, i) => expect(ms).toBeGreaterThanOrEqual(turbo[i]!));
  });

  it("a coin's value is on the screen no later than the total that counts it", async () => {
    for (const round of [{ outcome, game }, withWays]) {
      const view = await play(round);
      expect(view.meters.length).toBeGreaterThan(1);
      // every credit the meter's total counts (a full screen's GRAND aside) is on a coin drawn
      for (const m of view.meters) expect(m.onScreen).toBeGreaterThanOrEqual(m.total - (m.grand ?? 0));
    }
  });
});
