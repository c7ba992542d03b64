// Candy Jar Clusters' handlers against a fake CandyView, with real outcomes: the shipped game's
// fixtures (tests/fixtures/candy-jar-clusters.json) and the rare features played on the e2e
// test-only game files (candy-jar-clusters-features.json: super spins, the 10,000x cap).
import { describe, expect, it } from "vitest";
import { creditsAndMoney, creditsMoney, formatCredits, formatMoney } from "../../src/core/money";
import { validateOutcome, type Cell, type Outcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import { candyHandlers, candyHooks, counterOf, type CandyView, type FreeSpinCounter, type Jar } from "../../src/screens/candy-jar-clusters/handlers";
import { meterSteps } from "../../src/screens/candy-jar-clusters/meter";
import { clusterEdges } from "../../src/screens/candy-jar-clusters/outline";
import { tumbleMoves } from "../../src/screens/candy-jar-clusters/tumble";
import { CANDY_SYMBOLS } from "../../src/screens/candy-jar-clusters/symbols";
import { fixture, type Fixture } from "./fixtures";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

type Call = [string, ...unknown[]];

class FakeCandyView implements CandyView {
  constructor(private readonly game: { currency?: string; denomination?: number } = {}) {}
  calls: Call[] = [];
  money(credits: number) { return creditsAndMoney(credits, creditsMoney(this.game)); }
  grid: string[][] = [];
  private log(...c: Call) { this.calls.push(c); }
  spinStart() { this.log("spinStart"); }
  async land(symbols: string[][]) { this.grid = symbols; this.log("land", symbols); }
  async tumble(symbols: string[][]) { this.grid = symbols; this.log("tumble", symbols); }
  async tumbleCandies(symbols: string[][], removed: Cell[], options?: { fast?: boolean }) { this.log("tumbleCandies", symbols, removed, this.grid, options); this.grid = symbols; }
  show(symbols: string[][]) { this.grid = symbols; this.log("show", symbols); }
  current() { return this.grid; }
  async highlight(cells: Cell[], label: string) { this.log("highlight", cells, label); }
  clearHighlight() { this.log("clearHighlight"); }
  async outlineCluster(cells: Cell[], earlier: Cell[][], label: string, options?: { brief?: boolean }) { this.log("outlineCluster", cells, earlier.map((g) => [...g]), label, options); }
  async meterSettled() { this.log("meterSettled"); }
  async banner(text: string) { this.log("banner", text); }
  setWin(credits: number) { this.log("setWin", credits); }
  setSpinInfo(text: string) { this.log("setSpinInfo", text); }
  sound(effect: string) { this.log("sound", effect); }
  markWilds(cells: Cell[], golden: boolean) { this.log("markWilds", cells, golden); }
  async setMultiplier(value: number | null) { this.log("setMultiplier", value); }
  async fillJars(counts: Record<Jar, number>, lit: readonly Jar[]) { this.log("fillJars", counts, [...lit]); }
  showJars(counts: Record<Jar, number>, lit: readonly Jar[]) { this.log("showJars", counts, [...lit]); }
  setModifiers(active: readonly Jar[]) { this.log("setModifiers", [...active]); }
  setCounter(counter: FreeSpinCounter | null) { this.log("setCounter", counter); }
  setExtra(toward: number | null) { this.log("setExtra", toward); }
  setJackpots(active: boolean) { this.log("setJackpots", active); }
  async jackpotWon(name: string, win: number, multiplier: number) { this.log("jackpotWon", name, win, multiplier); }
  async showTotal(text: string) { this.log("showTotal", text); }
  async showCap(total: number, forfeited: boolean) { this.log("showCap", total, forfeited); }
  setWinLine(text: string, meter?: number) { this.log("setWinLine", text, meter); }
  resetRound() { this.log("resetRound"); }
  of(name: string) { return this.calls.filter((c) => c[0] === name); }
}

const shipped = fixture("candy-jar-clusters");
const features = fixture("candy-jar-clusters-features") as Fixture & { rounds: (Fixture["rounds"][number] & { game_file: string })[] };

function round(f: Fixture, kind: string): Outcome {
  const r = f.rounds.find((x) => x.kind === kind);
  if (!r) throw new Error(`no ${kind} round in ${f.key}`);
  return validateOutcome(r.outcome);
}

async function play(f: Fixture, outcome: Outcome, fromSpin = 0) {
  const view = new FakeCandyView();
  const won = await new EventPlayer<CandyView>(candyHandlers(f), candyHooks).play(view, outcome, { fromSpin });
  return { view, won };
}

const allRounds = [...shipped.rounds.map((r) => ({ f: shipped, r })), ...features.rounds.map((r) => ({ f: features, r }))];

describe("candy jar handlers", () => {
  it("a win below the stake is told briefly: outlines shown not held, no wait on the meter, the tumble at turbo's pace (a playtest waited ~10 s for PLAY after winning half the bet)", async () => {
    const small = round(shipped, "win");
    expect(small.total_win).toBeLessThan(small.bet.stake);
    const { view } = await play(shipped, small);
    expect(view.of("outlineCluster").length).toBeGreaterThan(0);
    for (const c of view.of("outlineCluster")) expect(c[4]).toMatchObject({ brief: true });
    expect(view.of("meterSettled")).toHaveLength(0);
    for (const c of view.of("tumbleCandies")) expect(c[4]).toMatchObject({ fast: true });
    // at or over the stake: the full pace
    const full = structuredClone(small);
    full.bet.stake = full.total_win;
    const big = (await play(shipped, full)).view;
    for (const c of big.of("outlineCluster")) expect(c[4]).not.toMatchObject({ brief: true });
    expect(big.of("meterSettled").length).toBeGreaterThan(0);
    for (const c of big.of("tumbleCandies")) expect(c[4]).toMatchObject({ fast: false });
  });

  it("have a handler for every event of every fixture round, and each round plays to its total", async () => {
    for (const { f, r } of allRounds) {
      const outcome = validateOutcome(r.outcome);
      const { view, won } = await play(f, outcome);
      expect(won, r.kind).toBe(outcome.total_win);
      expect(view.of("setWin").at(-1)?.[1], r.kind).toBe(outcome.total_win);
    }
  });

  it("lands each spin's drawn grid and tumbles to each next grid, popping the winners so that the survivors are the bottom of each new column", async () => {
    for (const { f, r } of allRounds) {
      const outcome = validateOutcome(r.outcome);
      const { view } = await play(f, outcome);
      const grids = outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "grid"));
      const drawn = [...view.of("land").map((c) => c[1]), ...view.of("tumbleCandies").map((c) => c[1])];
      expect(drawn.length).toBe(grids.length);
      expect(view.of("land").map((c) => c[1])).toEqual(grids.filter((g) => g.tumble === 0).map((g) => g.symbols));
      for (const [, after, removed, before] of view.of("tumbleCandies") as [string, string[][], Cell[], string[][]][]) {
        expect(removed.length).toBeGreaterThan(0);
        for (let c = 0; c < after.length; c++) {
          const rows = new Set(removed.filter(([cc]) => cc === c).map(([, r]) => r));
          expect(tumbleMoves(before[c] ?? [], after[c] ?? [], rows), `${r.kind}: column ${c}`).not.toBeNull();
        }
      }
      // the refilled count the server sent is the number of popped cells
      const tumbles = grids.filter((g) => g.tumble > 0);
      view.of("tumbleCandies").forEach((c, i) => expect(new Set((c[2] as Cell[]).map(String)).size).toBe(tumbles[i]?.refilled));
    }
  });

  it("highlights each cluster win with the server's amount, never another number", async () => {
    const outcome = round(shipped, "win");
    const { view } = await play(shipped, outcome);
    const wins = outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "cluster_win"));
    const labels = view.of("outlineCluster");
    expect(labels.map((c) => c[3])).toEqual(wins.map((w) => formatCredits(w.win)));
    expect((labels[0]?.[1] as Cell[]).length).toBe(wins[0]?.size);
    // a player's words with the unit (the playtest read "pays 21 · WIN 35" with no unit on the 21)
    expect(view.of("setWinLine").map((c) => c[1])).toContain("6 LEMONS pay 14 credits");
  });

  it("a pay's line goes as its cluster tumbles away: no line naming a cluster is left under the grid that replaced it", async () => {
    let tumbles = 0;
    for (const { f, r } of allRounds) {
      const { view } = await play(f, validateOutcome(r.outcome));
      view.calls.forEach((c, i) => {
        if (c[0] !== "tumbleCandies") return;
        tumbles++;
        const line = view.calls.slice(0, i).filter((x) => x[0] === "setWinLine").at(-1);
        expect(line?.[1] ?? "", `${r.kind}: "${String(line?.[1])}" said under a tumbled grid`).toBe("");
      });
    }
    expect(tumbles).toBeGreaterThan(5);
  });

  it("fills the jars with the event's candies; a triggering spin lights the jars and the modifiers", async () => {
    const loss = await play(shipped, round(shipped, "loss"));
    const jars = round(shipped, "loss").spins[0]?.events.find((e) => e.type === "jars");
    expect(loss.view.of("fillJars")).toEqual([["fillJars", { wild: jars?.type === "jars" ? jars.wild : -1, free_spins: jars?.type === "jars" ? jars.free_spins : -1, jackpots: jars?.type === "jars" ? jars.jackpots : -1 }, []]]);
    const fs = await play(shipped, round(shipped, "flag:free_spins"));
    expect(fs.view.of("fillJars")[0]).toEqual(["fillJars", { wild: 1, free_spins: 1, jackpots: 1 }, ["wild", "free_spins", "jackpots"]]);
    expect(fs.view.of("setModifiers")[0]).toEqual(["setModifiers", ["wild", "free_spins", "jackpots"]]);
    expect(fs.view.of("setJackpots")).toContainEqual(["setJackpots", true]);
    expect(fs.view.of("resetRound").length).toBe(1);
  });

  it("free spins: the trigger, a counter of the awarded spins, placed wilds, the random multiplier, extra spins, a jackpot, the bonus total", async () => {
    const outcome = round(shipped, "flag:free_spins");
    const { view } = await play(shipped, outcome);
    expect(view.of("banner")).toContainEqual(["banner", "11 FREE SPINS\n10 + 1 EXTRA\nWILD + FREE SPINS + JACKPOTS"]);
    const counters = view.of("setCounter").map((c) => c[1] as FreeSpinCounter | null).filter((c): c is FreeSpinCounter => !!c);
    expect(counters[0]).toEqual({ kind: "free", spin: 1, of: 11 });
    // the EXTRA collected on spin 3 makes it 12: the counter says so at once, and after
    expect(counters).toContainEqual({ kind: "free", spin: 3, of: 12 });
    expect(counters.at(-1)).toEqual({ kind: "free", spin: 12, of: 12 });
    expect(view.of("setExtra")).toContainEqual(["setExtra", 1]);
    expect(view.of("markWilds").length).toBe(12);
    expect(view.of("markWilds")[0]?.[2]).toBe(true); // spin 1 placed a golden wild
    // the placed wilds are said under the grid, not in a banner over the wilds it names
    expect(view.of("setWinLine")).toContainEqual(["setWinLine", "WILD modifier: 9 wilds placed, golden ones multiply their cluster's pay", undefined]);
    expect(view.of("banner").filter((c) => String(c[1]).includes("WILDS"))).toEqual([]);
    expect(view.of("setMultiplier").filter((c) => c[1] !== null).map((c) => c[1])).toEqual([10, 5]);
    expect(view.of("setWinLine")).toContainEqual(["setWinLine", "Random multiplier x10: this spin pays 3,360 credits", 3360]);
    const jp = outcome.spins.flatMap((sp) => sp.events).find((e) => e.type === "jackpot") as { jackpot: string; win: number; multiplier: number };
    expect(view.of("jackpotWon")[0]).toEqual(["jackpotWon", jp.jackpot, jp.win, jp.multiplier]);
    expect(view.of("showTotal")).toEqual([["showTotal", `FREE SPINS OVER\nTOTAL WIN ${formatCredits(outcome.total_win)}`]]);
    expect(view.of("showCap")).toEqual([]);
  });

  it("a resumed free-spins round lights the outcome's modifiers where it starts playing", async () => {
    const outcome = round(shipped, "flag:free_spins");
    const { view, won } = await play(shipped, outcome, 5);
    expect(won).toBe(outcome.total_win);
    expect(view.of("setModifiers")[0]).toEqual(["setModifiers", ["wild", "free_spins", "jackpots"]]);
    expect(view.of("setCounter")[0]?.[1]).toEqual({ kind: "free", spin: 5, of: 12 });
    // the jars as the trigger spin filled them, though that spin is not played again (a reload
    // mid-free-spins showed them empty)
    const e = outcome.spins[0]?.events.find((x) => x.type === "jars");
    expect(e?.type === "jars" && e.triggered).toBe(true);
    const counts = e?.type === "jars" ? { wild: e.wild, free_spins: e.free_spins, jackpots: e.jackpots } : null;
    expect(view.of("fillJars")).toEqual([]);
    expect(view.of("showJars")[0]).toEqual(["showJars", counts, (["wild", "free_spins", "jackpots"] as const).filter((j) => (counts?.[j] ?? 0) > 0)]);
  });

  it("super spins: their own counter and banner", async () => {
    const outcome = round(features, "flag:super_spins");
    const { view } = await play(features, outcome);
    const supers = outcome.spins.filter((s) => s.kind === "super");
    expect(supers.length).toBeGreaterThan(0);
    expect(view.of("banner").filter((c) => String(c[1]).startsWith("SUPER SPIN")).length).toBeGreaterThanOrEqual(supers.length);
    expect(view.of("setCounter").map((c) => c[1])).toContainEqual({ kind: "super", spin: 1, of: expect.any(Number) });
    for (const s of supers) expect(counterOf(outcome, s)?.kind).toBe("super");
  });

  it("the win cap: the message with the capped total (the spin's cluster wins show what they paid before the cut)", async () => {
    const outcome = round(features, "flag:win_capped");
    expect(outcome.win_capped).toBe(true);
    const { view, won } = await play(features, outcome);
    expect(won).toBe(outcome.total_win);
    expect(view.of("showCap")).toEqual([["showCap", outcome.total_win, outcome.spins.length > 1]]);
    // the cap is claimed only once the WIN meter reads the capped total (a gallery shot: the
    // plaque said 200,000 while a counter still read 195,292)
    const names = view.calls.map((c) => c[0]);
    const cap = names.indexOf("showCap");
    const lastSet = view.calls.map((c, i) => (c[0] === "setWin" ? i : -1)).filter((i) => i >= 0 && i < cap).at(-1)!;
    expect(view.calls[lastSet]).toEqual(["setWin", outcome.total_win]);
    expect(names.slice(lastSet, cap)).toContain("meterSettled");
  });

  it("a jackpot lights the rung the outcome awarded, whose coin lies on the grid it was paid on; other coins light none", async () => {
    let checked = 0;
    for (const { f, r } of allRounds) {
      const outcome = validateOutcome(r.outcome);
      const awarded = outcome.spins.flatMap((s) => s.events).filter((e) => e.type === "jackpot");
      const { view } = await play(f, outcome);
      expect(view.of("jackpotWon").map((c) => c[1]), r.kind).toEqual(awarded.map((e) => e.jackpot));
      for (const s of outcome.spins) {
        let grid: string[][] = [];
        for (const e of s.events) {
          if (e.type === "grid") grid = e.symbols;
          if (e.type !== "jackpot") continue;
          checked++;
          expect(grid.flat(), `${r.kind} spin ${s.index}: ${e.jackpot} awarded`).toContain(e.jackpot);
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("every symbol of the game has authored SVG art in a square viewBox, its own but for the golden wilds' shared star", () => {
    const seen = new Map<string, string>();
    for (const s of shipped.info.symbols) {
      const svg = CANDY_SYMBOLS[s.id]?.svg ?? "";
      expect(svg, s.id).toMatch(/^<svg [^>]*viewBox="0 0 200 200"/);
      const other = seen.get(svg);
      if (other) expect(`${other} ${s.id}`).toMatch(/^GOLDEN_WILD_\d GOLDEN_WILD_\d$/);
      seen.set(svg, s.id);
    }
  });
});

describe("candy jar symbols", () => {
  // a design review: "half the symbols are plain fruit in a candy shop"
  it("the fruit symbols are drawn as sweets: each a named candy of its own kind, with an outline, a highlight and a shadow; ids and names kept", () => {
    const fruit = ["STRAWBERRY", "GRAPES", "LEMON", "PLUM"];
    const kinds = new Set<string>();
    for (const id of fruit) {
      const svg = CANDY_SYMBOLS[id]?.svg ?? "";
      const info = shipped.info.symbols.find((s) => s.id === id);
      expect(info, id).toBeTruthy();
      const title = /<title>([^<]+)<\/title>/.exec(svg)?.[1] ?? "";
      // the sweet in the fruit's flavour: its title names the fruit the paytable names, and a sweet
      expect(title.toLowerCase(), id).toContain(info!.name.toLowerCase().replace(/s$/, ""));
      const kind = /gumm(y|ies)|jelly beans?|gumdrop|lollipop|wrapped|drop/i.exec(title)?.[0].toLowerCase() ?? "";
      expect(kind, `${id}: "${title}"`).not.toBe("");
      kinds.add(kind);
      expect(svg, `${id}: an outline`).toMatch(/stroke-width="[4-9]"/);
      expect(svg, `${id}: a highlight`).toMatch(/(fill|stroke)="#fff"[^>]*opacity="\.[5-9]/);
      expect(svg, `${id}: a shadow under it`).toMatch(/<ellipse cx="100" cy="1[7-9]\d"[^>]*opacity="\.3/);
    }
    // each its own shape: no two fruits drawn as the same kind of sweet but the gummies
    expect(kinds.size, [...kinds].join(", ")).toBeGreaterThanOrEqual(3);
  });
});

/** The credits a win line says its pay adds: the number after its last "=", else after "pays". */
function saidPay(text: string): number {
  const m = /=\s*([\d,]+)(?!.*=)/.exec(text) ?? /pays? ([\d,]+)/.exec(text);
  if (!m) throw new Error(`no pay in ${JSON.stringify(text)}`);
  return Number(m[1]!.replace(/,/g, ""));
}

describe("candy jar WIN meter", () => {
  it("ends each spin on the round's credits so far plus the server's spin win, never going down", () => {
    for (const { r } of allRounds) {
      const outcome = validateOutcome(r.outcome);
      let before = 0;
      for (const spin of outcome.spins) {
        const steps = meterSteps(spin, before);
        expect(steps.length).toBe(spin.events.length);
        const meters = [before, ...steps.map((s) => s.meter)];
        for (let i = 1; i < meters.length; i++) expect(meters[i]!, `${r.kind} spin ${spin.index}`).toBeGreaterThanOrEqual(meters[i - 1]!);
        if (steps.length) expect(steps.at(-1)!.meter, `${r.kind} spin ${spin.index}`).toBe(before + spin.win);
        before += spin.win;
      }
      expect(before).toBe(outcome.total_win);
    }
  });

  it("a cluster's pay moves the meter by what its win line says, on every fixture round (multipliers, jackpots and free spins included)", async () => {
    let checked = 0;
    for (const { f, r } of allRounds) {
      const outcome = validateOutcome(r.outcome);
      if (outcome.win_capped) continue; // the cap cuts the last pays short: its own test below
      const { view } = await play(f, outcome);
      // each win line that names a meter total is said with the meter set to that total, and
      // the total grows by exactly the pay it says since the line before
      let last = 0, spinStart = 0;
      for (let i = 0; i < view.calls.length; i++) {
        const [name, text, meter] = view.calls[i]!;
        // a spin starts with its multiplier badge hidden (candyHooks.beforeSpin); the line is
        // also cleared as a tumble pops the clusters it named, within the spin
        if (name === "setMultiplier" && text === null) { spinStart = last; continue; }
        if (name !== "setWinLine" || text === "") continue;
        if (meter === undefined) continue;
        const setTo = view.calls.slice(0, i).filter((c) => c[0] === "setWin").at(-1)?.[1];
        expect(setTo, `${r.kind}: ${String(text)}`).toBe(meter);
        // "x10: ..." restates the spin's total at its multiplier; any other line adds its pay
        if (String(text).startsWith("Random multiplier")) expect((meter as number) - spinStart, `${r.kind}: ${String(text)}`).toBe(saidPay(String(text)));
        else expect((meter as number) - last, `${r.kind}: ${String(text)}`).toBe(saidPay(String(text)));
        last = meter as number;
        checked++;
      }
      expect(last).toBeLessThanOrEqual(outcome.total_win);
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("the random multiplier counts the pays already shown again at its value", () => {
    const spin = { win: (10 + 20 + 5) * 3, events: [
      { type: "cluster_win" as const, tumble: 0, symbol: "PLUM", size: 6, wilds: 0, wild_multiplier: 1, win: 10 },
      { type: "cluster_win" as const, tumble: 0, symbol: "LEMON", size: 7, wilds: 0, wild_multiplier: 1, win: 20 },
      { type: "random_multiplier" as const, tumble: 0, value: 3 },
      { type: "cluster_win" as const, tumble: 1, symbol: "PLUM", size: 6, wilds: 0, wild_multiplier: 1, win: 5 },
    ] };
    expect(meterSteps(spin, 100).map((s) => [s.meter, s.times])).toEqual([[110, 1], [130, 1], [190, 3], [205, 3]]);
  });

  it("a capped spin's meter stops at the server's capped win", () => {
    const outcome = round(features, "flag:win_capped");
    let before = 0;
    for (const spin of outcome.spins) {
      for (const s of meterSteps(spin, before)) expect(s.meter).toBeLessThanOrEqual(before + spin.win);
      before += spin.win;
    }
  });
});

describe("cluster outline", () => {
  it("runs around the group's outer sides only", () => {
    // an L of three cells: 8 outer sides of 1 cell each (a lone cell has 4)
    expect(clusterEdges([[0, 0]], 10)).toHaveLength(4);
    const l = clusterEdges([[0, 0], [0, 1], [1, 1]], 10);
    expect(l).toHaveLength(8);
    expect(l).not.toContainEqual([0, 10, 10, 10]); // the side (0,0) and (0,1) share
  });
});

describe("tumble moves", () => {
  it("survivors fall to the bottom in order, refills on top; a column that does not match drops whole", () => {
    expect(tumbleMoves(["A", "B", "C", "D"], ["X", "A", "C", "D"], new Set([1]))).toEqual([null, 0, 2, 3]);
    expect(tumbleMoves(["A", "B", "C", "D"], ["X", "Y", "B", "D"], new Set([0, 2]))).toEqual([null, null, 1, 3]);
    expect(tumbleMoves(["A", "B"], ["A", "B"], new Set())).toEqual([0, 1]);
    expect(tumbleMoves(["A", "B", "C"], ["X", "A", "B"], new Set([1]))).toBeNull();
  });
});

// Rounds a new-player playtest recorded (tests/fixtures/candy-jar-clusters-playtest.json, as the
// server stored them): on a phone "6 x LEMON pays 14" stood under a WIN meter counting to 24
// (read at 15 on its way), the PLUM's 10 paid on the grid before it; nothing said that 14 was
// the second pay of the round, nor what any of it was in euros.
describe("candy jar win lines on the playtest's rounds", () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const recorded = JSON.parse(readFileSync(join(here, "..", "fixtures", "candy-jar-clusters-playtest.json"), "utf8")) as { currency: string; denomination: number; rounds: { kind: string; outcome: Record<string, unknown> }[] };
  const game = { ...shipped, currency: recorded.currency, denomination: recorded.denomination };
  const get = (kind: string) => validateOutcome(recorded.rounds.find((r) => r.kind === kind)!.outcome);
  const money = (credits: number) => formatMoney(credits * recorded.denomination, recorded.currency);
  const playIn = async (outcome: Outcome) => {
    const view = new FakeCandyView(game);
    await new EventPlayer<CandyView>(candyHandlers(game), candyHooks).play(view, outcome);
    return view;
  };

  it("the meter steps to each pay's running total and ends on the server's total; each pay's line says that total in credits and money", async () => {
    const outcome = get("tumble-two-pays");
    const pays = outcome.spins[0]!.events.flatMap((e) => (e.type === "cluster_win" ? [e] : []));
    expect(pays.length).toBe(2);
    const view = await playIn(outcome);
    const totals = pays.map((_, k) => pays.slice(0, k + 1).reduce((a, e) => a + e.win, 0));
    expect(view.of("setWin").map((c) => c[1])).toEqual([...totals, outcome.total_win]);
    expect(totals.at(-1)).toBe(outcome.total_win);
    const lines = view.of("setWinLine").filter((c) => / pays? /.test(String(c[1])));
    const [first, second] = pays;
    expect(lines).toEqual([
      ["setWinLine", `${first!.size} ${first!.symbol}S pay ${formatCredits(first!.win)} credits (${money(first!.win)})`, totals[0]],
      ["setWinLine", `${second!.size} ${second!.symbol}S pay ${formatCredits(second!.win)} credits · WIN ${formatCredits(totals[1]!)} (${money(totals[1]!)})`, totals[1]],
    ]);
  });

  it("the random multiplier in words: which multiplier, the spin's wins so far, times it, and the meter's figure in money", async () => {
    const outcome = get("random-multiplier");
    const spin = outcome.spins[0]!;
    const at = spin.events.findIndex((e) => e.type === "random_multiplier");
    const x = spin.multiplier;
    const before = spin.events.slice(0, at).reduce((a, e) => a + (e.type === "cluster_win" ? e.win : 0), 0);
    expect(x).toBeGreaterThan(1);
    const view = await playIn(outcome);
    expect(view.of("setWinLine")).toContainEqual(["setWinLine", `Random multiplier x${x}: this spin's wins ${formatCredits(before)} x${x} = ${formatCredits(before * x)} credits (${money(before * x)})`, before * x]);
    expect(view.of("setWinLine").at(-1)).toEqual(["setWinLine", `Random multiplier x${x}: this spin pays ${formatCredits(spin.win)} credits (${money(spin.win)})`, outcome.total_win]);
  });
});
