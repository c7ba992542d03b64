// The plain account of a stored round, in a player's words, for the history page: one heading
// per spin ("Free spin 3 of 15 — 30 credits") and a line for each thing that happened
// ("Line 7: 4 Dagger with the wild's x2 — 40 credits"), then the choices made after it (the
// gamble, the wheels, Spin Chance), then a jackpot claim. Every amount is the server's: an
// event's `win`, a spin's `win`, the outcome's `total_win` and `breakdown`, a step's state and
// `paid_credits`, the claim's `amount_minor`; nothing is computed here. Symbol names come from
// the game description's `info.symbols`.
//
// A game module words its own events (`GameModule.account`, screens/<game>/account.ts) with the
// builders below; `genericAccount` is the fallback for a game without one.
import { formatCredits, formatMoney } from "../../core/money";
import type { EventType, Outcome, OutcomeEvent, Spin } from "../../core/outcome";
import { validateOutcome } from "../../core/outcome";
import type { GameView, RoundView, StepView } from "../../net/types";
import type { AccountLine, GameModule } from "../game/registry";

export type { AccountLine };

/** "1 credit", "1,250 credits". */
export function credits(n: number): string {
  return `${formatCredits(n)} credit${n === 1 ? "" : "s"}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCredits(n)} ${n === 1 ? one : many}`;
}

export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Symbol id -> the name the game description gives it; an id it does not name is spelled out
 * ("PRESENT_RED" -> "Present red"). */
export function symbolNamer(game: Pick<GameView, "info"> | undefined): (id: string) => string {
  const names = new Map((game?.info.symbols ?? []).map((s) => [s.id, s.name]));
  return (id) => names.get(id) ?? capitalised(id.toLowerCase().replace(/_/g, " "));
}

/** Words for one event: a line, several, or nothing (a window lands: the screens show it). */
export type EventWords<E extends OutcomeEvent = OutcomeEvent> = (event: E, at: { spin: Spin; outcome: Outcome; index: number }) => string | string[] | null;

export type EventWordsTable = { [T in EventType]?: EventWords<Extract<OutcomeEvent, { type: T }>> };

export interface OutcomeWords {
  /** A spin's name ("Spin", "Free spin 3 of 15"); the heading adds its win. */
  spinName(spin: Spin, outcome: Outcome): string;
  events: EventWordsTable;
  /** Lines after the last spin (a bonus total), before the round's total. */
  closing?(outcome: Outcome): string[];
}

/** The cash values shown in a spin before `index` that a collection takes (presents, coins). */
export function cashBefore(spin: Spin, index: number): number {
  return spin.events.slice(0, index).filter((e) => e.type === "cash").length;
}

/** The run of cash events starting at `index` (each run is told once, at its first event). */
function cashRun(spin: Spin, index: number): number[] | null {
  if (index > 0 && spin.events[index - 1]?.type === "cash") return null;
  const values: number[] = [];
  for (const e of spin.events.slice(index)) {
    if (e.type !== "cash") break;
    values.push(e.value);
  }
  return values;
}

export function listed(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Plain words for every event type of the Outcome schema: what a game without its own account
 * shows, and what a game's account falls back on for the events it does not word itself. */
export function genericWords(game: Pick<GameView, "info"> | undefined): Required<EventWordsTable> {
  const name = symbolNamer(game);
  const times = (m: number) => (m > 1 ? ` at x${m}` : "");
  return {
    window: () => null,
    grid: (e) => (e.tumble > 0 ? `Tumble ${e.tumble}: ${plural(e.refilled, "new symbol")} fall in` : null),
    line_win: (e) => `Line ${e.line}: ${e.count} ${name(e.symbol)}${times(e.multiplier)} — ${credits(e.win)}`,
    ways_win: (e) => `${name(e.symbol)} on ${e.count} reels, ${plural(e.ways, "way")}${e.paid_ways !== e.ways ? ` (${e.paid_ways} with wild multipliers)` : ""} — ${credits(e.win)}`,
    scatter_win: (e) => `${e.count} ${name(e.symbol)}${times(e.multiplier)} — ${credits(e.win)}`,
    progressive_jackpot: (e) => `Jackpot: ${e.count} ${name(e.symbol)} on line ${e.line}`,
    cash: (_e, at) => {
      const run = cashRun(at.spin, at.index);
      return run ? `Cash values: ${listed(run.map((v) => `${v}x`))} the stake` : null;
    },
    collection: (e, at) => {
      const who = e.collectors > 1 ? `${e.collectors} collectors` : "the collector";
      return `Cash collected by ${who}: ${plural(cashBefore(at.spin, at.index), "value")}, ${e.values}x the stake${times(e.multiplier)} — ${credits(e.win)}`;
    },
    trail: (e) => `Trail: robber on ${e.robber}, cop on ${e.cop}`,
    parade: (e) => `ID parade: ${capitalised(e.result)}`,
    bonus: (e) => `${e.trigger_count} bonus symbols: the bonus starts at x${e.start_multiplier}`,
    // a buy mode's award: no scatter counted, the spins were bought with the round
    free_spins_award: (e) => e.trigger_count === 0 ? `Bought: ${plural(e.spins_awarded, "free spin")}`
      : `${e.trigger_count} scatters: ${plural(e.spins_awarded, "free spin")} (${formatCredits(e.total_awarded)} in all)`,
    cluster_win: (e) => `Cluster of ${e.size} ${name(e.symbol)}${e.wilds ? ` with ${plural(e.wilds, "wild")}` : ""}${e.wild_multiplier > 1 ? ` x${e.wild_multiplier}` : ""} — ${credits(e.win)}`,
    grid_multipliers: (e) => {
      const paid = e.applied.filter((m) => m > 1);
      return paid.length ? `Grid multipliers paid: ${listed(paid.map((m) => `x${m}`))}` : null;
    },
    random_multiplier: (e) => (e.value > 1 ? `Multiplier x${e.value} on the spin's wins` : null),
    wilds_placed: (e) => `${plural(e.count, "wild")} placed${e.golden_multiplier > 0 ? `, golden x${e.golden_multiplier}` : ""}`,
    jars: (e) => `Into the jars: ${e.wild} wild, ${e.free_spins} free spins, ${e.jackpots} jackpots${e.triggered ? ": free spins" : ""}`,
    free_spins_triggered: (e) => `${plural(e.spins, "free spin")}${e.modifiers.length ? ` with ${listed(e.modifiers.map((m) => m.replace(/_/g, " ")))}` : ""}`,
    extra_free_spins: (e) => `${plural(e.collected, "extra free spin symbol")}: ${plural(e.spins_awarded, "free spin")} in all`,
    wild_multiplier: (e) => `Wild on reel ${e.reel + 1}, row ${e.row + 1}: x${e.value}`,
    sticky_wild: (e) => `Reel ${e.reel + 1} wild x${e.value}${e.held ? "" : " (filled now)"}`,
    jackpot: (e) => `${capitalised(e.jackpot.toLowerCase())} jackpot${e.multiplier > 1 ? ` x${e.multiplier}` : ""} — ${credits(e.win)}`,
  };
}

/** The number of each kind of spin up to `spin` (the first free spin is 1). */
export function spinNumber(outcome: Outcome, spin: Spin): number {
  return outcome.spins.filter((s) => s.kind === spin.kind && s.index <= spin.index).length;
}

export function genericSpinName(spin: Spin, outcome: Outcome): string {
  const kinds = { base: "Spin", free: "Free spin", bonus: "Bonus spin", super: "Super spin" } as const;
  const several = outcome.spins.filter((s) => s.kind === spin.kind).length > 1;
  return several || spin.kind !== "base" ? `${kinds[spin.kind]} ${spinNumber(outcome, spin)}` : kinds[spin.kind];
}

/** Each spin's heading and lines, the closing lines, the cap and the round's total win. */
export function outcomeAccount(outcome: Outcome, words: OutcomeWords, fallback: Required<EventWordsTable>): AccountLine[] {
  const lines: AccountLine[] = [];
  for (const spin of outcome.spins) {
    lines.push({ text: `${words.spinName(spin, outcome)} — ${spin.win > 0 ? credits(spin.win) : "no win"}`, spin: spin.index, heading: true });
    spin.events.forEach((event, index) => {
      const say = (words.events[event.type] ?? fallback[event.type]) as EventWords;
      const said = say(event, { spin, outcome, index });
      for (const text of said === null ? [] : Array.isArray(said) ? said : [said]) lines.push({ text, spin: spin.index });
    });
  }
  const last = outcome.spins[outcome.spins.length - 1]?.index;
  for (const text of words.closing?.(outcome) ?? []) lines.push({ text, spin: last });
  if (outcome.win_capped) {
    const before = outcome.uncapped_win === null ? "" : ` (${credits(outcome.uncapped_win)} before the cap)`;
    lines.push({ text: `Maximum win reached: ${credits(outcome.total_win)} paid${before}`, spin: last });
  }
  lines.push({ text: `Total win: ${outcome.total_win > 0 ? credits(outcome.total_win) : "no win"}` });
  return lines;
}

/** Words for one step of a choice: `before` is the state the step started from (null for the
 * first step of the choice: then `start` is the amount the choice was offered on, if known). */
export type StepWords = (step: StepView, before: Record<string, unknown> | null, start: number | null) => string[];

const num = (x: unknown): number | null => (typeof x === "number" ? x : null);

export function stateOf(step: StepView): Record<string, unknown> {
  const s = step.result.state;
  return s && typeof s === "object" ? (s as Record<string, unknown>) : {};
}

export function paidOf(step: StepView): number | null {
  return num(step.result.paid_credits);
}

/** The red/black card gamble (engine/choices.py RedBlackGamble): a guess, TAKE HALF, COLLECT. */
export const redBlackWords: StepWords = (step, before, start) => {
  const s = stateOf(step);
  const amount = num(s.amount) ?? 0, banked = num(s.banked) ?? 0;
  const was = before ? num(before.amount) : start;
  const paid = paidOf(step);
  const lines: string[] = [];
  if (step.choice === "red" || step.choice === "black") {
    const card = String(s.last_card ?? "");
    if (card === step.choice) lines.push(`${capitalised(step.choice)} — won${was === null ? "" : ` (${formatCredits(was)} → ${credits(amount)})`}`);
    else lines.push(`${capitalised(step.choice)} — lost (the card was ${card})${was === null ? "" : `: ${credits(was)} lost`}`);
  } else if (step.choice === "half") {
    lines.push(`Took half: ${credits(banked)} banked, ${credits(amount)} still at stake`);
  } else if (step.choice === "collect") {
    lines.push(paid === null ? "Collected" : `Collected: ${credits(paid)}`);
    return lines;
  } else lines.push(`Chose ${JSON.stringify(step.choice)}`);
  if (step.result.finished === true && paid !== null) lines.push(paid > 0 ? `The gamble ends: ${credits(paid)} paid` : "The gamble ends: nothing paid");
  return lines;
};

/** Spin Chance: the credit left, wagered on one spin at the current bet, or kept. */
export const spinChanceWords: StepWords = (step) => {
  const s = stateOf(step);
  const credit = num(s.credit), stake = num(s.stake);
  if (step.choice === "decline" || s.played === false) return [`Declined${credit === null ? "" : `: ${credits(credit)} kept`}`];
  const what = `Played ${credit === null ? "the credit left" : credits(credit)} for a spin${stake === null ? "" : ` costing ${credits(stake)}`}`;
  return [`${what} — ${s.won === true ? "won: the spin is played as the next round" : "not won"}`];
};

/** A choice this page has no words for: its kind and what was chosen, plainly. */
export const unknownStepWords: StepWords = (step) => {
  const paid = paidOf(step);
  return [`Chose ${Array.isArray(step.choice) ? step.choice.join(" ") : String(step.choice)}${paid === null ? "" : `: ${credits(paid)} paid`}`];
};

export interface ChoiceWords {
  title: string;
  words: StepWords;
}

export const GENERIC_CHOICES: Record<string, ChoiceWords> = {
  gamble: { title: "Gamble", words: redBlackWords },
  spin_chance: { title: "Spin Chance", words: spinChanceWords },
};

/** The amount a choice of `kind` was offered on: the round's offer while it is open, else the
 * outcome's total win (a gamble stakes the round's win). */
export function offeredAmount(round: Pick<RoundView, "offers" | "outcome">, kind: string): number | null {
  const offer = round.offers.find((o) => o.kind === kind);
  if (offer) return offer.amount;
  return kind === "spin_chance" ? null : (round.outcome?.total_win ?? null);
}

/** The steps after the round: a heading for each choice played, a line (or more) per step. */
export function stepsAccount(round: Pick<RoundView, "steps" | "offers" | "outcome">, choices: Record<string, ChoiceWords> = GENERIC_CHOICES): AccountLine[] {
  const lines: AccountLine[] = [];
  let kind: string | null = null;
  let before: Record<string, unknown> | null = null;
  for (const step of round.steps) {
    const words = choices[step.kind] ?? GENERIC_CHOICES[step.kind];
    if (step.kind !== kind) {
      kind = step.kind;
      before = null;
      lines.push({ text: words?.title ?? capitalised(step.kind.replace(/_/g, " ")), heading: true });
    }
    for (const text of (words?.words ?? unknownStepWords)(step, before, before ? null : offeredAmount(round, step.kind))) lines.push({ text });
    before = stateOf(step);
    if (step.result.finished === true) kind = null;
  }
  return lines;
}

const CLAIM_STATUS: Record<string, string> = { pending_verification: "pending verification" };

/** A jackpot claim of the round: its amount in currency, its status, its instalments. */
export function claimAccount(round: Pick<RoundView, "jackpot_claim" | "currency">): AccountLine[] {
  const claim = round.jackpot_claim as { amount_minor?: unknown; status?: unknown; instalments?: unknown } | null;
  if (!claim || typeof claim.amount_minor !== "number") return [];
  const status = typeof claim.status === "string" ? (CLAIM_STATUS[claim.status] ?? claim.status.replace(/_/g, " ")) : null;
  const count = Array.isArray(claim.instalments) ? claim.instalments.length : 0;
  const about = [status, count > 1 ? `${count} instalments` : null].filter(Boolean).join(", ");
  return [{ text: `Jackpot won: ${formatMoney(claim.amount_minor, round.currency)}${about ? ` (${about})` : ""}` }];
}

/** A round's whole account: its outcome told with `words` (events it does not word: `fallback`),
 * the jackpot claim, then the choices after it. */
export function roundAccount(round: RoundView, words: OutcomeWords, fallback: Required<EventWordsTable>, choices: Record<string, ChoiceWords> = GENERIC_CHOICES): AccountLine[] {
  const outcome = round.outcome ? validateOutcome(round.outcome) : null;
  return [...(outcome ? outcomeAccount(outcome, words, fallback) : []), ...claimAccount(round), ...stepsAccount(round, choices)];
}

/** The account of a game without its own: plain words for every event, the generic choices. */
export function genericAccount(round: RoundView, game: GameView | undefined): AccountLine[] {
  return roundAccount(round, { spinName: genericSpinName, events: {} }, genericWords(game));
}

/** The round's account: its module's own, else the generic one. */
export function accountOf(round: RoundView, game: GameView | undefined, module: GameModule | undefined): AccountLine[] {
  return module?.account ? module.account(round, game) : genericAccount(round, game);
}
