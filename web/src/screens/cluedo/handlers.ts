// Cluedo's outcome events, each drawn through CluedoView (no Pixi here: the unit tests play
// the real fixtures against a fake view). Every amount shown is the server's: a line's `win`
// and `multiplier` (the MegaJackpots wild's x2 and the free spins' x3 already in it), a
// scatter's `win`, the spins awarded and the bonus's running total of spins from
// `free_spins_award`, the bonus total from the outcome's `breakdown.free_games`, the jackpot
// claim from the round view's `jackpot_claim`.
import { formatCredits, formatMoney } from "../../core/money";
import type { LineWinEvent, Outcome, Spin } from "../../core/outcome";
import type { Handlers, SpinHooks } from "../../core/player";
import { WIN_CYCLE_SUMMARY_OVER, linesSummary, type WinCycle } from "../../core/win-cycle";
import type { GameView, RoundView } from "../../net/types";
import { lineCells, symbolCells } from "../../slot/paylines";
import { genericHandlers } from "../game/handlers";
import type { SlotView } from "../game/registry";
import type { MomentOptions } from "../../ui/moment";

/** What the Cluedo handlers need beyond a SlotView. Every animation resolves. */
export interface CluedoView extends SlotView {
  /** The Mystery Bonus triggers: the lights go out, lightning strikes. */
  lightsOut(options?: { fast?: boolean }): Promise<void>;
  /** The secret golden reels of the free spins (true) or the mansion's base reels (false). */
  golden(on: boolean): void;
  /** The free-spin counter: spin `index` of `total` (the bonus's spins so far); null hides it. */
  freeSpins(counter: { index: number; total: number } | null): void;
  /** The free spins' total, shown where the counter was until the next round, with the
   * trigger spin's win and the sum (WIN's figure) where it paid too. */
  bonusTotal(credits: number, trigger?: number): void;
  /** The meter bar's BET: credits bet on the last/current proposition. */
  setBet(credits: number): void;
  /** A feature's moment over the reels (ui/moment.ts): intro, retrigger, outro. */
  moment(options: MomentOptions): Promise<void>;
  /** The jackpot's line has played: the notice that follows opens with its full-screen moment. */
  jackpotWon(options?: { fast?: boolean }): void;
  /** The jackpot-win notice, after the win's moment where its line has just played; resolves
   * once it is up. PLAY waits for its OK. */
  jackpotNotice(notice: JackpotNotice): Promise<void>;
}

export interface JackpotNotice {
  amount: string;
  /** The claim's amount in minor units of `currency` (the moment counts up to it). */
  amountMinor: number;
  currency: string;
  status: string;
  lines: string[];
}

const NAMES: Record<string, string> = {
  MJ: "MegaJackpots", BONUS: "Mystery Bonus", SCARLET: "Miss Scarlet", MUSTARD: "Colonel Mustard", PLUM: "Professor Plum",
  PEACOCK: "Mrs Peacock", GREEN: "Reverend Green", CANDLESTICK: "Candlestick", DAGGER: "Dagger", REVOLVER: "Revolver", ROPE: "Rope", WRENCH: "Wrench",
};

export function symbolName(id: string): string {
  return NAMES[id] ?? id;
}

/** A line win's label: the line, what it is, the server's multiplier split into the wild's and
 * the spin's (the spin's `multiplier` is the free spins' x3; what is left is the wild's x2). */
export function lineLabel(e: LineWinEvent, spin: Pick<Spin, "multiplier">): string {
  const parts: string[] = [];
  const wild = spin.multiplier > 0 ? e.multiplier / spin.multiplier : e.multiplier;
  if (wild > 1 && e.symbol !== "MJ") parts.push(`WILD x${wild}`);
  if (spin.multiplier > 1 && e.multiplier >= spin.multiplier) parts.push(`FREE SPIN x${spin.multiplier}`);
  return `Line ${e.line}: ${e.count} x ${symbolName(e.symbol)}${parts.length ? ` (${parts.join(", ")})` : ""} pays ${formatCredits(e.win)}`;
}

/** Spins awarded to the bonus so far, before `spin` plays (the server's running total). */
export function spinsAwardedBefore(outcome: Outcome, spin: Spin): number {
  let total = 0;
  for (const s of outcome.spins) {
    if (s.index >= spin.index) break;
    for (const e of s.events) if (e.type === "free_spins_award") total = e.total_awarded;
  }
  return total;
}

/** The free spins' multiplier, the server's (its free spins' `multiplier`); 1 without any. */
function freeMultiplier(outcome: Outcome): number {
  return outcome.spins.find((s) => s.kind === "free")?.multiplier ?? 1;
}

/** The bonus's two full-screen scenes, ms at play speed and in turbo. Turbo keeps them on
 * screen (a tap still ends them): its 300 ms moment flashed the Mystery Bonus and the free
 * spins' total past unseen (the gallery's reviewer found neither). */
export const SCENE = { intro: { ms: 3400, turbo: 1500 }, outro: { ms: 4200, turbo: 2200 } } as const;

/** A scene's `ms` and `fast` for MomentOptions: turbo's own length, never the 300 ms flash. */
export function sceneTime(scene: { ms: number; turbo: number }, fast: boolean): { ms: number; fast: false } {
  return { ms: fast ? scene.turbo : scene.ms, fast: false };
}

function v(view: SlotView): CluedoView {
  return view as CluedoView;
}

export function cluedoHandlers(game: Pick<GameView, "info">): Handlers<SlotView> {
  const generic = genericHandlers(game);
  const paylines = game.info.paylines ?? [];
  return {
    ...generic,
    window: async (e, ctx) => {
      ctx.view.clearHighlight();
      // Turbo snaps the free spins' reels to their stops; otherwise every window lands.
      if (ctx.fast && ctx.spin.kind === "free") ctx.view.show(e.symbols);
      else await ctx.view.land(e.symbols, { fast: ctx.fast || ctx.spin.kind === "free" });
    },
    line_win: async (e, ctx) => {
      // Many lines in one spin are told at once, all lit under one summary: a playtest's
      // MegaJackpot round showed its 19 lines one by one for half a minute before the jackpot.
      // (The cycle after the round still shows each line.)
      const lines = ctx.spin.events.filter((x): x is LineWinEvent => x.type === "line_win");
      if (lines.length > WIN_CYCLE_SUMMARY_OVER) {
        if (e !== lines[0]) return; // told with the first
        const total = lines.reduce((n, x) => n + x.win, 0);
        ctx.view.setWin(ctx.won - e.win + total);
        ctx.view.sound("win");
        const cells = lines.flatMap((x) => lineCells(paylines, x.line, x.count));
        await ctx.view.highlight(cells, linesSummary(lines.length, total), { fast: ctx.fast });
        return;
      }
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      await ctx.view.highlight(lineCells(paylines, e.line, e.count), lineLabel(e, ctx.spin), { fast: ctx.fast, line: lineCells(paylines, e.line, paylines[e.line - 1]?.length ?? e.count) });
    },
    scatter_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      const times = ctx.spin.multiplier > 1 ? ` (FREE SPIN x${ctx.spin.multiplier})` : "";
      await ctx.view.highlight(symbolCells(ctx.view.current(), e.symbol), `${e.count} x Mystery Bonus${times} pays ${formatCredits(e.win)}`, { fast: ctx.fast });
    },
    free_spins_award: async (e, ctx) => {
      const view = v(ctx.view);
      if (ctx.spin.kind === "base") {
        await view.lightsOut({ fast: ctx.fast });
        view.golden(true);
        // the free spins' multiplier is the server's (its free spins' `multiplier`)
        const times = freeMultiplier(ctx.outcome);
        await view.moment({
          kind: "fs-intro", title: "MYSTERY BONUS", ...sceneTime(SCENE.intro, ctx.fast),
          lines: [`${e.spins_awarded} FREE SPINS`, ...(times > 1 ? [`ALL WINS x${times}`] : []), "on the secret golden reels"],
        });
        return;
      }
      view.freeSpins({ index: ctx.spin.index, total: e.total_awarded });
      view.setSpinInfo(`${ctx.spin.index} of ${e.total_awarded}`);
      const line = e.spins_awarded < e.spins_requested ? `the bonus is at its maximum of ${e.total_awarded}` : `${e.total_awarded} free spins in all`;
      await view.moment({ kind: "fs-retrigger", title: `+${e.spins_awarded} FREE SPINS`, lines: [line], ms: 1600, fast: ctx.fast });
    },
    progressive_jackpot: async (e, ctx) => {
      ctx.view.sound("bigwin");
      await ctx.view.highlight(lineCells(paylines, e.line, e.count), `MEGAJACKPOT! ${e.count} x MegaJackpots on line ${e.line}`, { fast: ctx.fast });
      // the amount is the claim's, in the round view: the notice's moment shows it
      v(ctx.view).jackpotWon({ fast: ctx.fast });
    },
  };
}

export function cluedoHooks(): SpinHooks<SlotView> {
  return {
    beforeSpin: (spin, ctx) => {
      const view = v(ctx.view);
      view.setBet(ctx.outcome.bet.stake);
      if (spin.kind === "base") {
        view.golden(false);
        view.freeSpins(null);
        ctx.view.setSpinInfo("");
        return;
      }
      view.golden(true);
      const total = spinsAwardedBefore(ctx.outcome, spin);
      view.freeSpins({ index: spin.index, total });
      // short: the console's SPINS field keeps one row beside the meters (the counter over the
      // reels says FREE SPIN in full)
      ctx.view.setSpinInfo(`${spin.index} of ${total}`);
    },
    afterSpin: async (spin, ctx) => {
      const o = ctx.outcome;
      const last = spin === o.spins[o.spins.length - 1];
      if (!last || !o.spins.some((s) => s.kind === "free")) return;
      // "After the last free spin, if you had one or more winning outcomes in the bonus, the
      // total of all awards is displayed."
      // Once each: the free spins' total on the plaque, the round's on the WIN meter, how many
      // were played in the outro (the playtest read "BONUS TOTAL 900", SPINS "Total 900",
      // WIN 2,900 and the last spin's lines as four totals).
      const total = o.breakdown.free_games ?? 0;
      const played = o.counters.free_spins_played;
      v(ctx.view).golden(false);
      // The round is over: the SPINS plaque goes (the outro says how many were played). Left up
      // as "15 played" beside TAKE WIN & PLAY it wrapped onto a second row at 1440x900, the
      // console grew and the reels shrank (a new player's playtest).
      ctx.view.setSpinInfo("");
      if (total > 0) {
        const before = o.spins.filter((s) => s.kind === "base").reduce((n, s) => n + s.win, 0); // the trigger spin's
        v(ctx.view).bonusTotal(total, before);
        const times = freeMultiplier(o);
        await v(ctx.view).moment({
          kind: "fs-outro", title: "FREE SPINS TOTAL", ...sceneTime(SCENE.outro, ctx.fast),
          count: { to: total, format: (n) => `${formatCredits(n)} credits` },
          lines: [`${played} FREE SPINS PLAYED`, ...(times > 1 ? [`ALL WINS x${times}`] : []), ...(before > 0 ? [`+ ${formatCredits(before)} from the spin that triggered them: WIN ${formatCredits(o.total_win)}`] : [])],
        });
      } else v(ctx.view).freeSpins(null);
    },
  };
}

/** A win cycle's heading as the last free spin's (`win`: that spin's, the server's): each
 * line's own words cycle under it. */
export function lastFreeSpin(cycle: WinCycle, win: number): WinCycle {
  return { ...cycle, summary: `Last free spin${cycle.summary ? `: ${cycle.summary}` : ` pays ${formatCredits(win)}`}` };
}

const STATUS: Record<string, string> = { pending_verification: "pending verification" };

/** The notice of the seed's jackpot win, from the round view's `jackpot_claim` alone: its
 * amount in currency, its status, its instalments as the server planned them. */
export function jackpotNotice(round: Pick<RoundView, "jackpot_claim" | "currency">): JackpotNotice | null {
  const claim = round.jackpot_claim as { amount_minor?: number; status?: string; instalments?: { due: string; amount_minor: number }[] } | null;
  if (!claim || typeof claim.amount_minor !== "number") return null;
  const money = (m: number) => formatMoney(m, round.currency);
  const plan = claim.instalments ?? [];
  const lines = [
    "Customer service will contact you within 24 hours with details of your Jackpot payout.",
    "The award verification may take up to 72 hours, and the win is not reflected in your account balance. You may continue to play or use the gamble feature: it will not affect your jackpot.",
  ];
  const first = plan[0];
  if (first) {
    const rest = plan.slice(1);
    const same = rest.length > 0 && rest.every((p) => p.amount_minor === rest[0]?.amount_minor);
    lines.push(`Paid in ${plan.length} instalments: ${money(first.amount_minor)} ${first.due}` +
      (rest.length ? (same ? `, then ${rest.length} annual instalments of ${money(rest[0]?.amount_minor ?? 0)}` : `, then ${rest.map((p) => `${money(p.amount_minor)} ${p.due}`).join(", ")}`) : "") + ".");
  }
  return { amount: money(claim.amount_minor), amountMinor: claim.amount_minor, currency: round.currency, status: STATUS[claim.status ?? ""] ?? String(claim.status ?? ""), lines };
}
