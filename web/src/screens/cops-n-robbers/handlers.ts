// Cops n Robbers' outcome events, each drawn through CopsView (no Pixi here: the unit tests
// play the real fixtures against a fake view). Every amount shown is the event's or the
// outcome's own: a line's `win`, a present's `value` (x stake), a collection's `win`, the
// bonus total from the outcome's `breakdown`, the capped win from `total_win`.
import { creditsAndMoney, creditsMoney, formatCredits } from "../../core/money";
import type { Cell, CollectionEvent, Outcome, Spin } from "../../core/outcome";
import type { Handlers, SpinHooks } from "../../core/player";
import type { GameView } from "../../net/types";
import { lineCells } from "../../slot/paylines";
import { genericHandlers } from "../game/handlers";
import type { SlotView } from "../game/registry";

/** Where the trail's multipliers stand (`[features.trail_bonus]` of cops-n-robbers-v1.toml:
 * 24 positions, 1x below 6). Drawing only: the server's events carry every multiplier paid
 * (a collection's `multiplier`); the game description does not carry the trail yet. */
export const TRAIL = { length: 24, marks: { 6: 2, 9: 3, 12: 4, 15: 6, 18: 8, 21: 10 } as Record<number, number> };

export const PARADE = ["bert", "sid", "vic"] as const;

/** The bonus's name by its starting multiplier (the rule sheet's three bonuses). */
export const BONUS_TITLES: Record<number, string> = { 1: "BIG MONEY BONUS", 2: "SUPER BIG MONEY BONUS", 3: "MEGA BIG MONEY BONUS" };

/** A present's cash value as the server drew it: its cell and the value, in stakes. */
export interface PresentValue { reel: number; row: number; value: number }

/** The values on the presents a spin shows: its `cash` events, one per present in view, in
 * the server's order (reel by reel, top to bottom). The server draws them wherever a robber can
 * collect (Fortune Spins and the bonus); the normal base game draws none, so it has none to
 * show. The handlers draw them all as the reels land, before the line wins, so every present
 * carries its value for as long as it is on screen. */
export function presentValues(spin: Pick<Spin, "events">): PresentValue[] {
  return spin.events.flatMap((e) => (e.type === "cash" ? [{ reel: e.reel, row: e.row, value: e.value }] : []));
}

/** The cells a collection lights (the prize display of Fortune Spins and the bonus): every
 * robber in view, the collector, and every present with a value; the rest of the window stays
 * as it landed, dimmed. Cells as [reel, row]. */
export function collectionCells(spin: Pick<Spin, "events">): Cell[] {
  const window = spin.events.filter((e) => e.type === "window").at(-1);
  const robbers: Cell[] = window ? window.symbols.flatMap((column, reel) => column.flatMap((id, row): Cell[] => (id === "ROBBER" ? [[reel, row]] : []))) : [];
  return [...robbers, ...presentValues(spin).map((p): Cell => [p.reel, p.row])];
}

/** The cells of the BONUS symbols in the spin's last window: what triggered the bonus, lit (and
 * left uncovered) while its intro shows. */
export function bonusCells(spin: Pick<Spin, "events">): Cell[] {
  const window = spin.events.filter((e) => e.type === "window").at(-1);
  return window ? window.symbols.flatMap((column, reel) => column.flatMap((id, row): Cell[] => (id === "BONUS" ? [[reel, row]] : []))) : [];
}

/** The trail's own multiplier at `position`: its last mark at or before it, 1 before the first. */
export function trailMultiplier(position: number): number {
  let m = 1;
  for (const [at, x] of Object.entries(TRAIL.marks)) if (Number(at) <= position) m = x;
  return m;
}

/** Each robber's multiplier in a bonus spin's collection, in the order they step: each Robber
 * moves the robber one step and collects there, at that step's multiplier times the bonus's start
 * (RULES.md; kernel.py's chase). From the spin's trail event, the robber's position after them;
 * null without one (Fortune Spins) or at the trail's end, where a step may not have moved him. */
export function robberMultipliers(e: CollectionEvent, spin?: Pick<Spin, "events">): number[] | null {
  const trail = spin?.events.find((x) => x.type === "trail");
  if (trail?.type !== "trail" || trail.robber >= TRAIL.length - 1) return null;
  const start = e.multiplier / trailMultiplier(trail.robber);
  const steps = Array.from({ length: e.collectors }, (_, i) => trail.robber - e.collectors + 1 + i);
  if (!Number.isInteger(start) || (steps[0] ?? -1) < 0) return null;
  return steps.map((p) => trailMultiplier(p) * start);
}

/** "at x2 and x4": the multipliers robbers collected at where they differ, else null. */
export function robbersAt(e: CollectionEvent, spin?: Pick<Spin, "events">): string | null {
  const each = e.collectors > 1 ? robberMultipliers(e, spin) : null;
  return each && new Set(each).size > 1 ? `at ${each.slice(0, -1).map((m) => `x${m}`).join(", ")} and x${each.at(-1)}` : null;
}

/** A collection in a player's words, the same while it plays and in the win cycle after the
 * round: "Robber collects 12x stake: 6,000" (the presents' values in stakes, the trail's
 * multiplier, the server's `win`). Robbers that step onto different multipliers each say theirs:
 * "2 robbers collect 25x stake at x2 and x4: 1,500" (the gallery read "25x stake x4: 1,500",
 * which 2 x 25 x 4 stakes is not). */
export function collectionLabel(e: CollectionEvent, money?: (credits: number) => string, spin?: Pick<Spin, "events">): string {
  const who = e.collectors > 1 ? `${e.collectors} robbers collect` : "Robber collects";
  const each = robbersAt(e, spin);
  const times = each ? ` ${each}` : e.multiplier > 1 ? ` x${e.multiplier}` : "";
  return `${who} ${e.values}x stake${times}: ${creditsAndMoney(e.win, money)}`;
}

/** How long (ms) the bonus's intro and outro stand, a tap or Space ending either sooner. The
 * intro's title and three lines take a few seconds to read (the gallery never caught its 2.4 s
 * card, and turbo's 300 ms flashed it past unread): 4.5 s, 2 s in turbo, where the player asked
 * for speed but still learns which bonus started and what ends it. The outro's total is the
 * bonus's payoff: 2.8 s, 2 s in turbo. */
export function copsMomentMs(kind: CopsMoment["kind"], fast: boolean): number {
  if (kind === "bonus-intro") return fast ? 2000 : 4500;
  return fast ? 2000 : 2800;
}

/** The bonus's intro ("bonus-intro") and outro ("bonus-outro"). */
export interface CopsMoment { title: string; lines?: string[]; count?: number; kind: "bonus-intro" | "bonus-outro" }

/** What the Cops n Robbers handlers need beyond a SlotView. Each animation resolves. */
export interface CopsView extends SlotView {
  /** Each present shows its value (in stakes) on its cell, until clearValues. */
  showValues(values: readonly PresentValue[]): void;
  /** The robbers collect every value shown: `cells` (the robbers and the presents) are lit
   * over the dimmed window, the values flash, the amount is shown; the values stay on their
   * presents. */
  collect(label: string, options?: { fast?: boolean; cells?: readonly Cell[]; credits?: number; multiplier?: number }): Promise<void>;
  /** The next spin: the values leave with the presents. */
  clearValues(): void;
  /** The trail above the reels: shown from the bonus trigger, hidden in the base game. */
  trailShow(startMultiplier: number): void;
  trailMove(robber: number, cop: number, options?: { fast?: boolean }): Promise<void>;
  trailHide(): void;
  /** The bonus's own scene (its street, lights and frame) while `on`; off, the base game's. */
  bonusScene(on: boolean): void;
  /** A feature's intro or outro (ui/moment.ts); `count` in credits, from the outcome; `cells`
   * lit on the reels while it shows (the symbols that triggered it: the intro stands clear of
   * them, cops.css). */
  moment(m: CopsMoment, options?: { fast?: boolean; cells?: readonly Cell[] }): Promise<void>;
  /** The ID parade: the dapple runs over Bert, Sid and Vic and stops on `result`. */
  parade(result: string, options?: { fast?: boolean }): Promise<void>;
  /** The mode chosen or played (base, fortune): Fortune Spins' sign in place of the presents'. */
  modeShown?(mode: string): void;
  /** The strips that spin by from now: the game's reel set `name` (base, fortune, bonus), so a
   * Fortune spin runs over blanks and presents, not over the cards it cannot land on. */
  reelSet?(name: string): void;
}

function isBonusRound(outcome: Outcome): boolean {
  return outcome.spins.some((s) => s.kind === "bonus");
}

/** The console's SPINS field in the bonus: the spin's number alone, "6" (at 1440x900 "BONUS
 * SPIN 13" wrapped under the SPINS label onto a second row beside the balance and the win; the
 * trail over the reels says it is the bonus). No total: the bonus runs until the cop catches
 * the robber (the sheet's BIG MONEY BONUS), which the player learns on the trail as it happens;
 * a total, though known to the outcome, would tell them the chase's end before it. */
export function bonusSpinLabel(spin: Pick<Spin, "index">): string {
  return `${spin.index}`;
}

/** What started the bonus, for its intro: the Bonus symbols the paid spin showed, or, where
 * it shows none (`trigger_count` 0: `play_bonus` writes the chase alone), the gamble's bonus
 * wheel, the only other way into it. */
export function bonusCause(triggerCount: number): string {
  return triggerCount > 0 ? `${triggerCount} Bonus symbols` : "Won on the bonus wheel";
}

export function copsHandlers(game: Pick<GameView, "info"> & Partial<Pick<GameView, "denomination" | "currency">>): Handlers<SlotView> {
  const generic = genericHandlers(game);
  const money = creditsMoney(game);
  const paylines = game.info.paylines ?? [];
  const nameOf = (id: string) => game.info.symbols.find((s) => s.id === id)?.name || id;
  const v = (view: SlotView) => view as CopsView;
  return {
    ...generic,
    window: async (e, ctx) => {
      v(ctx.view).clearValues();
      // Turbo snaps the bonus spins' reels to their stops; otherwise every window lands.
      if (ctx.fast && ctx.spin.kind === "bonus") ctx.view.show(e.symbols);
      else await ctx.view.land(e.symbols, { fast: ctx.fast || ctx.spin.kind === "bonus" });
      v(ctx.view).showValues(presentValues(ctx.spin));
    },
    line_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      // the game file's name for the symbol, as the paytable and the info page say it (the
      // playtest read MONEYBAG here and "Money bag" there)
      const what = e.symbol === "PRESENTS" ? `${e.count} mixed presents` : `${e.count} x ${nameOf(e.symbol)}`;
      await ctx.view.highlight(lineCells(paylines, e.line, e.count), `Line ${e.line}: ${what} pays ${creditsAndMoney(e.win, money)}`, { fast: ctx.fast, line: lineCells(paylines, e.line, paylines[e.line - 1]?.length ?? e.count) });
      ctx.view.clearHighlight();
    },
    // drawn with the window (presentValues): nothing left to do
    cash: () => {},
    collection: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      await v(ctx.view).collect(collectionLabel(e, money, ctx.spin), { fast: ctx.fast, cells: collectionCells(ctx.spin), credits: e.win, multiplier: e.multiplier });
    },
    bonus: async (e, ctx) => {
      // the bonus's own look from its intro on, until its outro has been shown (copsHooks)
      v(ctx.view).bonusScene(true);
      v(ctx.view).trailShow(e.start_multiplier);
      // what started it and what ends it, before the first bonus spin (skippable: a tap or
      // Space, as every moment); never the number of spins, which would give the chase away
      await v(ctx.view).moment({
        title: BONUS_TITLES[e.start_multiplier] ?? "BIG MONEY BONUS",
        lines: [`${bonusCause(e.trigger_count)} · Trail multiplier x${e.start_multiplier}`, "Robbers collect the presents", "Bonus spins until the cop catches the robber"],
        kind: "bonus-intro",
      }, { fast: ctx.fast, cells: bonusCells(ctx.spin) });
    },
    trail: async (e, ctx) => {
      // the count only: the trail over the reels shows where the robber and the cop are, and
      // the console's SPINS field keeps one row beside the meters
      ctx.view.setSpinInfo(bonusSpinLabel(ctx.spin));
      await v(ctx.view).trailMove(e.robber, e.cop, { fast: ctx.fast });
    },
    parade: async (e, ctx) => {
      await ctx.view.banner("The robber is caught! ID PARADE", { ms: 1000, fast: ctx.fast });
      await v(ctx.view).parade(e.result, { fast: ctx.fast });
      // the parade's card says what its pick means (view.ts); no banner over the reels after it
      await v(ctx.view).trailMove(e.robber, e.cop, { fast: ctx.fast });
    },
  };
}

/** The bonus's outro: the bonus's own total (`breakdown.bonus`: its line wins and collections,
 * all a bonus won on the wheel pays), and, where the paid spin won besides, the round's total
 * the win meter shows, so the two figures on screen are both named. */
export function bonusOutro(o: Pick<Outcome, "breakdown" | "total_win" | "win_capped">): CopsMoment {
  const bonus = o.win_capped ? o.total_win : (o.breakdown.bonus ?? o.total_win);
  const round = bonus === o.total_win ? [] : [`Round win ${formatCredits(o.total_win)}`];
  return { title: "BONUS TOTAL", count: bonus, lines: ["The robber is behind bars", ...round], kind: "bonus-outro" };
}

export function copsHooks(): SpinHooks<SlotView> {
  return {
    beforeSpin: (spin, ctx) => {
      // the reels run over the strips of the set the server spins: the bonus reels in the
      // bonus, the mode's (Fortune Spins: its own reels) in the base game
      v(ctx.view).reelSet?.(spin.kind === "bonus" ? "bonus" : ctx.outcome.bet.mode);
      // the base game's look on a base spin; the bonus's on a bonus spin (a round resumed in the
      // middle of its bonus plays no intro)
      if (spin.kind === "base") { v(ctx.view).trailHide(); v(ctx.view).bonusScene(false); ctx.view.setSpinInfo(""); }
      else { v(ctx.view).bonusScene(true); ctx.view.setSpinInfo(bonusSpinLabel(spin)); }
    },
    afterSpin: async (spin, ctx) => {
      const last = spin === ctx.outcome.spins[ctx.outcome.spins.length - 1];
      if (!last) return;
      const o = ctx.outcome;
      if (isBonusRound(o)) {
        await v(ctx.view).moment(bonusOutro(o), { fast: ctx.fast });
        // the bonus is over: its spin count and its scene leave with it
        ctx.view.setSpinInfo("");
        v(ctx.view).bonusScene(false);
      }
      if (o.win_capped) {
        await ctx.view.banner(`MAXIMUM WIN REACHED: ${formatCredits(o.total_win)} paid`, { ms: 2500, fast: ctx.fast });
      }
    },
  };
}

function v(view: SlotView): CopsView {
  return view as CopsView;
}
