// Cops n Robbers' handlers against a fake CopsView, with real outcomes from the server's round
// code (tests/fixtures/cops-n-robbers.json and cops-n-robbers-features.json), and the wheels'
// green shares from the server's offer and state.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatCredits } from "../../src/core/money";
import type { Cell, Outcome } from "../../src/core/outcome";
import { validateOutcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import type { Offer } from "../../src/net/types";
import { copsHandlers, copsHooks, type CopsView } from "../../src/screens/cops-n-robbers/handlers";
import { bonusSegment, cashSegment, MIN_SHARE, type WheelState } from "../../src/screens/cops-n-robbers/wheel";
import type { SlotView } from "../../src/screens/game/registry";
import { fixture, type FixtureRound } from "./fixtures";

const here = dirname(fileURLToPath(import.meta.url));
const base = fixture("cops-n-robbers");
const features = JSON.parse(readFileSync(join(here, "..", "fixtures", "cops-n-robbers-features.json"), "utf8")) as { rounds: FixtureRound[] };
const rounds = [...base.rounds, ...features.rounds];

class FakeCopsView implements CopsView {
  calls: string[] = [];
  grid: string[][] = [];
  wins: number[] = [];
  highlights: Cell[][] = [];
  values: [number, number, number][] = [];
  trail: [number, number][] = [];
  trailShown = false;
  parades: string[] = [];
  spinStart() { this.calls.push("spinStart"); }
  async land(symbols: string[][]) { this.calls.push("land"); this.grid = symbols; }
  async tumble(symbols: string[][]) { this.calls.push("tumble"); this.grid = symbols; }
  show(symbols: string[][]) { this.grid = symbols; }
  current() { return this.grid; }
  async highlight(cells: Cell[], label: string) { this.calls.push(`highlight ${label}`); this.highlights.push(cells); }
  clearHighlight() {}
  async banner(text: string) { this.calls.push(`banner ${text}`); }
  setWin(credits: number) { this.wins.push(credits); }
  setSpinInfo() {}
  sound() {}
  async showValue(reel: number, row: number, value: number) { this.values.push([reel, row, value]); this.calls.push(`value ${value}`); }
  async collect(label: string) { this.calls.push(`collect ${label}`); this.values = []; }
  clearValues() { this.values = []; }
  trailShow(start: number) { this.trailShown = true; this.calls.push(`trail x${start}`); }
  async trailMove(robber: number, cop: number) { this.trail.push([robber, cop]); }
  trailHide() { this.trailShown = false; }
  async parade(result: string) { this.parades.push(result); }
}

async function play(outcome: Outcome): Promise<{ view: FakeCopsView; won: number }> {
  const view = new FakeCopsView();
  const player = new EventPlayer<SlotView>(copsHandlers(base), copsHooks(), { timeoutMs: 2000 });
  const won = await player.play(view, outcome);
  return { view, won };
}

function outcomeOf(kind: string): Outcome {
  const round = rounds.find((r) => r.kind === kind);
  if (!round) throw new Error(`no ${kind} fixture`);
  return validateOutcome(round.outcome);
}

describe("cops n robbers handlers", () => {
  for (const round of rounds) {
    it(`plays ${round.kind} (seed ${round.seed}): reels on every window, the meter ending on total_win`, async () => {
      const outcome = validateOutcome(round.outcome);
      const { view, won } = await play(outcome);
      const events = outcome.spins.flatMap((s) => s.events);
      expect(won).toBe(outcome.total_win);
      expect(view.calls.filter((c) => c === "land").length).toBe(events.filter((e) => e.type === "window").length);
      for (const w of view.wins) expect(w).toBeLessThanOrEqual(outcome.total_win);
      for (const cells of view.highlights) for (const [reel, row] of cells) { expect(reel).toBeLessThan(5); expect(row).toBeLessThan(3); }
      // every present's value shown, as the event says
      expect(view.calls.filter((c) => c.startsWith("value ")).map((c) => Number(c.slice(6)))).toEqual(events.flatMap((e) => (e.type === "cash" ? [e.value] : [])));
      // every collection shows its own win
      const collections = events.flatMap((e) => (e.type === "collection" ? [e] : []));
      const shown = view.calls.filter((c) => c.startsWith("collect "));
      expect(shown.length).toBe(collections.length);
      collections.forEach((e, i) => expect(shown[i]).toContain(`: ${formatCredits(e.win)}`));
    });
  }

  it("moves the cop and the robber along the trail exactly as the trail and parade events say", async () => {
    for (const kind of ["flag:bonus", "parade-sid", "parade-vic"]) {
      const outcome = outcomeOf(kind);
      const { view } = await play(outcome);
      const expected = outcome.spins.flatMap((s) => s.events).flatMap((e) => (e.type === "trail" || e.type === "parade" ? [[e.robber, e.cop]] : []));
      expect(view.trail).toEqual(expected);
      expect(view.parades).toEqual(outcome.spins.flatMap((s) => s.events).flatMap((e) => (e.type === "parade" ? [e.result] : [])));
      expect(view.calls).toContain(`trail x${outcome.spins[0]?.events.find((e) => e.type === "bonus")?.start_multiplier}`);
      expect(view.calls.at(-1)).toBe(`banner BONUS TOTAL ${formatCredits(outcome.breakdown.bonus ?? -1)}`);
    }
  });

  it("lands the ID parade on the server's result: Bert, Sid and Vic fixtures", async () => {
    expect((await play(outcomeOf("flag:bonus"))).view.parades.at(-1)).toBe("bert");
    expect((await play(outcomeOf("parade-sid"))).view.parades).toContain("sid");
    expect((await play(outcomeOf("parade-vic"))).view.parades).toContain("vic");
  });

  it("highlights a mixed pay of presents on its line with its amount, then the robber's collect", async () => {
    const outcome = outcomeOf("mixed");
    const { view } = await play(outcome);
    const line = outcome.spins[0]?.events.find((e) => e.type === "line_win");
    expect(line?.type === "line_win" && line.symbol).toBe("PRESENTS");
    expect(view.calls.some((c) => c.startsWith(`highlight Line ${line?.type === "line_win" ? line.line : 0}: 3 mixed presents pays ${formatCredits(500)}`))).toBe(true);
    expect(view.calls.some((c) => c.startsWith("collect Robber collects 12x stake: 6,000"))).toBe(true);
  });

  it("names the collect's trail multiplier (Mega/Super starts multiply the values)", async () => {
    const { view } = await play(outcomeOf("parade-vic"));
    expect(view.calls).toContain("banner SUPER BIG MONEY BONUS x2");
    expect(view.calls.some((c) => /^collect Robber collects \d+x stake x\d+: /.test(c))).toBe(true);
  });

  it("shows the win cap message with the capped total_win when the outcome says win_capped", async () => {
    const raw = structuredClone(outcomeOf("flag:bonus")) as Outcome;
    raw.win_capped = true;
    raw.uncapped_win = raw.total_win + 1;
    const { view } = await play(validateOutcome(raw));
    expect(view.calls.at(-1)).toBe(`banner MAXIMUM WIN REACHED: ${formatCredits(raw.total_win)} paid`);
  });

  it("hides the trail in the base game", async () => {
    const { view } = await play(outcomeOf("win"));
    expect(view.trailShown).toBe(false);
    expect(view.calls).toContain(`highlight Line 9: 3 x K pays ${formatCredits(400)}`);
  });
});

// The offer and state as the server sends them (views.py; a 400-credit win at stake 500).
const offer: Offer = {
  kind: "wheel_gamble", amount: 400, stake: 500, denomination: 1, payback: "1",
  limits: { offer: "on", limit: 1250000, cash_targets: [[4, 3], [2, 1], [3, 1]], bonus_prices: { 1: "35239191577/1000000", 2: "31943478361/500000", 3: "92534721867/1000000" } },
};
const state: WheelState = { stake: 500, limit: 1250000, amount: 400, collected: 0, bonus_won: null, reached: 0, finished: false };

describe("wheel gamble segments", () => {
  it("sizes the cash wheel's green by amount / target, the 4/3 target rounded down", () => {
    expect(cashSegment(state, offer, 0)).toEqual({ target: 533, chance: 400 / 533 });
    expect(cashSegment(state, offer, 1)).toEqual({ target: 800, chance: 0.5 });
    expect(cashSegment(state, offer, 2)).toEqual({ target: 1200, chance: 1 / 3 });
  });
  it("cuts a target at the limit (banked + at stake) and offers no 4/3 of 2 credits", () => {
    const near = { ...state, amount: 1000000, collected: 100000 };
    expect(cashSegment(near, offer, 1)).toEqual({ target: 1150000, chance: 1000000 / 1150000 });
    expect(cashSegment({ ...state, amount: 2 }, offer, 0)).toBeNull();
  });
  it("follows the amount arrows: a lower amount banks the rest and shrinks the green", () => {
    const lower = cashSegment(state, offer, 1, 100);
    expect(lower).toEqual({ target: 200, chance: 0.5 });
    expect(bonusSegment(state, offer, 1, 100)?.chance).toBeCloseTo(100 / 35239.191577, 12);
  });
  it("sizes the bonus wheel's green by amount / the bonus price the offer publishes", () => {
    expect(bonusSegment(state, offer, 1)?.chance).toBeCloseTo(400 / 35239.191577, 12);
    expect(bonusSegment(state, offer, 3)?.price).toBeCloseTo(92534.721867, 6);
    expect(bonusSegment({ ...state, amount: 40000 }, offer, 1)).toBeNull();
    expect(MIN_SHARE).toBeGreaterThan(0);
  });
});
