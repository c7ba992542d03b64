// The generic handlers: one for every event type of the Outcome schema, drawing plainly through
// the SlotView (land, highlight, a banner). No Pixi here, so they run against a fake view in
// the unit tests. A game module spreads them and replaces the ones it draws better.
import type { Cell, ClusterWinEvent, Outcome, OutcomeEvent, Spin } from "../../core/outcome";
import type { Handlers, SpinHooks } from "../../core/player";
import { formatCredits, formatMoney } from "../../core/money";
import { sleep, timeline } from "../../core/timing";
import type { GameView } from "../../net/types";
import { clusterCells, lineCells, symbolCells, waysCells } from "../../slot/paylines";
import { clusterCaption, creditsSaid, lineCaption, scatterCaption, waysCaption } from "./captions";
import { freeSpinsIntro, freeSpinsOutro, spinsAwardedAt, type FeatureMoment, type Purse } from "./feature-moments";
import { GRAND, holdCollectOf, holdInfoOf, holdStateAfter, holdStateAt, respinsLeftDuring, triggerWinOf, type HoldAndWinInfo, type HoldMeter } from "./hold-and-win";
import type { SlotView } from "./registry";

type Described = Pick<GameView, "info">;

function wildsOf(game: Described): Set<string> {
  return new Set(game.info.symbols.filter((s) => s.role === "wild" || s.id.includes("WILD")).map((s) => s.id));
}

/** The grid multipliers on the cells when `spin` starts: the last grid_multipliers event of the
 * round's earlier spins (marks last the round: through its free spins, never into the next
 * round), or null (none yet, or the round's first spin). */
export function gridMultipliersBefore(outcome: Pick<Outcome, "spins">, spin: Spin): number[][] | null {
  let cells: number[][] | null = null;
  for (const s of outcome.spins) {
    if (s === spin || s.index >= spin.index) break;
    for (const e of s.events) if (e.type === "grid_multipliers") cells = e.cells;
  }
  return cells;
}

/** The grid multipliers on the cells after spin `index` of the round (a recovered round's
 * screen), or null. */
export function gridMultipliersAfter(outcome: Pick<Outcome, "spins">, index: number): number[][] | null {
  let cells: number[][] | null = null;
  for (const s of outcome.spins) {
    if (s.index > index) break;
    for (const e of s.events) if (e.type === "grid_multipliers") cells = e.cells;
  }
  return cells;
}

/** The grid multiplier a cluster win was paid at (1: none): its place among the cluster wins of
 * its tumble in that tumble's grid_multipliers event's `applied`. */
export function gridMultiplierOf(spin: Pick<Spin, "events">, win: ClusterWinEvent): number {
  const at = spin.events.indexOf(win);
  const marks = spin.events.find((e, i) => i > at && e.type === "grid_multipliers" && e.tumble === win.tumble);
  if (!marks || marks.type !== "grid_multipliers") return 1;
  const k = spin.events.slice(0, at).filter((e) => e.type === "cluster_win" && e.tumble === win.tumble).length;
  return marks.applied[k] ?? 1;
}

/** The window a spin lands on: what landed, the reels a sticky wild held before the spin (its
 * held sticky_wild events) showing the wild on every row. */
export function withHeldWilds(symbols: string[][], spin: Pick<Spin, "events">): string[][] {
  const held = new Map<number, string>();
  for (const e of spin.events) if (e.type === "sticky_wild" && e.held) held.set(e.reel, e.symbol);
  if (!held.size) return symbols;
  return symbols.map((col, r) => (held.has(r) ? col.map(() => held.get(r)!) : col));
}

function scatterCells(game: Described, screen: string[][]): Cell[] {
  const scatters = new Set(game.info.symbols.filter((s) => s.role === "scatter").map((s) => s.id));
  const cells: Cell[] = [];
  screen.forEach((col, r) => col.forEach((id, w) => { if (scatters.has(id)) cells.push([r, w]); }));
  return cells;
}

/** A feature's moment over the reels where the view draws moments, else its words in a banner
 * (a fake view, a view of its own without moments). */
async function playMoment(view: SlotView, m: FeatureMoment, fast: boolean): Promise<void> {
  if (view.featureMoment) return view.featureMoment(m, { fast });
  const amount = m.total === undefined ? [] : [formatCredits(m.total)];
  await view.banner([m.title, ...amount, ...m.lines].join(" · "), { ms: 1600, fast });
}

/** The spin hooks of a game without its own: a feature spin's count in the console ("Free spin 3
 * of 10", of the spins awarded so far), and after the round's last feature spin its outro (the
 * feature's total, for a bought round against its price, in the money of `purse`). */
export function genericHooks(purse: Purse & Partial<Pick<GameView, "info">> = {}): SpinHooks<SlotView> {
  const hold = purse.info ? holdInfoOf({ info: purse.info }) : undefined;
  if (hold) return holdHooks(hold, purse);
  return {
    beforeSpin: (spin, ctx) => {
      if (spin.kind === "base") return;
      const kin = ctx.outcome.spins.filter((s) => s.kind === spin.kind && s.index <= spin.index).length;
      const awarded = spinsAwardedAt(ctx.outcome, spin);
      const name = `${spin.kind.charAt(0).toUpperCase()}${spin.kind.slice(1)} spin ${kin}`;
      ctx.view.setSpinInfo(spin.kind === "free" && awarded >= kin ? `${name} of ${awarded}` : name);
    },
    afterSpin: async (spin, ctx) => {
      const spins = ctx.outcome.spins;
      if (spin.kind === "base" || spin !== spins[spins.length - 1]) return;
      const outro = freeSpinsOutro(ctx.outcome, purse);
      if (!outro) return;
      ctx.view.sound("feature");
      await playMoment(ctx.view, outro, ctx.fast);
      ctx.view.setSpinInfo("");
    },
  };
}

/** Hold-and-win's meter (respins left, the coins' total), or its words in the spin counter line
 * where the view has no meter. */
function showHoldMeter(view: SlotView, state: HoldMeter): void {
  if (view.holdMeter) view.holdMeter(state);
  else view.setSpinInfo(state.base && state.won !== undefined
    ? `Total ${formatCredits(state.total)} + ${state.base.name.toLowerCase()} ${formatCredits(state.base.win)} = win ${formatCredits(state.won)}`
    : `Respins left ${state.respinsLeft} · Total ${formatCredits(state.total)}`);
}

/** The least time a respin takes, from its start to the next one's (ms): long enough to see
 * where a coin lands and read its value. Turbo shortens it to RESPIN_FAST_MS, never to nothing
 * (a playtest's turbo feature of about eight respins was over in about 4 s, its coins a blur). */
export const RESPIN_MS = 1200;
export const RESPIN_FAST_MS = 800;

/** The feature's closing words that reconcile its total with the round's win: "550 + WAYS WIN
 * 4 = WIN 554" where the trigger spin won too (every figure the outcome's); the cap's words
 * where the round was capped; null where the coins are the whole win. */
export function holdSumLine(outcome: Pick<Outcome, "spins" | "total_win" | "win_capped">, feature: number): string | null {
  const base = triggerWinOf(outcome);
  // where it wraps (a phone), the round's win stays one piece: "= WIN 554"
  if (base && feature + base.win === outcome.total_win) return `${formatCredits(feature)} + ${base.name} ${formatCredits(base.win)} =\u00a0WIN\u00a0${formatCredits(outcome.total_win)}`;
  if (outcome.win_capped) return `WIN ${formatCredits(outcome.total_win)}: the round's cap`;
  return null;
}

/** Hold-and-win's spin hooks: each respin starts on the coins locked so far, held still, with
 * one respin used; after the last, the collect moment with the feature's total (the outcome's
 * collection and jackpots, which the coins' sum is checked against). */
function holdHooks(info: HoldAndWinInfo, purse: Purse): SpinHooks<SlotView> {
  let respin = timeline(); // from the respin's start: its least time (RESPIN_MS)
  return {
    beforeSpin: async (spin, ctx) => {
      if (spin.kind !== "bonus") return;
      respin = timeline();
      const state = holdStateAfter(ctx.outcome, info, spin.index - 1);
      await ctx.view.holdCoins?.(state.coins);
      showHoldMeter(ctx.view, { ...state, respinsLeft: respinsLeftDuring(ctx.outcome, info, spin) });
    },
    afterSpin: async (spin, ctx) => {
      if (spin.kind === "bonus") await respin.at(ctx.fast ? RESPIN_FAST_MS : RESPIN_MS);
      const spins = ctx.outcome.spins;
      if (spin.kind === "base" || spin !== spins[spins.length - 1]) return;
      const collect = holdCollectOf(ctx.outcome, info);
      if (!collect) return;
      if (!collect.adds_up) console.warn(`reelforge: the coins add up to ${collect.coins} + ${collect.grand}, the round paid ${collect.total} for them`);
      const denomination = ctx.outcome.bet.denomination ?? purse.denomination;
      const money = (c: number) => (purse.currency && denomination ? formatMoney(c * denomination, purse.currency) : `${formatCredits(c)} credits`);
      const coins = holdStateAfter(ctx.outcome, info, spin.index).coins.length;
      const lines = [money(collect.total), collect.grand ? `${coins} coins ${formatCredits(collect.coins)} + GRAND ${formatCredits(collect.grand)}` : `${coins} coins collected`];
      // the trigger spin's win, in the WIN meter since before the respins, named beside it
      const sum = holdSumLine(ctx.outcome, collect.total);
      if (sum) lines.push(sum);
      ctx.view.sound("feature");
      ctx.view.clearHighlight(); // every coin counts toward it, none lit apart
      await playMoment(ctx.view, { kind: "hw-collect", title: "HOLD & WIN TOTAL", total: collect.total, lines }, ctx.fast);
      // the WIN meter takes the feature's total as the moment ends (it counted up to it); the
      // meter under the reels keeps saying how the coins' total and the trigger's win make it
      ctx.view.setWin(ctx.won);
      const base = triggerWinOf(ctx.outcome);
      const summed = !!base && collect.total + base.win === ctx.outcome.total_win;
      if (summed) showHoldMeter(ctx.view, { respinsLeft: 0, respins: info.respins, total: collect.total, grand: collect.grand || undefined, base, won: ctx.outcome.total_win });
      if (!summed || ctx.view.holdMeter) ctx.view.setSpinInfo("");
    },
  };
}

/** Hold-and-win's handlers over the generic ones: the trigger's intro, each coin locked with
 * its value (the meter's total rising, the respins back to full), the collection and the
 * jackpots lit on their coins. The respins land without anticipation (`window`). */
function holdHandlers(info: HoldAndWinInfo): Partial<Handlers<SlotView>> {
  return {
    bonus: async (e, ctx) => {
      ctx.view.sound("feature");
      const lines = [`${e.trigger_count} COINS LOCKED`, `${info.respins} RESPINS`, "EACH NEW COIN RESETS THEM"];
      // what the trigger spin paid is in the WIN meter already: named, not left to puzzle over
      const base = triggerWinOf(ctx.outcome);
      if (base) lines.push(`ALREADY WON: ${base.name} ${formatCredits(base.win)}`);
      await playMoment(ctx.view, { kind: "hw-intro", title: "HOLD & WIN", lines }, ctx.fast);
      showHoldMeter(ctx.view, { respinsLeft: info.respins, respins: info.respins, total: 0 });
    },
    cash: async (e, ctx) => {
      const state = holdStateAt(ctx.outcome, info, ctx.spin, ctx.spin.events.indexOf(e));
      const coin = state.coins[state.coins.length - 1];
      // the coin's value on the screen first, then the total that counts it (never before it)
      await ctx.view.holdCoins?.(state.coins, coin ? [coin] : []);
      showHoldMeter(ctx.view, state);
      ctx.view.sound("stop");
      // the trigger's coins lock in a quick run; a coin a respin lands is given a beat
      await sleep(ctx.fast ? 40 : ctx.spin.kind === "base" ? 160 : 380);
    },
    // the coins' pay and the jackpots are lit on their coins; the WIN meter takes them after
    // the collect moment (afterSpin), which counts up to their total
    collection: async (e, ctx) => {
      ctx.view.sound("win");
      const coins = holdStateAfter(ctx.outcome, info, ctx.spin.index).coins.filter((c) => !c.jackpot);
      await ctx.view.highlight(coins.map((c) => c.cell), `${coins.length} COINS PAY ${creditsSaid(e.win)}`, { fast: ctx.fast });
    },
    jackpot: async (e, ctx) => {
      ctx.view.sound("feature");
      const state = holdStateAfter(ctx.outcome, info, ctx.spin.index);
      if (e.jackpot === GRAND) {
        showHoldMeter(ctx.view, { ...state, respinsLeft: 0, total: state.total + e.win, grand: e.win });
        await ctx.view.highlight(state.coins.map((c) => c.cell), `FULL SCREEN: GRAND PAYS ${creditsSaid(e.win)}`, { fast: ctx.fast });
      } else {
        const cells = state.coins.filter((c) => c.jackpot === e.jackpot).map((c) => c.cell);
        await ctx.view.highlight(cells, `${e.jackpot.toUpperCase()} JACKPOT PAYS ${creditsSaid(e.win)}`, { fast: ctx.fast });
      }
    },
  };
}

const marked = new WeakMap<object, boolean>();
function hasMarks(outcome: Outcome): boolean {
  let known = marked.get(outcome);
  if (known === undefined) marked.set(outcome, known = outcome.spins.some((s) => s.events.some((e) => e.type === "grid_multipliers")));
  return known;
}

/** A plain handler for every event type of the Outcome schema. */
export function genericHandlers(game: Described & Purse): Required<Handlers<SlotView>> {
  const paylines = game.info.paylines ?? [];
  const wilds = wildsOf(game);
  // the game file's name for a symbol (Emerald, 10), as its tile and the paytable show it
  const nameOf = (id: string) => game.info.symbols.find((s) => s.id === id)?.name || id;
  const hold = holdInfoOf(game);
  const simple = (text: (e: never) => string, sfx?: "feature") => async (e: OutcomeEvent, ctx: { view: SlotView; fast: boolean }) => {
    if (sfx) ctx.view.sound(sfx);
    await ctx.view.banner(text(e as never), { ms: 900, fast: ctx.fast });
  };
  const plain: Required<Handlers<SlotView>> = {
    // reels a sticky wild holds land on it (their wild and badge are drawn by sticky_wild).
    // A bonus spin (a hold-and-win respin) is the feature itself: its window holds the locked
    // prizes, which met the trigger already, so no reel slows for it (every respin dragged
    // about 5 s: a round of a dozen respins ran past a minute, PLAY held off all that time).
    window: async (e, ctx) => { await ctx.view.land(withHeldWilds(e.symbols, ctx.spin), { fast: ctx.fast, anticipate: ctx.spin.kind !== "bonus" }); },
    grid: async (e, ctx) => {
      // a spin starts on the round's marks so far (none on its first spin; a resumed round's)
      if (e.tumble === 0 && hasMarks(ctx.outcome)) ctx.view.setCellMultipliers?.(gridMultipliersBefore(ctx.outcome, ctx.spin));
      if (e.tumble === 0) await ctx.view.land(e.symbols, { fast: ctx.fast });
      else await ctx.view.tumble(e.symbols, { fast: ctx.fast });
    },
    line_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      await ctx.view.highlight(lineCells(paylines, e.line, e.count), lineCaption(e, nameOf), { fast: ctx.fast, line: lineCells(paylines, e.line, paylines[e.line - 1]?.length ?? e.count) });
    },
    ways_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      const cells = waysCells(ctx.view.current(), e.symbol, e.count, wilds);
      await ctx.view.highlight(cells, waysCaption(e, nameOf), { fast: ctx.fast });
    },
    scatter_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      await ctx.view.highlight(symbolCells(ctx.view.current(), e.symbol), scatterCaption(e, nameOf), { fast: ctx.fast });
    },
    cluster_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      const cells = clusterCells(ctx.view.current(), e.symbol, e.size, wilds)[0] ?? symbolCells(ctx.view.current(), e.symbol);
      // the grid multiplier it was paid at (the sum of its cells' marks) is named
      await ctx.view.highlight(cells, clusterCaption(e, nameOf, gridMultiplierOf(ctx.spin, e)), { fast: ctx.fast });
    },
    // the tumble's wins marked their cells: each cell's badge appears at its first win, grows
    grid_multipliers: (e, ctx) => { ctx.view.setCellMultipliers?.(e.cells); },
    progressive_jackpot: simple((e: { count: number; symbol: string }) => `JACKPOT! ${e.count} x ${e.symbol}`),
    cash: async (e, ctx) => { await ctx.view.highlight([[e.reel, e.row]], `${e.value}x`, { fast: true }); },
    collection: async (e, ctx) => { ctx.view.setWin(ctx.won); await ctx.view.banner(`Collected ${e.values}x${e.multiplier > 1 ? ` x${e.multiplier}` : ""}: pays ${creditsSaid(e.win)}`, { fast: ctx.fast }); },
    trail: async (e, ctx) => { ctx.view.setSpinInfo(`Robber ${e.robber} - Cop ${e.cop}`); },
    parade: simple((e: { result: string }) => `ID parade: ${e.result}`),
    // a game module names its own bonus (Cops n Robbers: BIG MONEY BONUS); generic: the count
    bonus: simple((e: { trigger_count: number; start_multiplier: number }) => `BONUS: ${e.trigger_count} symbols${e.start_multiplier > 1 ? ` x${e.start_multiplier}` : ""}`, "feature"),
    // the scatters that award them lit and counted (a retrigger's spins said as added), then
    // the free spins' intro as they start (triggered here, or bought: the round opens on it)
    free_spins_award: async (e, ctx) => {
      ctx.view.sound("feature");
      const intro = freeSpinsIntro(e, ctx.spin, ctx.outcome, game);
      if (!intro || ctx.spin.kind === "base") {
        const text = `${e.trigger_count} SCATTERS: ${ctx.spin.kind === "base" ? "" : "+"}${e.spins_awarded} FREE SPINS`;
        const cells = scatterCells(game, ctx.view.current());
        if (cells.length) await ctx.view.highlight(cells, text, { fast: ctx.fast });
        else await ctx.view.banner(text, { ms: 900, fast: ctx.fast });
      }
      if (intro) await playMoment(ctx.view, intro, ctx.fast);
    },
    random_multiplier: simple((e: { value: number }) => `Multiplier x${e.value}`),
    wilds_placed: simple((e: { count: number }) => `${e.count} wilds placed`),
    jars: async (e, ctx) => { if (e.triggered) await ctx.view.banner("Jars full: FREE SPINS", { fast: ctx.fast }); },
    free_spins_triggered: async (e, ctx) => {
      ctx.view.sound("feature");
      const intro = freeSpinsIntro(e, ctx.spin, ctx.outcome, game);
      if (intro) await playMoment(ctx.view, intro, ctx.fast);
      else await ctx.view.banner(`${e.spins} FREE SPINS ${e.modifiers.join(" + ").toUpperCase()}`, { ms: 900, fast: ctx.fast });
    },
    extra_free_spins: simple((e: { spins_awarded: number }) => `+${e.spins_awarded} free spins`),
    // a wild's drawn multiplier, drawn on its cell until the reels spin again
    wild_multiplier: async (e, ctx) => { ctx.view.markCell?.([e.reel, e.row], `x${e.value}`); },
    // a reel a wild fills in the free spins: its rows turn wild under its multiplier's badge; a
    // reel filling now is announced, one held from an earlier spin is just drawn again
    sticky_wild: async (e, ctx) => {
      ctx.view.expandReel?.(e.reel, e.symbol, `x${e.value}`, e.held);
      if (!e.held) await ctx.view.banner(`WILD REEL ${e.reel + 1} x${e.value}`, { ms: 800, fast: ctx.fast });
    },
    jackpot: async (e, ctx) => { ctx.view.setWin(ctx.won); await ctx.view.banner(`${e.jackpot.toUpperCase()} JACKPOT pays ${creditsSaid(e.win)}`, { fast: ctx.fast }); },
  };
  // a hold-and-win game (its description's hold_and_win): its feature drawn as such
  return hold ? { ...plain, ...holdHandlers(hold) } as Required<Handlers<SlotView>> : plain;
}
