// A hold-and-win round's state, read from its outcome alone (engine/holdwin_game.py): the coins
// locked so far with their values, the respins left, the coins' running total and, at the end,
// what the collection paid. No DOM, no Pixi: the handlers draw it through the SlotView and the
// unit tests read it from a served round. Beside it, the art of the game's coin and empty cell
// (data: drawing functions the symbol textures call).
//
// The outcome's `cash` events carry a coin's value in stakes (the game's prize table, `x`); a
// coin is worth that many of the round's stakes (`outcome.bet.stake`, credits), which is what
// the round's `collection` (plain coins) and `jackpot` events (named coins, a full screen) pay.
// The client adds those figures up and checks its sum against the outcome's; it decides nothing.
import type { Cell, JackpotEvent, Outcome, Spin } from "../../core/outcome";
import type { GameView } from "../../net/types";
import type { SymbolTable } from "../../render/symbols";

/** What the server says of a hold-and-win game (its game file's [hold] tables). */
export interface HoldAndWinInfo {
  prize: string;
  blank: string;
  trigger: number;
  respins: number;
  respin_prize_odds: [number, number];
  values: { x: number; weight: number; jackpot: string | null }[];
  grand_x: number;
}

export function holdInfoOf(game: Pick<GameView, "info">): HoldAndWinInfo | undefined {
  return (game.info as { hold_and_win?: HoldAndWinInfo }).hold_and_win;
}

/** A hold-and-win game's prize and empty cell, drawn as what they are: a gold coin, and a dim,
 * quiet slot (the generic tile drew the blank as a red "BLANK" tile that read as an error). */
export function holdArt(info: HoldAndWinInfo | undefined): SymbolTable {
  if (!info) return {};
  return {
    [info.blank]: {
      colour: 0x1c1433, label: "",
      draw: (g, s) => {
        g.roundRect(s * 0.06, s * 0.06, s * 0.88, s * 0.88, s * 0.14).fill({ color: 0x1c1433, alpha: 0.9 }).stroke({ width: Math.max(1, s * 0.012), color: 0x4a3d6e, alpha: 0.7 });
      },
    },
    [info.prize]: {
      colour: 0xe8a317, label: "",
      draw: (g, s) => {
        g.circle(s / 2, s / 2, s * 0.42).fill(0xb8860b).stroke({ width: s * 0.03, color: 0xfff2a8 });
        g.circle(s / 2, s / 2, s * 0.34).fill(0xf2c230).stroke({ width: s * 0.02, color: 0x9a6a00, alpha: 0.8 });
        g.ellipse(s * 0.42, s * 0.36, s * 0.14, s * 0.07).fill({ color: 0xffffff, alpha: 0.35 });
      },
    },
  };
}

/** A locked coin: its cell, its value in stakes (the cash event's), in credits, the named
 * jackpot it is (MINI, MAJOR) or null, and the spin it locked on. */
export interface HeldCoin {
  cell: Cell;
  value: number;
  credits: number;
  jackpot: string | null;
  spin: number;
}

/** The feature after a spin's events: the coins held, the respins left (the rules' count
 * again after a respin that landed a coin, one fewer after one that landed none), the coins'
 * running total in credits. */
export interface HoldState {
  coins: HeldCoin[];
  respinsLeft: number;
  respins: number;
  total: number;
  /** A full screen's prize, paid on top of the coins (in `total`); absent: none (yet). */
  grand?: number;
}

type Round = Pick<Outcome, "spins" | "bet">;

/** What the round won before its respins (the trigger spin's own wins, already in the WIN
 * meter as the coins lock), named as its events are: "LINE WIN", "WAYS WIN", else "SPIN WIN";
 * credits, the outcome's spin wins. */
export interface SpinWin {
  name: string;
  win: number;
}

/** The trigger spin's win (every spin before the respins), or null where it paid nothing. */
export function triggerWinOf(outcome: Pick<Outcome, "spins">): SpinWin | null {
  const before = outcome.spins.filter((s) => s.kind !== "bonus");
  const win = before.reduce((a, s) => a + s.win, 0);
  if (win <= 0) return null;
  const paying = new Set(before.flatMap((s) => s.events).filter((e) => "win" in e && e.win > 0).map((e) => e.type));
  const name = paying.size === 1 && paying.has("line_win") ? "LINE WIN" : paying.size === 1 && paying.has("ways_win") ? "WAYS WIN" : "SPIN WIN";
  return { name, win };
}

/** What the hold-and-win meter shows: the respins left (or a full screen's GRAND) and the
 * coins' running total; once the feature is collected, where the round also won on its
 * trigger spin, that win (`base`) and the round's (`won`), so the meter reconciles the coins'
 * total with the WIN meter ("TOTAL 550 + WAYS WIN 4 = WIN 554"). */
export type HoldMeter = Pick<HoldState, "respinsLeft" | "respins" | "total" | "grand"> & { base?: SpinWin; won?: number };

/** Whether the round plays the respins (its outcome has spins of kind "bonus"). */
export function hasRespins(outcome: Pick<Outcome, "spins">): boolean {
  return outcome.spins.some((s) => s.kind === "bonus");
}

function coinsOf(outcome: Round, info: HoldAndWinInfo, spin: Pick<Spin, "index" | "events">): HeldCoin[] {
  const named = new Map(info.values.filter((v) => v.jackpot).map((v) => [v.x, v.jackpot as string]));
  const coins: HeldCoin[] = [];
  for (const e of spin.events) {
    if (e.type !== "cash") continue;
    coins.push({ cell: [e.reel, e.row], value: e.value, credits: e.value * outcome.bet.stake, jackpot: named.get(e.value) ?? null, spin: spin.index });
  }
  return coins;
}

/** The feature's state after spin `index` of the round (all its events played); before the
 * trigger's coins lock (index < 0, or a round without respins): none held. */
export function holdStateAfter(outcome: Round, info: HoldAndWinInfo, index: number): HoldState {
  const state: HoldState = { coins: [], respinsLeft: info.respins, respins: info.respins, total: 0 };
  for (const s of outcome.spins) {
    if (s.index > index) break;
    const landed = coinsOf(outcome, info, s);
    if (s.kind === "bonus") state.respinsLeft = landed.length ? info.respins : state.respinsLeft - 1;
    state.coins.push(...landed);
  }
  state.respinsLeft = Math.max(0, state.respinsLeft);
  state.total = state.coins.reduce((a, c) => a + c.credits, 0);
  return state;
}

/** The respins left while respin `spin` turns (it has used one; a coin it lands gives them
 * all back). */
export function respinsLeftDuring(outcome: Round, info: HoldAndWinInfo, spin: Pick<Spin, "index">): number {
  return Math.max(0, holdStateAfter(outcome, info, spin.index - 1).respinsLeft - 1);
}

/** What the end of the feature paid, from its last spin's events: the plain coins' collection,
 * each jackpot (a named coin's, GRAND for a full screen), and their total, the feature's win. */
export interface HoldCollect {
  collection: number;
  jackpots: { name: string; win: number }[];
  total: number;
  /** The coins' sum (the running total) and the full screen's prize on top of it (0: none). */
  coins: number;
  grand: number;
  /** Whether the coins' sum and the prize on top add up to what the outcome paid. */
  adds_up: boolean;
}

export const GRAND = "GRAND";

export function holdCollectOf(outcome: Round, info: HoldAndWinInfo): HoldCollect | null {
  const last = outcome.spins[outcome.spins.length - 1];
  if (!last || last.kind !== "bonus") return null;
  let collection = 0;
  const jackpots: { name: string; win: number }[] = [];
  for (const e of last.events) {
    if (e.type === "collection") collection += e.win;
    if (e.type === "jackpot") jackpots.push({ name: (e as JackpotEvent).jackpot, win: e.win });
  }
  const total = collection + jackpots.reduce((a, j) => a + j.win, 0);
  const coins = holdStateAfter(outcome, info, last.index).total;
  const grand = jackpots.filter((j) => j.name === GRAND).reduce((a, j) => a + j.win, 0);
  return { collection, jackpots, total, coins, grand, adds_up: coins + grand === total };
}

/** The feature's state just after event `at` of `spin` (a cash event: the coin it locks held, a
 * respin's count back to full). */
export function holdStateAt(outcome: Round, info: HoldAndWinInfo, spin: Spin, at: number): HoldState {
  const state = holdStateAfter(outcome, info, spin.index - 1);
  const landed = coinsOf(outcome, info, { index: spin.index, events: spin.events.slice(0, at + 1) });
  if (spin.kind === "bonus" && landed.length) state.respinsLeft = info.respins;
  else if (spin.kind === "bonus") state.respinsLeft = Math.max(0, state.respinsLeft - 1);
  state.coins.push(...landed);
  state.total += landed.reduce((a, c) => a + c.credits, 0);
  return state;
}
