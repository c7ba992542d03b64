// Candy Jar Clusters' handlers: one for every event its outcomes carry, calling the CandyView
// (no Pixi here: the unit tests play the real fixtures against a fake view). The grid drawn is
// always the outcome's grid event; the amounts shown are the events' `win`, the spins' `win`
// and the outcome's `total_win`. The client counts only what it shows (which free spin this is,
// from the outcome's spins) and finds where a cluster lies on the grid (presentation only).
import { formatCredits } from "../../core/money";
import type { Cell, GridEvent, Outcome, Spin } from "../../core/outcome";
import type { Handlers, PlayContext, SpinHooks } from "../../core/player";
import type { GameView } from "../../net/types";
import { clusterCells, symbolCells } from "../../slot/paylines";
import { genericHandlers } from "../game/handlers";
import type { SlotView } from "../game/registry";
import { meterSteps, type MeterStep } from "./meter";
import { clusterPays } from "./wins";

export type Jar = "wild" | "free_spins" | "jackpots";
export const JARS: readonly Jar[] = ["wild", "free_spins", "jackpots"];
export const JAR_CANDY: Record<Jar, string> = { wild: "YELLOW", free_spins: "RED", jackpots: "GREEN" };
export const JAR_NAMES: Record<Jar, string> = { wild: "WILD", free_spins: "FREE SPINS", jackpots: "JACKPOTS" };
export const JACKPOTS = ["MINI", "MINOR", "MAJOR", "MAXI", "GRAND"] as const;

export interface FreeSpinCounter { kind: "free" | "super"; spin: number; of: number }

/** What the handlers may do to the Candy Jar screen, beyond the SlotView. */
export interface CandyView extends SlotView {
  /** A notice over the grid; with `moment` (its kind: fs-intro, super) it is a full moment: the
   * first line its title, the others under it, then each of `modifiers` pictured with what it
   * does (the free spins' intro). */
  banner(text: string, options?: { ms?: number; fast?: boolean; moment?: string; modifiers?: readonly Jar[] }): Promise<void>;
  /** The winning clusters of the grid on screen stay outlined until they pop: `cells` is the
   * newest, lit with its `label`, `earlier` those already paid on this grid. */
  /** `brief`: shown, not held (a win below the stake). */
  outlineCluster(cells: Cell[], earlier: Cell[][], label: string, options?: { fast?: boolean; brief?: boolean }): Promise<void>;
  /** Resolves once the WIN meter shows the total last set (it counts up to it), or soon after. */
  meterSettled(options?: { fast?: boolean }): Promise<void>;
  /** A tumble: the `removed` cells pop, the rest fall, refills drop in; ends on `symbols`. */
  tumbleCandies(symbols: string[][], removed: Cell[], options?: { fast?: boolean }): Promise<void>;
  /** A ring on the placed wilds (until the next grid). */
  markWilds(cells: Cell[], golden: boolean): void;
  /** The spin's random multiplier badge (null hides it). */
  setMultiplier(value: number | null, options?: { fast?: boolean }): Promise<void>;
  /** The jars receive the spin's candies; `lit` jars light their modifier (Free Spins). */
  fillJars(counts: Record<Jar, number>, lit: readonly Jar[], options?: { fast?: boolean }): Promise<void>;
  /** The jars as a spin left them, at once (a round resumed or replayed after its first spin). */
  showJars(counts: Record<Jar, number>, lit: readonly Jar[]): void;
  /** The modifiers active for the Free Spins round ([] at a round's start). */
  setModifiers(active: readonly Jar[]): void;
  /** The free / super spin counter (null hides it). */
  setCounter(counter: FreeSpinCounter | null): void;
  /** EXTRA symbols collected toward the next super spin (null hides it). */
  setExtra(toward: number | null): void;
  /** The jackpot ladder: `active` when the JACKPOTS modifier plays; `won` lights one with its win. */
  setJackpots(active: boolean): void;
  jackpotWon(name: string, win: number, multiplier: number, options?: { fast?: boolean }): Promise<void>;
  /** The bonus total at the end of Free Spins ("" hides it). */
  showTotal(text: string, options?: { fast?: boolean }): Promise<void>;
  /** The win cap's moment and message (the view names the game's cap): the round's total
   * (credits) and whether free spins were forfeited. Played once, after the round's last spin. */
  showCap(total: number, forfeited: boolean, options?: { fast?: boolean }): Promise<void>;
  /** The line under the grid telling the last pay ("" clears it), and the WIN meter's total
   * once that pay is counted (`meter`, credits). */
  setWinLine(text: string, meter?: number): void;
  /** A figure of credits as the WIN meter shows it, its money beside it ("14 (€0.14)"). */
  money(credits: number): string;
  /** A new round starts: jars empty, modifiers off, counters hidden. */
  resetRound(): void;
}

const isJar = (m: string): m is Jar => (JARS as readonly string[]).includes(m);

/** The free (or super) spin number of `spin` and the spins awarded so far, from the outcome. */
export function counterOf(outcome: Outcome, spin: Spin): FreeSpinCounter | null {
  if (spin.kind !== "free" && spin.kind !== "super") return null;
  let number = 0, awarded = 0, supers = 0, superNumber = 0;
  for (const s of outcome.spins) {
    if (s.index > spin.index) break;
    if (s.kind === "free") number++;
    if (s.kind === "super") superNumber++;
    if (s.index === spin.index) break;
    for (const e of s.events) {
      if (e.type === "free_spins_triggered") awarded = e.spins;
      if (e.type === "extra_free_spins") { awarded = e.spins_awarded; supers += e.super_spins_awarded; }
    }
  }
  return spin.kind === "free" ? { kind: "free", spin: number, of: awarded } : { kind: "super", spin: superNumber, of: supers };
}

function modifiersOf(outcome: Outcome): Jar[] {
  return outcome.modifiers.filter(isJar);
}

/** The jars as the round's first spin filled them (its `jars` event), and the jars it lit: what
 * they show through the free spins that spin started. null: the spin filled none. */
export function jarsOf(outcome: Outcome): { counts: Record<Jar, number>; lit: Jar[] } | null {
  const e = outcome.spins[0]?.events.find((x) => x.type === "jars");
  if (e?.type !== "jars") return null;
  const counts: Record<Jar, number> = { wild: e.wild, free_spins: e.free_spins, jackpots: e.jackpots };
  return { counts, lit: e.triggered ? JARS.filter((j) => counts[j] > 0) : [] };
}

interface SpinState {
  grid: string[][];
  removed: Cell[];
  /** The clusters paid on the grid on screen, in the order they were paid. */
  clusters: Cell[][];
  used: Set<string>;
  wildsPending: { golden: boolean } | null;
}

/** The meter's step at `event` of the spin being played (meter.ts): the credits won in the
 * round's earlier spins, then this spin's pays so far. */
function stepAt(event: Spin["events"][number], spin: Spin, outcome: Outcome): MeterStep {
  const before = outcome.spins.reduce((sum, s) => (s.index < spin.index ? sum + s.win : sum), 0);
  const steps = meterSteps(spin, before);
  return steps[spin.events.indexOf(event)] ?? { meter: before + spin.win, before, times: spin.multiplier };
}

/** The WILD modifier's placed wilds in words (the rule sheet's: a winning cluster holding golden
 * wilds is multiplied by the sum of theirs; `golden` is the placed golden wilds' sum, each
 * shows its own on the grid). */
export function wildsPlacedLine(count: number, golden: number): string {
  return `WILD modifier: ${count} wilds placed${golden > 0 ? ", golden ones multiply their cluster's pay" : ""}`;
}

/** The end of a pay's words: the pay's money where the pay alone is the meter's figure ("pay 14
 * credits (€0.14)"), else the meter's running total with its money ("pay 14 credits · WIN 24
 * (€0.24)"). */
function wordsTail(view: CandyView, pay: number, meter: number): string {
  return meter === pay ? view.money(meter).slice(formatCredits(meter).length) : ` · WIN ${view.money(meter)}`;
}

/** A handler for every event type; they share the state of the grid being played (reset by
 * each grid event). */
/** A round that wins less than its stake and has no feature: its wins are told briefly, PLAY
 * live again soon (a jackpot, free spins or a win at or over the stake keep their pace). */
export function modest(outcome: Pick<Outcome, "spins" | "total_win" | "bet">): boolean {
  return outcome.spins.length === 1 && outcome.total_win < outcome.bet.stake
    && !outcome.spins[0]?.events.some((e) => e.type === "jackpot" || e.type === "free_spins_award");
}

export function candyHandlers(game: Pick<GameView, "info">): Required<Handlers<CandyView>> {
  const base = genericHandlers(game) as unknown as Required<Handlers<CandyView>>;
  // what a pay's words end on: its money where the pay alone is the meter's figure, else the
  // meter's running total with its money (a playtest read "6 x LEMON pays 14" beside a WIN
  // meter counting to 24, the 10 paid before it unsaid)
  const tail = (view: CandyView, pay: number, meter: number) => wordsTail(view, pay, meter);
  const wilds = new Set(game.info.symbols.filter((s) => s.role === "wild").map((s) => s.id));
  const names = new Map(game.info.symbols.map((s) => [s.id, s.name]));
  const state: SpinState = { grid: [], removed: [], clusters: [], used: new Set(), wildsPending: null };
  const wildCells = (grid: string[][]) => {
    const cells: Cell[] = [];
    grid.forEach((col, c) => col.forEach((s, r) => { if (wilds.has(s)) cells.push([c, r]); }));
    return cells;
  };
  const gridEvent = async (e: GridEvent, ctx: PlayContext<CandyView>) => {
    if (e.tumble === 0) {
      await ctx.view.land(e.symbols, { fast: ctx.fast });
      if (state.wildsPending) ctx.view.markWilds(wildCells(e.symbols), state.wildsPending.golden);
      state.wildsPending = null;
    } else {
      // the paid clusters pop: the line naming the last of them goes with them (a playtest read
      // a pay's line under a grid that had tumbled, its cells gone)
      ctx.view.setWinLine("");
      // a modest win's candies pop and fall at turbo's pace
      await ctx.view.tumbleCandies(e.symbols, state.removed, { fast: ctx.fast || modest(ctx.outcome) });
    }
    state.grid = e.symbols.map((col) => [...col]);
    state.removed = [];
    state.clusters = [];
    state.used = new Set();
  };

  const handlers: Required<Handlers<CandyView>> = {
    ...base,
    grid: gridEvent,
    cluster_win: async (e, ctx) => {
      // where the cluster lies: a connected group of its size (a group not shown yet)
      const groups = clusterCells(state.grid, e.symbol, e.size, wilds);
      const key = (g: Cell[]) => g.map(([c, r]) => `${c},${r}`).sort().join(" ");
      const cells = groups.find((g) => !state.used.has(key(g))) ?? groups[0] ?? symbolCells(state.grid, e.symbol);
      state.used.add(key(cells));
      state.removed.push(...cells);
      // the meter counts this pay in while the cluster is outlined: what the line says is what
      // the meter adds (with the spin's random multiplier once it has shown)
      const step = stepAt(e, ctx.spin, ctx.outcome);
      ctx.view.setWin(step.meter);
      ctx.view.sound("win");
      const golden = e.wild_multiplier > 1 ? ` · golden wilds x${e.wild_multiplier}` : "";
      const pays = step.times > 1 ? `${formatCredits(e.win)} x${step.times} = ${formatCredits(e.win * step.times)}` : formatCredits(e.win);
      ctx.view.setWinLine(`${clusterPays(e.size, names.get(e.symbol) ?? e.symbol, pays)}${tail(ctx.view, e.win * step.times, step.meter)}${golden}`, step.meter);
      // a round winning less than its stake is told briefly (a playtest waited ~10 s for PLAY
      // after winning half the bet): the outline shown, not held, the meter counting on its own
      if (modest(ctx.outcome)) await ctx.view.outlineCluster(cells, state.clusters, formatCredits(e.win), { fast: ctx.fast, brief: true });
      else await Promise.all([ctx.view.outlineCluster(cells, state.clusters, formatCredits(e.win), { fast: ctx.fast }), ctx.view.meterSettled({ fast: ctx.fast })]);
      state.clusters.push(cells);
    },
    random_multiplier: async (e, ctx) => {
      if (e.value <= 1) return;
      ctx.view.sound("bigwin");
      await ctx.view.setMultiplier(e.value, { fast: ctx.fast });
      // the pays already counted are multiplied too: the meter steps up with the line saying so
      const step = stepAt(e, ctx.spin, ctx.outcome);
      if (step.meter > step.before) {
        ctx.view.setWin(step.meter);
        const wins = ctx.spin.events.slice(0, ctx.spin.events.indexOf(e)).reduce((sum, x) => sum + (x.type === "cluster_win" ? x.win : 0), 0);
        ctx.view.setWinLine(`Random multiplier x${e.value}: this spin's wins ${formatCredits(wins)} x${e.value} = ${formatCredits(wins * e.value)} credits${tail(ctx.view, wins * e.value, step.meter)}`, step.meter);
        await ctx.view.meterSettled({ fast: ctx.fast });
      }
    },
    jars: async (e, ctx) => {
      const counts: Record<Jar, number> = { wild: e.wild, free_spins: e.free_spins, jackpots: e.jackpots };
      const candies = JARS.flatMap((j) => (counts[j] > 0 ? symbolCells(state.grid, JAR_CANDY[j]) : []));
      if (candies.length) await ctx.view.highlight(candies, "", { fast: true });
      ctx.view.clearHighlight();
      await ctx.view.fillJars(counts, e.triggered ? JARS.filter((j) => counts[j] > 0) : [], { fast: ctx.fast });
    },
    free_spins_triggered: async (e, ctx) => {
      const mods = e.modifiers.filter(isJar);
      ctx.view.setModifiers(mods);
      ctx.view.setJackpots(mods.includes("jackpots"));
      ctx.view.sound("bigwin");
      // the FREE SPINS jar's extra spins are in `spins` already: say so ("+2" alone read as a
      // bonus on top, of nothing named)
      // on a line of its own (in the title "6 FREE SPINS (3 + 3 / EXTRA)" broke over two lines)
      const extra = e.extra_spins_at_start ? `\n${e.spins - e.extra_spins_at_start} + ${e.extra_spins_at_start} EXTRA` : "";
      // each modifier drawn comes in pictured with what it does: the card stays long enough to
      // read them (a tap or Space skips it, turbo shortens it)
      await ctx.view.banner(`${e.spins} FREE SPINS${extra}\n${mods.map((m) => JAR_NAMES[m]).join(" + ")}`, { ms: 1800 + 800 * Math.max(1, mods.length), fast: ctx.fast, moment: "fs-intro", modifiers: mods });
    },
    wilds_placed: async (e, ctx) => {
      state.wildsPending = { golden: e.golden_multiplier > 0 };
      // said under the grid while they land (a banner over the grid hid the wilds it named)
      ctx.view.setWinLine(wildsPlacedLine(e.count, e.golden_multiplier));
    },
    extra_free_spins: async (e, ctx) => {
      const cells = symbolCells(state.grid, "EXTRA");
      const counter = counterOf(ctx.outcome, ctx.spin);
      if (counter?.kind === "free") ctx.view.setCounter({ ...counter, of: e.spins_awarded });
      ctx.view.setExtra(e.toward_super_spin);
      await ctx.view.highlight(cells, `+${e.collected}`, { fast: ctx.fast });
      if (e.super_spins_awarded > 0) {
        ctx.view.sound("bigwin");
        await ctx.view.banner(e.super_spins_awarded > 1 ? `${e.super_spins_awarded} SUPER SPINS!` : "SUPER SPIN!", { ms: 1800, fast: ctx.fast, moment: "super" });
      }
    },
    jackpot: async (e, ctx) => {
      const cells = symbolCells(state.grid, e.jackpot);
      const step = stepAt(e, ctx.spin, ctx.outcome);
      ctx.view.setWin(step.meter);
      ctx.view.setWinLine(`${e.jackpot} JACKPOT pays ${formatCredits(e.win)} credits${tail(ctx.view, e.win, step.meter)}`, step.meter);
      ctx.view.sound("bigwin");
      if (cells.length) await ctx.view.highlight(cells, "", { fast: true });
      await ctx.view.jackpotWon(e.jackpot, e.win, e.multiplier, { fast: ctx.fast });
    },
  };

  return handlers;
}

/** Around each spin: the round's reset, the free / super spin counter, the spin's multiplied
 * win, and after the last spin the win cap and the bonus total (the outcome's `total_win`). */
export const candyHooks: SpinHooks<CandyView> = {
  beforeSpin: async (spin, ctx) => {
    ctx.view.setWinLine("");
    await ctx.view.setMultiplier(null);
    if (spin.index === 0) {
      ctx.view.resetRound();
      return;
    }
    // the round's modifiers are the outcome's, lit on every free spin (so a resumed round or a
    // replay starting anywhere shows them too)
    // the jars as the first spin filled them (a round resumed after a reload showed them empty)
    const jars = jarsOf(ctx.outcome);
    if (jars) ctx.view.showJars(jars.counts, jars.lit);
    const mods = modifiersOf(ctx.outcome);
    ctx.view.setModifiers(mods);
    ctx.view.setJackpots(mods.includes("jackpots"));
    const counter = counterOf(ctx.outcome, spin);
    ctx.view.setCounter(counter);
    // the count is the counter's beside the jars alone (the console's SPINS said it a second
    // time, and missed the extra spins the counter adds as they land)
    if (spin.kind === "super") await ctx.view.banner("SUPER SPIN", { ms: 900, fast: ctx.fast });
  },
  afterSpin: async (spin, ctx) => {
    ctx.view.setWin(ctx.won);
    if (spin.multiplier > 1 && spin.win > 0) ctx.view.setWinLine(`Random multiplier x${spin.multiplier}: this spin pays ${formatCredits(spin.win)} credits${wordsTail(ctx.view, spin.win, ctx.won)}`, ctx.won);
    const last = ctx.outcome.spins[ctx.outcome.spins.length - 1];
    if (last?.index !== spin.index) return;
    const bonus = ctx.outcome.spins.length > 1;
    // the cap is claimed once the WIN meter reads the capped total, not while it counts to it
    if (ctx.outcome.win_capped) await ctx.view.meterSettled({ fast: ctx.fast });
    if (ctx.outcome.win_capped) await ctx.view.showCap(ctx.outcome.total_win, bonus, { fast: ctx.fast });
    if (bonus) {
      await ctx.view.showTotal(`FREE SPINS OVER\nTOTAL WIN ${ctx.view.money(ctx.outcome.total_win)}`, { fast: ctx.fast });
      ctx.view.setSpinInfo("");
    }
  },
};
