// Cops n Robbers' handlers against a fake CopsView, with real outcomes from the server's round
// code (tests/fixtures/cops-n-robbers.json and cops-n-robbers-features.json), and the wheels'
// green shares from the server's odds (cops-n-robbers-wheel.json).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatCredits, formatMoney } from "../../src/core/money";
import type { CollectionEvent, Outcome, Spin } from "../../src/core/outcome";
import { validateOutcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import type { ChoiceView } from "../../src/net/types";
import { bonusOutro, collectionCells, collectionLabel, copsHandlers, copsHooks, presentValues, robberMultipliers, type CopsMoment, type CopsView, type PresentValue } from "../../src/screens/cops-n-robbers/handlers";
import { arrowAmounts, bonusClosedWords, cashPrizeWords, MIN_SHARE, offerPrices, spinSegment, type WheelState } from "../../src/screens/cops-n-robbers/wheel";
import { isWheelSpin } from "../../src/screens/cops-n-robbers/choices";
import { offerOf } from "../../src/screens/game/gamble-offer";
import type { SlotView } from "../../src/screens/game/registry";
import { fixture, type FixtureRound } from "./fixtures";
import { RecordingView } from "./recording-view";

const here = dirname(fileURLToPath(import.meta.url));
const base = fixture("cops-n-robbers");
const features = JSON.parse(readFileSync(join(here, "..", "fixtures", "cops-n-robbers-features.json"), "utf8")) as { rounds: FixtureRound[] };
const rounds = [...base.rounds, ...features.rounds];

class FakeCopsView extends RecordingView implements CopsView {
  values: [number, number, number][] = [];
  trail: [number, number][] = [];
  trailShown = false;
  parades: string[] = [];
  /** How many values were on screen at each collection. */
  collected: number[] = [];
  constructor() { super(["spinStart", "land", "tumble", "highlight", "banner"]); }
  showValues(values: readonly PresentValue[]) { this.values = values.map((p) => [p.reel, p.row, p.value]); for (const p of values) this.calls.push(`value ${p.value}`); }
  async collect(label: string) { this.calls.push(`collect ${label}`); this.collected.push(this.values.length); }
  clearValues() { this.values = []; }
  trailShow(start: number) { this.trailShown = true; this.calls.push(`trail x${start}`); }
  async trailMove(robber: number, cop: number) { this.trail.push([robber, cop]); }
  trailHide() { this.trailShown = false; }
  /** The bonus's scene: each change, with how many calls had been made before it. */
  bonusLook = false;
  scenes: { look: "bonus" | "base"; after: number }[] = [];
  bonusScene(on: boolean) { if (on !== this.bonusLook) this.scenes.push({ look: on ? "bonus" : "base", after: this.calls.length }); this.bonusLook = on; }
  async parade(result: string) { this.parades.push(result); }
  reelSets: string[] = [];
  reelSet(name: string) { this.reelSets.push(name); }
  async moment(m: CopsMoment) { this.calls.push(`moment ${m.title}${m.count === undefined ? "" : ` ${formatCredits(m.count)}`}${m.lines ? ` | ${m.lines.join(" | ")}` : ""}`); }
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
      for (const { cells } of view.highlights) for (const [reel, row] of cells) { expect(reel).toBeLessThan(5); expect(row).toBeLessThan(3); }
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
      const round = outcome.total_win === outcome.breakdown.bonus ? "" : ` | Round win ${formatCredits(outcome.total_win)}`;
      expect(view.calls.at(-1)).toBe(`moment BONUS TOTAL ${formatCredits(outcome.breakdown.bonus ?? -1)} | The robber is behind bars${round}`);
    }
  });

  it("announces the bonus before its first spin (what started it, what ends it), then counts its spins without a total", async () => {
    for (const kind of ["flag:bonus", "parade-sid", "parade-vic"]) {
      const outcome = outcomeOf(kind);
      const trigger = outcome.spins[0]?.events.find((e) => e.type === "bonus");
      const bonusSpins = outcome.spins.filter((s) => s.kind === "bonus");
      const { view } = await play(outcome);
      const intro = view.calls.findIndex((c) => c.startsWith("moment ") && c.includes(`${trigger?.type === "bonus" ? trigger.trigger_count : -1} Bonus symbols`) && c.includes("until the cop catches the robber"));
      expect(intro).toBeGreaterThan(-1);
      expect(intro).toBeLessThan(view.calls.indexOf("land", 1)); // before the first bonus spin lands
      // the chase's length is the outcome's secret until the parade: no spin count in the intro
      expect(view.calls[intro]).not.toMatch(new RegExp(`\\b${bonusSpins.length} bonus spins?\\b`, "i"));
      // the count alone under the console's SPINS label (at 1440x900 "BONUS SPIN 13" wrapped
      // onto a second row beside the balance and "153 (€1.53)")
      const counted = view.spinInfo.filter((t) => t !== "");
      expect(counted.at(-1)).toBe(`${bonusSpins.at(-1)?.index}`);
      expect(new Set(counted)).toEqual(new Set(bonusSpins.map((s) => `${s.index}`)));
      expect(view.spinInfo.at(-1)).toBe(""); // the count leaves the console with the bonus
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
    expect(view.calls).toContain("moment SUPER BIG MONEY BONUS | 4 Bonus symbols · Trail multiplier x2 | Robbers collect the presents | Bonus spins until the cop catches the robber");
    expect(view.calls.some((c) => /^collect Robber collects \d+x stake x\d+: /.test(c))).toBe(true);
  });

  it("says a bonus with no Bonus symbols (trigger_count 0) was won on the bonus wheel, not '0 Bonus symbols'", async () => {
    const raw = structuredClone(outcomeOf("parade-vic")) as Outcome;
    const trigger = raw.spins.flatMap((sp) => sp.events).find((e) => e.type === "bonus");
    if (trigger?.type !== "bonus") throw new Error("fixture without a bonus event");
    trigger.trigger_count = 0;
    const { view } = await play(validateOutcome(raw));
    const intro = view.calls.find((c) => c.startsWith("moment SUPER BIG MONEY BONUS"));
    expect(intro).toContain(`Won on the bonus wheel · Trail multiplier x${trigger.start_multiplier}`);
    expect(intro).not.toMatch(/\b0 Bonus symbols/);
  });

  it("names the bonus's own total on its outro and the round's win beside it where they differ", () => {
    const o = outcomeOf("flag:bonus");
    const bonus = o.breakdown.bonus ?? -1;
    expect(bonusOutro({ ...o, total_win: bonus })).toEqual({ title: "BONUS TOTAL", count: bonus, lines: ["The robber is behind bars"], kind: "bonus-outro" });
    expect(bonusOutro({ ...o, total_win: bonus + 58 }).lines).toEqual(["The robber is behind bars", `Round win ${formatCredits(bonus + 58)}`]);
  });

  it("shows the win cap message with the capped total_win when the outcome says win_capped", async () => {
    const raw = structuredClone(outcomeOf("flag:bonus")) as Outcome;
    raw.win_capped = true;
    raw.uncapped_win = raw.total_win + 1;
    const { view } = await play(validateOutcome(raw));
    expect(view.calls.at(-1)).toBe(`banner MAXIMUM WIN REACHED: ${formatCredits(raw.total_win)} paid`);
  });

  it("draws every present's value as its window lands, before the line wins, and keeps it through the collection", async () => {
    for (const kind of ["mixed", "fortune-collect", "bonus-collect-multiplied"]) {
      const outcome = outcomeOf(kind);
      const { view } = await play(outcome);
      // each window's values straight after its landing, in the cash events' order
      const expected = outcome.spins.flatMap((s) => ["land", ...s.events.flatMap((e) => (e.type === "cash" ? [`value ${e.value}`] : []))]);
      expect(view.calls.filter((c) => c === "land" || c.startsWith("value "))).toEqual(expected);
      const first = view.calls.indexOf("land");
      const firstHighlight = view.calls.findIndex((c) => c.startsWith("highlight "));
      const firstValue = view.calls.findIndex((c) => c.startsWith("value "));
      expect(firstValue).toBeGreaterThan(first);
      if (firstHighlight >= 0 && outcome.spins[0]?.events.some((e) => e.type === "cash")) expect(firstValue).toBeLessThan(firstHighlight);
      // at every collection the spin's presents still show their values
      const perCollection = outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "collection").map(() => s.events.filter((e) => e.type === "cash").length));
      expect(view.collected).toEqual(perCollection);
      expect(perCollection.every((n) => n > 0)).toBe(true);
    }
  });

  it("presentValues: the spin's cash events as (reel, row, value); none in the normal base game", () => {
    const fortune = outcomeOf("mixed").spins[0]!;
    expect(presentValues(fortune)).toEqual(fortune.events.flatMap((e) => (e.type === "cash" ? [{ reel: e.reel, row: e.row, value: e.value }] : [])));
    expect(presentValues(fortune).length).toBe(3);
    for (const [r, row] of presentValues(fortune).map((p) => [p.reel, p.row])) expect(fortune.events[0]?.type === "window" && fortune.events[0].symbols[r!]![row!]).toMatch(/^PRESENT_/);
    for (const kind of ["win", "loss"]) expect(presentValues(outcomeOf(kind).spins[0]!)).toEqual([]);
  });

  it("collectionCells: a collection lights every robber in view and every present with a value, nothing else", () => {
    const spins = rounds.flatMap((r) => validateOutcome(r.outcome).spins).filter((sp) => sp.events.some((e) => e.type === "collection"));
    expect(spins.length).toBeGreaterThan(0);
    for (const spin of spins) {
      const window = spin.events.find((e) => e.type === "window");
      if (window?.type !== "window") throw new Error("a collecting spin without its window");
      const lit = collectionCells(spin).map(([r, row]) => window.symbols[r]![row]!);
      const robbers = window.symbols.flat().filter((id) => id === "ROBBER").length;
      const presents = spin.events.filter((e) => e.type === "cash").length;
      expect(lit.filter((id) => id === "ROBBER").length).toBe(robbers);
      expect(lit.filter((id) => id.startsWith("PRESENT_")).length).toBe(presents);
      expect(lit.length).toBe(robbers + presents);
    }
  });

  it("spins each spin over the reel set the server spun: the mode's in the base game, the bonus reels in the bonus", async () => {
    for (const kind of ["win", "fortune-collect", "parade-vic"]) {
      const outcome = outcomeOf(kind);
      const { view } = await play(outcome);
      expect(view.reelSets).toEqual(outcome.spins.map((sp) => (sp.kind === "bonus" ? "bonus" : outcome.bet.mode)));
    }
    expect(outcomeOf("fortune-collect").bet.mode).toBe("fortune");
  });

  // The gallery's review: the trail bonus looked like the base game. Its own scene from the
  // intro (over which it is announced) through its spins and parade to its outro, then the base
  // game's again; a base round never changes the scene.
  it("plays the bonus in its own scene, from before its intro until its outro has been shown", async () => {
    for (const kind of ["flag:bonus", "parade-sid", "parade-vic"]) {
      const { view } = await play(outcomeOf(kind));
      const intro = view.calls.findIndex((c) => c.startsWith("moment ") && c.includes("until the cop catches the robber"));
      const outro = view.calls.findIndex((c) => c.startsWith("moment BONUS TOTAL"));
      expect(view.scenes.map((sc) => sc.look)).toEqual(["bonus", "base"]);
      expect(view.scenes[0]!.after).toBeLessThanOrEqual(intro); // on before the intro is shown
      expect(view.scenes[1]!.after).toBeGreaterThan(outro); // off once the outro has been shown
      expect(view.bonusLook).toBe(false);
    }
    for (const kind of ["win", "fortune-collect"]) {
      const { view } = await play(outcomeOf(kind));
      expect(view.scenes).toEqual([]);
    }
  });

  it("hides the trail in the base game", async () => {
    const { view } = await play(outcomeOf("win"));
    expect(view.trailShown).toBe(false);
    expect(view.calls).toContain(`highlight Line 9: 3 x King pays ${formatCredits(400)}`);
  });

  // The playtest read MONEYBAG in a line's caption and "Money bag" in the paytable: the
  // caption names a symbol by the game file's name, as the paytable does.
  it("names a line's symbol as the paytable does (Money bag, not MONEYBAG)", async () => {
    const win = validateOutcome(structuredClone(rounds.find((r) => r.kind === "win")!.outcome));
    const line = win.spins[0]!.events.find((e) => e.type === "line_win")!;
    if (line.type === "line_win") line.symbol = "MONEYBAG";
    const view = new FakeCopsView();
    await new EventPlayer<SlotView>(copsHandlers(base), copsHooks(), { timeoutMs: 2000 }).play(view, win);
    const named = base.info.symbols.find((s) => s.id === "MONEYBAG")?.name;
    expect(named).toBe("Money bag");
    expect(view.calls.some((c) => c.startsWith("highlight Line 9: 3 x Money bag pays"))).toBe(true);
    expect(view.calls.some((c) => c.includes("MONEYBAG"))).toBe(false);
  });

  // The playtest: the stake in euros, "Line 6 pays 125" in credits. At 1 credit = €0.02 a line's
  // pay and a collection say their money beside the credits.
  it("says a line's pay and a collection with their money at the game's denomination", async () => {
    const game = { ...base, denomination: 2, currency: "EUR" };
    const view = new FakeCopsView();
    await new EventPlayer<SlotView>(copsHandlers(game), copsHooks(), { timeoutMs: 2000 }).play(view, outcomeOf("win"));
    expect(view.calls).toContain(`highlight Line 9: 3 x King pays 400 (€8.00)`);
    const collectView = new FakeCopsView();
    await new EventPlayer<SlotView>(copsHandlers(game), copsHooks(), { timeoutMs: 2000 }).play(collectView, outcomeOf("fortune-collect"));
    const collect = collectView.calls.find((c) => c.startsWith("collect "));
    const amount = collect?.match(/: ([\d,]+) \((€[\d,.]+)\)$/);
    expect(amount, collect).toBeTruthy();
    expect(amount![2]).toBe(formatMoney(Number(amount![1]!.replace(/,/g, "")) * 2, "EUR"));
  });
});

// The wheel gamble's choice views as the server sends them (tests/fixtures/cops-n-robbers-wheel.json,
// written by its .py from the server's own odds: services/steps.py choice_odds), stake 500.
interface WheelCase { name: string; limit: number; choice: ChoiceView }
const wheel = JSON.parse(readFileSync(join(here, "..", "fixtures", "cops-n-robbers-wheel.json"), "utf8")) as { stake: number; cases: WheelCase[] };
const odds = (name: string) => {
  const found = wheel.cases.find((c) => c.name === name)?.choice.odds;
  if (!found) throw new Error(`no wheel case ${name}`);
  return found;
};

describe("wheel gamble segments: the server's odds", () => {
  it("sizes the cash wheel's green by the server's chance, with its target (4/3 of 400 is 533)", () => {
    const o = odds("offered-400");
    expect(spinSegment(o, 400, "cash", 0)).toEqual({ target: 533, price: null, chance: 400 / 533 });
    expect(spinSegment(o, 400, "cash", 1)).toEqual({ target: 800, price: null, chance: 0.5 });
    expect(spinSegment(o, 400, "cash", 2)).toEqual({ target: 1200, price: null, chance: 1 / 3 });
  });
  it("shows the target cut at the limit and no 4/3 of 2 credits, as the server sends them", () => {
    const near = odds("near-limit"); // 1,000,000 at stake, 100,000 banked, limit 1,250,000
    for (const i of [0, 1, 2]) expect(spinSegment(near, 1000000, "cash", i)).toEqual({ target: 1150000, price: null, chance: 1000000 / 1150000 });
    const two = odds("two-credits");
    expect(spinSegment(two, 2, "cash", 0)).toBeNull();
    expect(spinSegment(two, 2, "cash", 1)?.target).toBe(4);
  });
  it("moves the arrows between the server's amounts: a lower amount shrinks the green", () => {
    const o = odds("offered-400");
    expect(arrowAmounts(o)).toEqual([400, 360, 320, 280, 240, 200, 160, 120, 80, 40, 1]);
    expect(spinSegment(o, 200, "cash", 1)).toEqual({ target: 400, price: null, chance: 0.5 });
    expect(spinSegment(o, 40, "bonus", 1)?.chance).toBeCloseTo(40 / 35239.191577, 12);
    expect(spinSegment(o, 399, "cash", 1)).toBeNull(); // not an amount the server priced
  });
  it("sizes the bonus wheel's green by the server's chance, amount / price, and drops what it does not offer", () => {
    const o = odds("offered-400");
    expect(spinSegment(o, 400, "bonus", 1)?.chance).toBeCloseTo(400 / 35239.191577, 12);
    expect(spinSegment(o, 400, "bonus", 3)?.price).toBeCloseTo(92534.721867, 6);
    // 100,000 credits reach the Mega price: the bonus wheel is off, the cash wheel on
    const mega = odds("mega-reached");
    for (const b of [1, 2, 3]) expect(spinSegment(mega, 100000, "bonus", b)).toBeNull();
    expect(spinSegment(mega, 100000, "cash", 1)?.chance).toBe(0.5);
    expect(spinSegment(null, 400, "cash", 1)).toBeNull();
    expect(MIN_SHARE).toBeGreaterThan(0);
  });
  // The playtest: ADD A THIRD on a 5-credit win paid 6, and nothing said so before the spin.
  it("names each cash prize with what the server pays at the amount (4/3 rounded down: 40 -> 53)", () => {
    const o = odds("offered-400");
    expect(cashPrizeWords(0, spinSegment(o, 40, "cash", 0)?.target)).toBe("ADD A THIRD → 53");
    expect(cashPrizeWords(1, spinSegment(o, 400, "cash", 1)?.target)).toBe("DOUBLE → 800");
    expect(cashPrizeWords(2, spinSegment(o, 400, "cash", 2)?.target)).toBe("TRIPLE → 1,200");
    expect(cashPrizeWords(0, spinSegment(odds("two-credits"), 2, "cash", 0)?.target)).toBe("ADD A THIRD"); // not offered: no figure
  });
  // The playtest: "Bonus wheel closed" with no reason. The rule sheet's: at most the Mega Big
  // Money Bonus; once the win reaches it, the bonus wheel is disabled and the cash wheel plays on.
  it("says why the bonus wheel is closed, in the rule sheet's terms", () => {
    const prices = offerPrices({ bonus_prices: { 1: "35239191577/1000000", 2: "31943478361/500000", 3: "92534721867/1000000" } });
    expect(prices[3]).toBeCloseTo(92534.721867, 6);
    const mega = wheel.cases.find((c) => c.name === "mega-reached")!.choice.state as unknown as WheelState;
    expect(bonusClosedWords(mega, mega.amount, prices).join(" ")).toBe("CLOSED Your win is worth more than its top prize, the Mega Bonus");
    const near = { amount: 1000, collected: 1249000, limit: 1250000, reached: 0, finished: false };
    expect(bonusClosedWords(near, 1000, prices).join(" ")).toMatch(/past the gamble's maximum of 1,250,000 credits/);
    expect(bonusClosedWords({ ...near, finished: true }, 1000, prices).join(" ")).toMatch(/gamble is over/);
  });
  it("lists, at the amount at stake, exactly the spins the server's choices offer", () => {
    for (const c of wheel.cases) {
      const top = Math.max(...arrowAmounts(c.choice.odds));
      const spins = (c.choice.choices.wheel_gamble as (string | number)[][]).filter((x) => x[0] === "cash" || x[0] === "bonus");
      expect(c.choice.odds?.[String(top)]?.map((o) => o.choice)).toEqual(spins);
      const state = c.choice.state as WheelState | null;
      if (state) expect(top).toBe(state.amount);
    }
  });
});

describe("wheel gamble offer: the win, GAMBLE and COLLECT before the wheels", () => {
  // the sheet: "any winnings ... will offer the gamble"; "When the gamble is ENTERED, two wheels
  // are presented": the wheels only after GAMBLE, or once a step was taken (a reload mid-gamble)
  const round = (name: string) => {
    const c = wheel.cases.find((x) => x.name === name)!;
    const amount = (c.choice.state as WheelState | null)?.amount ?? Math.max(...arrowAmounts(c.choice.odds));
    return { round_id: "r1", offers: [{ kind: "wheel_gamble", amount, stake: wheel.stake, denomination: 1, limits: {}, payback: "1" }], choice: c.choice, pending_win_credits: amount };
  };
  it("offers the server's amount with GAMBLE and COLLECT while no step has been taken", () => {
    expect(round("offered-400").choice.state).toBeNull();
    expect(offerOf(round("offered-400"), "wheel_gamble", isWheelSpin)).toEqual({ amount: 400, canGamble: true, canCollect: true });
    const collectOnly = { ...round("offered-400"), choice: { ...round("offered-400").choice, choices: { wheel_gamble: [["collect"], ["amount", 1]] } } };
    expect(offerOf(collectOnly, "wheel_gamble", isWheelSpin)).toEqual({ amount: 400, canGamble: false, canCollect: true });
  });
  it("shows the wheels at once once a step was taken, or GAMBLE was pressed for the round", () => {
    for (const name of ["near-limit", "two-credits", "mega-reached"]) expect(offerOf(round(name), "wheel_gamble", isWheelSpin)).toBeNull();
    expect(offerOf(round("offered-400"), "wheel_gamble", isWheelSpin, new Set(["r1"]))).toBeNull();
    expect(offerOf(round("offered-400"), "wheel_gamble", isWheelSpin, new Set(["another round"]))).not.toBeNull();
    expect(offerOf(round("offered-400"), "spin_chance", isWheelSpin)).toBeNull();
  });
});

describe("a collection's words", () => {
  // Each Robber moves the robber one step and collects there (RULES.md, kernel.py's chase): at
  // the Super Big Money Bonus's start x2, robbers stepping onto positions 5 (no mark: x1) and 6
  // (the first mark, x2) collect 25 stakes at x2 and at x4, 6 x 25 stakes = 1,500 at 10 a stake.
  const e: CollectionEvent = { type: "collection", collectors: 2, values: 25, multiplier: 4, win: 1500 };
  const spin = { events: [e, { type: "trail", robber: 6, cop: 2, robbers: 2, cops: 0 }] as Spin["events"] };

  it("names each robber's multiplier where they differ", () => {
    expect(robberMultipliers(e, spin)).toEqual([2, 4]);
    expect(collectionLabel(e, undefined, spin)).toBe("2 robbers collect 25x stake at x2 and x4: 1,500");
  });

  it("says one multiplier where every robber collects at it, and none it cannot tell", () => {
    // the Mega Big Money Bonus (x3): positions 7 and 8, both after the first mark (x2), 12 x 25 stakes
    const same: CollectionEvent = { ...e, multiplier: 6, win: 3000 };
    expect(collectionLabel(same, undefined, { events: [same, { type: "trail", robber: 8, cop: 2, robbers: 2, cops: 0 }] })).toBe("2 robbers collect 25x stake x6: 3,000");
    // at the trail's end a step may not move him: the last multiplier only
    expect(robberMultipliers(e, { events: [e, { type: "trail", robber: 23, cop: 2, robbers: 2, cops: 0 }] })).toBeNull();
    // Fortune Spins (no trail): as before
    expect(collectionLabel({ ...e, multiplier: 1, win: 500 })).toBe("2 robbers collect 25x stake: 500");
  });
});
