// Cluedo's handlers against a fake CluedoView, with real outcomes from the server's round code
// (tests/fixtures/cluedo.json and cluedo-features.json: a line doubled by the wild, free spins
// with a retrigger, free spins cut at 180, the progressive jackpot), the jackpot notice from a
// claim as the server writes it, and the gamble screen's model and step reveal from the game's
// own red/black states (what the round view's `choice` and `steps` carry).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
vi.mock("pixi.js", () => import("./pixi-stub"));
import type { Outcome } from "../../src/core/outcome";
import { validateOutcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import type { ChoiceView, Offer, RoundView, StepView } from "../../src/net/types";
import type { SlotView } from "../../src/screens/game/registry";
import type { MomentOptions } from "../../src/ui/moment";
import { cluedoHandlers, cluedoHooks, jackpotNotice, lastFreeSpin, lineLabel, type CluedoView, type JackpotNotice } from "../../src/screens/cluedo/handlers";
import { atStake, bankedSaid, carriedSaid, gambleModel, gambleSummary, historyLabel, rememberHistory, revealOf, SUMMARY_MAX, tableAfter, tableHold, TITLE } from "../../src/screens/cluedo/gamble";
import { CLUEDO_SYMBOLS, PORTRAIT_SHARE } from "../../src/screens/cluedo/symbols";
import { WIN_PULSE } from "../../src/render/reels";
import { winCycleOf } from "../../src/core/win-cycle";
import { gambleOffer } from "../../src/screens/cluedo/offer";
import { RESULT_MIN_MS, revealShow, revealTimes } from "../../src/screens/cluedo/reveal";
import { formatCredits } from "../../src/core/money";
import { cardBackSvg, cardFaceSvg } from "../../src/screens/cluedo/card";
import { fixture, type FixtureRound } from "./fixtures";
import { CLUEDO_BADGE, PHONE_EDGE_PX } from "../../src/screens/cluedo/view";
import { BADGE_STROKE, compactBadgeReach } from "../../src/render/reels";
import { RecordingView } from "./recording-view";

const here = dirname(fileURLToPath(import.meta.url));
const base = fixture("cluedo");
interface GambleFixture { name: string; offer: Offer; before: ChoiceView; steps: { choice: string; result: Record<string, unknown>; choice_view: ChoiceView | null }[] }
const features = JSON.parse(readFileSync(join(here, "..", "fixtures", "cluedo-features.json"), "utf8")) as { rounds: FixtureRound[]; gambles: GambleFixture[] };
const rounds = [...base.rounds, ...features.rounds];

class FakeCluedoView extends RecordingView implements CluedoView {
  counters: ({ index: number; total: number } | null)[] = [];
  goldenLog: boolean[] = [];
  bets: number[] = [];
  notices: JackpotNotice[] = [];
  constructor() { super(["spinStart", "land", "highlight", "banner"]); }
  async lightsOut() { this.calls.push("lightsOut"); }
  golden(on: boolean) { this.goldenLog.push(on); }
  freeSpins(c: { index: number; total: number } | null) { this.counters.push(c); }
  setBet(credits: number) { this.bets.push(credits); }
  bonusTotal(credits: number, trigger = 0) { this.calls.push(`bonusTotal ${credits} + ${trigger}`); }
  moments: MomentOptions[] = [];
  async moment(o: MomentOptions) { this.moments.push(o); this.calls.push(`moment ${o.kind} ${o.title}: ${(o.lines ?? []).join(", ")}${o.count ? ` count ${o.count.format(o.count.to)}` : ""}`); }
  jackpotWon() { this.calls.push("jackpotWon"); }
  async jackpotNotice(n: JackpotNotice) { this.notices.push(n); }
}

function outcomeOf(kind: string): Outcome {
  const round = rounds.find((r) => r.kind === kind);
  if (!round) throw new Error(`no fixture round ${kind}`);
  return validateOutcome(round.outcome);
}

async function play(outcome: Outcome, fast = false) {
  const view = new FakeCluedoView();
  const player = new EventPlayer<SlotView>(cluedoHandlers(base), cluedoHooks(), { timeoutMs: 2000 });
  const won = await player.play(view, outcome, { fast });
  return { view, won };
}

describe("cluedo round", () => {
  it("every fixture round plays to the server's total, every event handled", async () => {
    for (const r of rounds) {
      const outcome = validateOutcome(r.outcome);
      const { view, won } = await play(outcome);
      expect(won, r.kind).toBe(outcome.total_win);
      expect(view.bets[0], r.kind).toBe(outcome.bet.stake);
    }
  });

  it("a winning line is highlighted on its cells with the event's amount", async () => {
    const outcome = outcomeOf("win");
    const { view } = await play(outcome);
    const wins = outcome.spins[0]!.events.filter((e) => e.type === "line_win");
    expect(view.highlights).toHaveLength(wins.length);
    for (const [i, e] of wins.entries()) {
      if (e.type !== "line_win") continue;
      const shown = view.highlights[i]!;
      expect(shown.label).toContain(`Line ${e.line}:`);
      expect(shown.label).toContain(`pays ${e.win.toLocaleString("en")}`);
      const line = base.info.paylines![e.line - 1]!;
      expect(shown.cells).toEqual(line.slice(0, e.count).map((row, reel) => [reel, row]));
      // the payline drawn across the reels: its cell on every reel, the winning ones first
      expect(shown.line).toEqual(line.map((row, reel) => [reel, row]));
    }
    expect(view.wins.at(-1)).toBe(outcome.total_win);
  });

  it("many lines in one spin are told at once under one summary, not one by one (a playtest's 19-line jackpot round took ~35 s)", async () => {
    const outcome = structuredClone(outcomeOf("win"));
    const spin = outcome.spins[0]!;
    const first = spin.events.find((e) => e.type === "line_win")!;
    if (first.type !== "line_win") return;
    const lines = Array.from({ length: 19 }, (_, i) => ({ ...first, line: i + 1, win: 50 }));
    spin.events = [...spin.events.filter((e) => e.type !== "line_win"), ...lines];
    spin.win = outcome.total_win = 950;
    const { view, won } = await play(outcome);
    expect(won).toBe(950);
    expect(view.highlights.map((h) => h.label)).toEqual(["19 winning lines pay 950"]);
    expect(view.highlights[0]!.cells.length).toBe(19 * first.count);
    expect(view.wins.at(-1)).toBe(950);
  });

  it("the MegaJackpots wild's doubling is named on the line it doubled", async () => {
    const outcome = outcomeOf("mj-doubled");
    const { view } = await play(outcome);
    const doubled = outcome.spins[0]!.events.find((e) => e.type === "line_win" && e.multiplier === 2 && e.symbol !== "MJ");
    expect(doubled).toBeDefined();
    if (doubled?.type !== "line_win") return;
    const label = view.highlights.find((h) => h.label.startsWith(`Line ${doubled.line}:`))!.label;
    expect(label).toContain("WILD x2");
    expect(label).toContain(`pays ${doubled.win.toLocaleString("en")}`);
    expect(lineLabel({ ...doubled, multiplier: 6 }, { multiplier: 3 })).toContain("WILD x2, FREE SPIN x3");
    expect(lineLabel({ ...doubled, multiplier: 3 }, { multiplier: 3 })).not.toContain("WILD");
  });

  it("free spins: lights out on the trigger, golden reels, the counter of the server's spins, the bonus total", async () => {
    const outcome = outcomeOf("free-spins-retrigger");
    const { view } = await play(outcome);
    const calls = view.calls.join("\n");
    expect(view.calls.indexOf("lightsOut")).toBeGreaterThan(-1);
    expect(view.calls.indexOf("lightsOut")).toBeLessThan(view.calls.findIndex((c) => c.startsWith("moment fs-intro MYSTERY BONUS: 15 FREE SPINS, ALL WINS x3")));
    expect(view.goldenLog[0]).toBe(false); // the base spin on the mansion's reels
    expect(view.goldenLog).toContain(true);
    expect(view.goldenLog.at(-1)).toBe(false); // back to the base reels after the bonus
    const free = outcome.spins.filter((s) => s.kind === "free");
    const shown = view.counters.filter((c): c is { index: number; total: number } => c !== null);
    expect(shown.map((c) => c.index)).toContain(free.at(-1)!.index);
    // 15 until the retrigger, then the server's running total (30).
    expect(shown.find((c) => c.index === 1)!.total).toBe(15);
    const retrigger = free.find((s) => s.events.some((e) => e.type === "free_spins_award"))!;
    expect(shown.filter((c) => c.index === retrigger.index).map((c) => c.total)).toEqual([15, 30]);
    expect(shown.at(-1)).toEqual({ index: free.at(-1)!.index, total: 30 });
    expect(calls).toContain("moment fs-retrigger +15 FREE SPINS: 30 free spins in all");
    // the outro counts up to the server's free spins total, in the free spins it played, and
    // names the trigger spin's win that makes the round's WIN (the playtest: four totals)
    const trigger = outcome.spins.find((s) => s.kind === "base")!.win;
    expect(trigger).toBeGreaterThan(0);
    const fmt = (n: number) => n.toLocaleString("en");
    expect(view.calls.slice(-2)).toEqual([`bonusTotal ${outcome.breakdown.free_games} + ${trigger}`,
      `moment fs-outro FREE SPINS TOTAL: ${outcome.counters.free_spins_played} FREE SPINS PLAYED, ALL WINS x3, + ${fmt(trigger)} from the spin that triggered them: WIN ${fmt(outcome.total_win)} count ${fmt(outcome.breakdown.free_games!)} credits`]);
    expect(trigger + outcome.breakdown.free_games!).toBe(outcome.total_win);
    expect(view.spinInfo).toContain(`${free.at(-1)!.index} of 30`);
    // after the bonus the SPINS field goes (the outro said the spins played; left up it wrapped
    // the console onto two rows at 1440x900): the total is the plaque's alone
    expect(view.spinInfo.at(-1)).toBe("");
    expect(view.spinInfo.filter((t) => t.includes(fmt(outcome.breakdown.free_games!)))).toEqual([]);
  });

  it("the bonus's intro and total are scenes a player reads, turbo included: the total counted up, the spins played and the multiplier under it (the gallery's reviewer: a thin strip; turbo's 300 ms flash)", async () => {
    const outcome = outcomeOf("free-spins-retrigger");
    for (const fast of [false, true]) {
      const { view } = await play(outcome, fast);
      const intro = view.moments.find((m) => m.kind === "fs-intro")!;
      const outro = view.moments.find((m) => m.kind === "fs-outro")!;
      expect(outro.count?.to).toBe(outcome.breakdown.free_games);
      expect(outro.count?.still).toBeFalsy(); // it counts up
      expect(outro.lines?.slice(0, 2)).toEqual([`${outcome.counters.free_spins_played} FREE SPINS PLAYED`, "ALL WINS x3"]);
      // showMoment cuts a `fast` moment to 300 ms: the scenes keep their own turbo length
      for (const [m, least] of [[intro, fast ? 1500 : 3000], [outro, fast ? 2000 : 4000]] as const) {
        expect(m.fast, `${m.kind} fast=${fast}`).toBeFalsy();
        expect(m.ms!, `${m.kind} fast=${fast}`).toBeGreaterThanOrEqual(least);
      }
    }
  });

  it("free spins stop at 180: the capped retriggers say so", async () => {
    const outcome = outcomeOf("free-spins-capped");
    expect(outcome.flags).toContain("free_spins_capped");
    const { view, won } = await play(outcome);
    expect(won).toBe(outcome.total_win);
    const totals = view.counters.filter((c) => c !== null).map((c) => c!.total);
    expect(Math.max(...totals)).toBe(180);
    expect(view.counters.filter((c) => c !== null).at(-1)).toEqual({ index: 180, total: 180 });
    expect(view.calls.some((c) => c === "moment fs-retrigger +0 FREE SPINS: the bonus is at its maximum of 180")).toBe(true);
  });

  it("the jackpot line is highlighted and announced; the notice is the claim's", async () => {
    const outcome = outcomeOf("jackpot");
    const { view } = await play(outcome);
    const jp = outcome.spins[0]!.events.find((e) => e.type === "progressive_jackpot")!;
    expect(jp.type).toBe("progressive_jackpot");
    expect(view.calls).toContain("highlight MEGAJACKPOT! 5 x MegaJackpots on line 1");
    // the amount is the claim's: the line only tells the view that the notice's moment is due
    expect(view.calls[view.calls.indexOf("highlight MEGAJACKPOT! 5 x MegaJackpots on line 1") + 1]).toBe("jackpotWon");
    expect(view.highlights.find((h) => h.label.startsWith("MEGAJACKPOT"))!.cells).toEqual([[0, 1], [1, 1], [2, 1], [3, 1], [4, 1]]);
    // A claim as services/jackpot.py writes it: 20 instalments, the remainder in the first.
    const amount = 100123457;
    const each = Math.floor(amount / 20);
    const instalments = Array.from({ length: 20 }, (_, i) => ({ due: i === 0 ? "on verification" : `year ${i}`, amount_minor: each + (i === 0 ? amount - each * 20 : 0) }));
    const notice = jackpotNotice({ currency: "EUR", jackpot_claim: { id: 1, pool: "Cluedo MegaJackpots/EUR", amount_minor: amount, status: "pending_verification", instalments } });
    expect(notice).not.toBeNull();
    expect(notice!.amount).toBe("€1,001,234.57");
    expect([notice!.amountMinor, notice!.currency]).toEqual([amount, "EUR"]);
    expect(notice!.status).toBe("pending verification");
    const text = notice!.lines.join(" ");
    expect(text).toContain("within 24 hours");
    expect(text).toContain("72 hours");
    expect(text).toContain("Paid in 20 instalments: €50,061.89 on verification, then 19 annual instalments of €50,061.72.");
    expect(jackpotNotice({ currency: "EUR", jackpot_claim: null })).toBeNull();
  });

  it("a loss lands and highlights nothing", async () => {
    const { view, won } = await play(outcomeOf("loss"));
    expect(won).toBe(0);
    expect(view.highlights).toHaveLength(0);
    expect(view.calls.filter((c) => c === "land")).toHaveLength(1);
  });
});

function roundWith(g: GambleFixture, choice: ChoiceView | null, steps: StepView[] = []): RoundView {
  return {
    round_id: "r1", request_id: "q", game: "cluedo", game_id: "cluedo-v1", status: "outcome_committed", currency: "EUR", denomination: 1,
    bet: { lines: 20, bet_per_line: 5, mode: "base" }, stake_minor: 100, win_minor: null, funded_by: null, outcome: null,
    offers: [g.offer], pending_win_credits: g.offer.amount, capped_from_minor: null, choice, steps, next_round_id: null,
    jackpot_claim: null, created_at_us: 0, closed_at_us: null, balance_minor: 0,
  };
}

function stepsUpTo(g: GambleFixture, n: number): StepView[] {
  return g.steps.slice(0, n).map((s, i) => ({ index: i, request_id: `s${i}`, kind: "gamble", choice: s.choice, seed: "0", result: s.result, created_at_us: i }));
}

describe("cluedo gamble screen", () => {
  const byName = (n: string) => features.gambles.find((g) => g.name === n)!;

  it("before the first step: the offer's amount and limits, the four buttons as the server allows", () => {
    const g = byName("five-wins");
    const m = gambleModel(roundWith(g, g.before));
    expect(m.amount).toBe(10);
    expect(m.banked).toBe(0);
    expect(m.maxWins).toBe(5);
    expect(m.limit).toBe(3000);
    expect(m.historyLength).toBe(14);
    expect(m.buttons.map((b) => [b.label, b.enabled])).toEqual([["RED", true], ["BLACK", true], ["TAKE HALF", true], ["TAKE WIN", true]]);
    expect(m.carried).toBe(true);
  });

  it("every step of a gamble: the state's amount, banked, wins, history and what may be pressed next", () => {
    const g = byName("five-wins");
    for (const [i, s] of g.steps.entries()) {
      const next = roundWith(g, s.choice_view, stepsUpTo(g, i + 1));
      const r = revealOf(next, { maxWins: 5, limit: 3000 })!;
      const state = s.result.state as { amount: number; banked: number; wins: number; history: string[]; last_card: string | null };
      expect(r.amount).toBe(state.amount);
      expect(r.banked).toBe(state.banked);
      if (s.choice === "half") {
        expect(r.card).toBeNull();
        expect(r.text).toBe(`Half banked: ${state.banked} credits paid to your balance`);
        // TAKE HALF once before each try: not offered again until the next guess.
        const m = gambleModel(next);
        expect(m.buttons.find((b) => b.choice === "half")!.enabled).toBe(false);
        expect(m.buttons.find((b) => b.choice === "red")!.enabled).toBe(true);
      } else {
        expect(r.card).toBe(state.last_card);
        expect(r.won).toBe(true);
      }
      if (s.choice_view) {
        const m = gambleModel(next);
        expect(m.amount).toBe(state.amount);
        expect(m.wins).toBe(state.wins);
        expect(m.history).toEqual(state.history);
        expect(m.lastCard).toBe(state.last_card);
      }
    }
    // The fifth win in a row ends it: the server's state says finished, no choice left.
    const last = revealOf(roundWith(g, null, stepsUpTo(g, g.steps.length)), { maxWins: 5, limit: 3000 })!;
    expect(last.finished).toBe(true);
    expect(last.ended).toBe("max_wins");
    expect(last.paid).toBe(170); // 160 at stake + 10 banked
    expect(last.text).toContain("5 wins in a row: the gamble ends");
  });

  it("the 3000-credit limit ends the gamble on the server's doubled amount", () => {
    const g = byName("limit");
    const r = revealOf(roundWith(g, null, stepsUpTo(g, 1)), { maxWins: 5, limit: 3000 })!;
    expect(r).toMatchObject({ card: "black", won: true, amount: 4000, finished: true, ended: "limit", paid: 4000 });
    expect(r.text).toBe("BLACK ACE: 4,000 credits reach the 3,000 limit: the gamble ends");
    expect(atStake(r.amount, r.finished)).toBe("Nothing left at stake");
    // said as the sheet's double or nothing (the playtest read "WIN 10 at stake" as odd)
    expect(atStake(r.amount, false)).toBe("GAMBLE 4,000 TO WIN 8,000");
  });

  it("a lost guess forfeits the amount at stake", () => {
    const g = byName("lost");
    const r = revealOf(roundWith(g, null, stepsUpTo(g, 1)), { maxWins: 5, limit: 3000 })!;
    expect(r).toMatchObject({ card: "black", won: false, amount: 0, finished: true, ended: null, paid: 0 });
    expect(r.text).toBe("BLACK ACE: the gamble is lost");
    // the table's figure follows: nothing at stake, not the amount the guess lost
    expect(atStake(r.amount, r.finished)).toBe("Nothing left at stake");
  });

  it("the 14-card history carried from the last gamble; half, a win, then COLLECT", () => {
    const g = byName("half-then-win-then-take");
    rememberHistory("cluedo", undefined);
    const first = roundWith(g, g.steps[0]!.choice_view, stepsUpTo(g, 1));
    const m = gambleModel(first);
    expect(m.history).toHaveLength(14);
    expect(m.amount).toBe(38); // 75 - 75 // 2 stays at stake
    expect(m.banked).toBe(37);
    const won = revealOf(roundWith(g, g.steps[1]!.choice_view, stepsUpTo(g, 2)), { maxWins: 5, limit: 3000 })!;
    expect(won).toMatchObject({ card: "red", won: true, amount: 76, finished: false });
    expect(won.history).toHaveLength(14);
    expect(won.history.at(-1)).toBe("red");
    // Before the first step of the next gamble the server sends no state: the screen keeps
    // the cards it last saw.
    rememberHistory("cluedo", won.history);
    expect(gambleModel(roundWith(g, g.before)).history).toEqual(won.history);
    const taken = revealOf(roundWith(g, null, stepsUpTo(g, 3)), { maxWins: 5, limit: 3000 })!;
    expect(taken).toMatchObject({ card: null, finished: true, paid: 113 });
    // The 37 banked went to the balance at TAKE HALF: COLLECT adds the 76 at stake.
    expect(taken.text).toBe("Win taken: 76 credits (113 in all with the 37 banked)");
  });
});

describe("cluedo gamble: the last step's words stay on the table", () => {
  const byName = (n: string) => features.gambles.find((g) => g.name === n)!;
  const limits = { maxWins: 5, limit: 3000 };
  it("a won guess's result and new amount stay said on the next step's table until the next choice (the playtest on a phone: WON flashed by)", () => {
    const g = byName("half-then-win-then-take");
    expect(carriedSaid(roundWith(g, g.before), limits)).toBe(""); // before the first step
    // TAKE HALF: the banked line says it (twice on a phone's table was two more lines)
    expect(carriedSaid(roundWith(g, g.steps[0]!.choice_view, stepsUpTo(g, 1)), limits)).toBe("");
    expect(carriedSaid(roundWith(g, g.steps[1]!.choice_view, stepsUpTo(g, 2)), limits)).toBe("RED ACE: doubled to 76 credits");
    // the gamble over (the round's end says it): nothing carried
    expect(carriedSaid(roundWith(g, null, stepsUpTo(g, 3)), limits)).toBe("");
    const five = byName("five-wins");
    const won = five.steps.findIndex((s) => s.choice !== "half" && s.choice_view);
    const state = five.steps[won]!.result.state as { amount: number };
    expect(carriedSaid(roundWith(five, five.steps[won]!.choice_view, stepsUpTo(five, won + 1)), limits)).toContain(`doubled to ${formatCredits(state.amount)} credits`);
  });
});

describe("cluedo gamble card reveal", () => {
  const byName = (n: string) => features.gambles.find((g) => g.name === n)!;
  const limits = { maxWins: 5, limit: 3000 };

  it("turns the server's card for every guess: WON with the server's doubled amount, never for TAKE HALF or COLLECT", () => {
    for (const g of features.gambles) {
      let staked = g.offer.amount;
      for (let i = 0; i < g.steps.length; i++) {
        const step = g.steps[i]!;
        const state = step.result.state as { amount: number; last_card: string | null };
        const show = revealShow(revealOf(roundWith(g, null, stepsUpTo(g, i + 1)), limits)!, staked, limits);
        if (step.choice === "red" || step.choice === "black") {
          expect(show?.card, `${g.name} step ${i}`).toBe(state.last_card);
          expect(show?.won).toBe(state.amount > 0);
          if (show?.won) {
            expect(show.title).toBe("WON");
            expect(show.amount).toBe(state.amount);
            expect(show.amount).toBe(2 * staked); // double or nothing, as the sheet says
          } else expect(show).toMatchObject({ title: "LOST", amount: staked });
        } else expect(show, `${g.name} step ${i}`).toBeNull();
        staked = state.amount;
      }
    }
  });

  it("says why the gamble ends: five wins in a row, the limit, a lost card", () => {
    const five = byName("five-wins");
    const amounts = five.steps.map((s) => (s.result.state as { amount: number }).amount);
    const last = revealShow(revealOf(roundWith(five, null, stepsUpTo(five, five.steps.length)), limits)!, amounts.at(-2)!, limits)!;
    expect(last.lines).toContain("5 wins in a row: the gamble ends");
    const limit = byName("limit");
    const hit = revealShow(revealOf(roundWith(limit, null, stepsUpTo(limit, 1)), limits)!, limit.offer.amount, limits)!;
    expect(hit).toMatchObject({ title: "WON", amount: 4000, lines: ["BLACK ACE: 2,000 doubled", "The 3,000 limit is reached: the gamble ends"] });
    const lost = byName("lost");
    expect(revealShow(revealOf(roundWith(lost, null, stepsUpTo(lost, 1)), limits)!, lost.offer.amount, limits)!.lines).toEqual(["BLACK ACE"]); // LOST and the credits over it say the rest
  });

  it("the table under the card says its result: a lost card the credits it took and nothing at stake, the buttons gone; a won one the doubled amount", () => {
    // the playtest: under LOST the panel still showed the old amount and the gamble's buttons
    const lost = byName("lost");
    const r = revealOf(roundWith(lost, null, stepsUpTo(lost, 1)), limits)!;
    const t = tableAfter(r, revealShow(r, lost.offer.amount, limits));
    expect(t).toEqual({ said: `BLACK ACE: ${formatCredits(lost.offer.amount)} credits lost`, amount: 0, stake: "Nothing left at stake", over: true });
    const five = byName("five-wins");
    const first = revealOf(roundWith(five, null, stepsUpTo(five, 1)), limits)!;
    const doubled = (five.steps[0]!.result.state as { amount: number }).amount;
    expect(tableAfter(first, revealShow(first, five.offer.amount, limits))).toMatchObject({ amount: doubled, stake: `GAMBLE ${formatCredits(doubled)} TO WIN ${formatCredits(2 * doubled)}`, over: false });
  });

  it("keeps the turned card and WON/LOST up at least a second, turbo included", () => {
    // the playtest with TURBO on: the result held 450 ms, then the round's end replaced it
    expect(RESULT_MIN_MS).toBeGreaterThanOrEqual(1000);
    for (const o of [{ fast: true }, { fast: true, still: true }, {}, { still: true }]) expect(revealTimes(o).hold, JSON.stringify(o)).toBeGreaterThanOrEqual(RESULT_MIN_MS);
  });

  it("the round's end says what the gamble did: lost (with or without a banked half), won to a limit; a COLLECT is the shell's", () => {
    const ended = (g: GambleFixture, n: number, steps = stepsUpTo(g, n)) => {
      const last = steps.at(-1)!.result as { paid_credits?: number; state: { banked: number } };
      return { ...roundWith(g, null, steps), win_minor: last.paid_credits ?? last.state.banked };
    };
    expect(gambleSummary(ended(byName("lost"), 1), limits)).toBe("Lost on the BLACK ACE: the round pays 0");
    expect(gambleSummary(ended(byName("limit"), 1), limits)).toBe("Won on the BLACK ACE: the limit, pays 4,000");
    const five = byName("five-wins");
    expect(gambleSummary(ended(five, five.steps.length), limits)).toBe("Won on the RED ACE: 5 in a row, pays 170");
    // a half banked, then a lost guess: the round pays the half (the playtest read "The round
    // paid 50 credits" with nothing saying the guess lost)
    const half = stepsUpTo(five, 2);
    const lost = { ...half[1]!, index: 2, choice: "black", result: { state: { ...(half[1]!.result.state as object), amount: 0, finished: true, last_card: "red" }, paid_credits: 10 } };
    expect(gambleSummary(ended(five, 3, [...half, lost]), limits)).toBe("Lost on the RED ACE: 10 banked is paid");
    const take = byName("half-then-win-then-take");
    expect(gambleSummary(ended(take, 3), limits)).toBeNull();
  });

  it("says the round's end on one line of a phone's notice row, the longest amounts and the BLACK ACE included (the playtest: two lines pushed the reels up)", () => {
    // 390 px less the row's padding, at about 8.5 px a character (16 px DejaVu Sans)
    expect(SUMMARY_MAX * 8.5).toBeLessThanOrEqual(382);
    const five = byName("five-wins");
    const half = stepsUpTo(five, 2);
    const worst = (card: string, amount: number, paid: number, finished = true) => ({
      ...roundWith(five, null, [...half, { ...half[1]!, index: 2, choice: card, result: { state: { ...(half[1]!.result.state as object), amount, wins: amount ? 5 : 0, finished, last_card: card }, paid_credits: paid } }]),
      win_minor: paid,
    });
    for (const round of [worst("black", 0, 0), worst("black", 0, 1499), worst("black", 5998, 7497), worst("red", 2960, 4440)]) {
      const said = gambleSummary(round, limits)!;
      expect(said.length, said).toBeLessThanOrEqual(SUMMARY_MAX);
    }
  });

  it("a guess that ends the gamble keeps the table's card and words up before the panel closes, turbo included; an open gamble and a COLLECT don't wait", () => {
    // the playtest on a phone: BLACK lost and the panel closed at once
    expect(tableHold({ fast: true, finished: true })).toBeGreaterThanOrEqual(1000);
    expect(tableHold({ fast: false, finished: true })).toBeGreaterThanOrEqual(1000);
    expect(tableHold({ fast: false, finished: false })).toBe(0);
  });

  it("names the WIN meter's credits as the ones at stake, the banked half apart from them (the playtest after TAKE HALF: WIN 200, '200 credits at stake', '200 banked')", () => {
    expect(atStake(200, false)).toBe("GAMBLE 200 TO WIN 400");
    expect(bankedSaid(200)).toBe("+ 200 banked: already paid to your balance");
    expect(bankedSaid(0)).toBe("");
  });

  it("keeps a title and the history's label on a phone, short (the playtest: fourteen boxes unexplained)", () => {
    expect(TITLE).toEqual({ wide: "GAMBLE: DOUBLE OR NOTHING", narrow: "DOUBLE OR NOTHING" });
    expect(historyLabel(14)).toEqual({ wide: "HISTORY (last 14)", narrow: "LAST 14 CARDS" });
  });

  it("draws the back and both aces as SVG, each drawing with its own ids", () => {
    const a = cardBackSvg(), b = cardBackSvg();
    expect(a).toMatch(/^<svg [^>]*viewBox="0 0 200 280"/);
    const ids = (svg: string) => [...svg.matchAll(/id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids(a).some((id) => ids(b).includes(id))).toBe(false);
    expect(cardFaceSvg("red")).toContain("#b3121f");
    expect(cardFaceSvg("black")).not.toContain("#b3121f");
  });
});

describe("cluedo gamble offer", () => {
  const g = features.gambles.find((x) => x.name === "half-then-win-then-take")!;

  it("after a win with no step taken: the offer's amount, GAMBLE and COLLECT as the server allows", () => {
    expect(gambleOffer(roundWith(g, g.before))).toEqual({ amount: 75, canGamble: true, canCollect: true });
    const collectOnly = { ...g.before, choices: { gamble: ["collect"] } };
    expect(gambleOffer(roundWith(g, collectOnly))).toEqual({ amount: 75, canGamble: false, canCollect: true });
  });

  it("no offer once a step was taken, once GAMBLE was pressed for the round, or without a gamble", () => {
    expect(gambleOffer(roundWith(g, g.steps[0]!.choice_view, stepsUpTo(g, 1)))).toBeNull();
    expect(gambleOffer(roundWith(g, g.before), new Set(["r1"]))).toBeNull();
    expect(gambleOffer(roundWith(g, g.before), new Set(["another round"]))).not.toBeNull();
    expect(gambleOffer(roundWith(g, null))).toBeNull();
    expect(gambleOffer(roundWith(g, { active: "wheel", choices: { wheel: ["spin"] }, state: null, odds: null }))).toBeNull();
  });
});

describe("cluedo after free spins and on a phone", () => {
  it("the lines that cycle after free spins are named as the last free spin's", () => {
    const outcome = outcomeOf("free-spins-retrigger");
    // a free spin's screen with five of the round's line wins on it (the cycle names them)
    const all = outcome.spins.flatMap((s) => s.events);
    const screen = all.find((e) => e.type === "window")!;
    const last = { ...outcome.spins.at(-1)!, events: [screen, ...all.filter((e) => e.type === "line_win").slice(0, 5)] };
    const many = winCycleOf({ spins: [last] }, base.info.paylines ?? [])!;
    expect(many.summary).toMatch(/^5 winning lines pay /);
    expect(lastFreeSpin(many, last.win).summary).toBe(`Last free spin: ${many.summary}`);
    const one = { ...last, events: last.events.slice(0, 2) };
    const single = winCycleOf({ spins: [one] }, base.info.paylines ?? [])!;
    expect(lastFreeSpin(single, 336).summary).toBe("Last free spin pays 336");
    expect(lastFreeSpin(single, 336).wins).toEqual(single.wins);
  });

  it("on a 390 px phone a winning line's badge lies in the margin, off the symbols, with 6 px of air at the screen's edge, the reels still 86% of its width (the playtests: '18' ran to the edge; the badge hid the cards' edges)", () => {
    // wholly beyond the window's side, its white rim included
    expect(CLUEDO_BADGE.outset).toBeGreaterThan(1 + BADGE_STROKE / 2);
    expect(CLUEDO_BADGE.px).toBeGreaterThanOrEqual(18);
    expect(PHONE_EDGE_PX - compactBadgeReach(CLUEDO_BADGE.px, CLUEDO_BADGE.outset)).toBeGreaterThanOrEqual(6);
    expect(390 - 2 * PHONE_EDGE_PX).toBeGreaterThanOrEqual(0.86 * 390);
  });

  it("a suspect's card, pulsing as a winner, stays inside its cell (the reels' frame)", () => {
    expect(PORTRAIT_SHARE * (1 + WIN_PULSE)).toBeLessThanOrEqual(1);
    for (const id of ["SCARLET", "MUSTARD", "PLUM", "PEACOCK", "GREEN"]) {
      const svg = CLUEDO_SYMBOLS[id]!.svg!;
      const m = /<g transform="translate\(([\d.]+) ([\d.]+)\) scale\(([\d.]+)\)">/.exec(svg);
      expect(m, id).not.toBeNull();
      expect(Number(m![3]) * (1 + WIN_PULSE), id).toBeLessThanOrEqual(1);
      expect(Number(m![1]) * 2 + 200 * Number(m![3]), id).toBeCloseTo(200, 6); // centred
      expect(svg.trim().endsWith("</g></svg>"), id).toBe(true);
    }
  });
});
