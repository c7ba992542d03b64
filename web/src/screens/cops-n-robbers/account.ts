// Cops n Robbers Big Money Christmas' plain account of a stored round (the history page): line
// wins (mixed presents named as such), the presents' cash values and the robber collecting them
// at the trail's multiplier, the Big Money bonus and its trail (where the robber and the cop
// stand after each bonus spin), the ID parade, the bonus total, and the choices after the round:
// the cash and bonus wheels of the gamble (a bonus won on the wheel told spin by spin) and Spin
// Chance. Amounts are the events' and the steps' own: a present's `value` (x the stake), a
// collection's `values`, `multiplier` and `win`, a wheel step's state and `paid_credits`.
import { formatCredits } from "../../core/money";
import { validateOutcome } from "../../core/outcome";
import type { GameView, RoundView } from "../../net/types";
import type { AccountLine } from "../game/registry";
import {
  capitalised, credits, genericSpinName, genericWords, GENERIC_CHOICES, listed, outcomeAccount, plural, roundAccount, stateOf, symbolNamer,
  type ChoiceWords, type OutcomeWords, type StepWords,
} from "../history/account";
import { robbersAt } from "./handlers";

const BONUS_NAMES: Record<number, string> = { 1: "Big Money Bonus", 2: "Super Big Money Bonus", 3: "Mega Big Money Bonus" };
const PARADE: Record<string, string> = { bert: "Bert: the bonus ends", sid: "Sid: the cop is pushed back", vic: "Vic: the robber runs ahead" };

function bonusName(start: number): string {
  return BONUS_NAMES[start] ?? `the bonus at x${start}`;
}

function outcomeWords(game: GameView | undefined, mode: string): OutcomeWords {
  const name = symbolNamer(game);
  const modeTitle = mode === "base" ? null : (game?.modes.find((m) => m.name === mode)?.title ?? capitalised(mode));
  return {
    spinName: (spin, outcome) => {
      if (spin.kind === "bonus") return `Bonus spin ${spin.index}`;
      const plain = genericSpinName(spin, outcome);
      return modeTitle ? `${plain} (${modeTitle})` : plain;
    },
    events: {
      line_win: (e) => `Line ${e.line}: ${e.symbol === "PRESENTS" ? `${e.count} mixed presents` : `${e.count} ${name(e.symbol)}`}${e.multiplier > 1 ? ` at x${e.multiplier}` : ""} — ${credits(e.win)}`,
      cash: (_e, { spin, index }) => {
        if (index > 0 && spin.events[index - 1]?.type === "cash") return null;
        const values: string[] = [];
        for (const e of spin.events.slice(index)) {
          if (e.type !== "cash") break;
          values.push(`${e.value}x`);
        }
        return `${values.length === 1 ? "A present shows" : `${values.length} presents show`} ${listed(values)} the stake`;
      },
      collection: (e, { spin, index }) => {
        const presents = spin.events.slice(0, index).filter((x) => x.type === "cash").length;
        const who = e.collectors > 1 ? `${e.collectors} robbers` : "the robber";
        // robbers stepping onto different multipliers each collect at their own (collectionLabel)
        const each = robbersAt(e, spin);
        const times = each ? `, ${each}` : e.multiplier > 1 ? `, x${e.multiplier}` : "";
        return `Cash collected by ${who}: ${plural(presents, "present")}, ${e.values}x the stake${times} — ${credits(e.win)}`;
      },
      bonus: (e) => `${e.trigger_count} ${name("BONUS")}: the ${bonusName(e.start_multiplier)} starts at x${e.start_multiplier}`,
      trail: (e) => {
        const landed = [e.robbers ? plural(e.robbers, "robber") : "", e.cops ? plural(e.cops, "cop") : ""].filter(Boolean);
        return `Trail: ${landed.length ? `${listed(landed)} landed; ` : ""}the robber is on ${e.robber}, the cop on ${e.cop}`;
      },
      parade: (e) => {
        const what = PARADE[e.result] ?? capitalised(e.result);
        return `The cop catches the robber. ID parade — ${what}${e.result === "bert" ? "" : ` (robber on ${e.robber}, cop on ${e.cop})`}`;
      },
    },
    closing: (outcome) => (outcome.spins.some((s) => s.kind === "bonus")
      ? [`Bonus total: ${credits(outcome.breakdown.bonus ?? 0)} in ${plural(outcome.counters.bonus_spins, "bonus spin")}`]
      : []),
  };
}

const num = (x: unknown): number | null => (typeof x === "number" ? x : null);

/** The wheel gamble: a lower amount at stake (the rest banked), a cash wheel spin, a bonus wheel
 * spin, COLLECT; the step's state says what was won. */
const wheelWords: StepWords = (step, before, start) => {
  const s = stateOf(step);
  const choice = Array.isArray(step.choice) ? step.choice : [step.choice];
  const [kind, arg] = choice;
  const was = before ? num(before.amount) : start;
  const amount = num(s.amount) ?? 0, collected = num(s.collected) ?? 0;
  const paid = num(step.result.paid_credits);
  const lines: string[] = [];
  if (kind === "amount") lines.push(`Gambled ${credits(amount)} of it: ${credits(collected)} banked`);
  else if (kind === "cash") {
    lines.push(amount > 0
      ? `Cash wheel — won${was === null ? "" : ` (${formatCredits(was)} → ${credits(amount)})`}`
      : `Cash wheel — lost${was === null ? "" : `: ${credits(was)} lost`}`);
  } else if (kind === "bonus") {
    const won = num(s.bonus_won);
    lines.push(won !== null ? `Bonus wheel — won the ${bonusName(won)}` : `Bonus wheel — lost${was === null ? "" : `: ${credits(was)} lost`}`);
  } else if (kind === "collect") {
    return [paid === null ? "Collected" : `Collected: ${credits(paid)}`];
  } else lines.push(`Chose ${choice.join(" ")}`);
  if (step.result.finished === true && paid !== null) lines.push(paid > 0 ? `The gamble ends: ${credits(paid)} paid` : "The gamble ends: nothing paid");
  return lines;
};

export function copsAccount(round: RoundView, game: GameView | undefined): AccountLine[] {
  const mode = round.outcome?.bet.mode ?? round.bet.mode;
  const words = outcomeWords(game, mode);
  const fallback = genericWords(game);
  const choices: Record<string, ChoiceWords> = { ...GENERIC_CHOICES, wheel_gamble: { title: "Gamble: the wheels", words: wheelWords } };
  const lines = roundAccount(round, words, fallback, choices);
  // A bonus won on the bonus wheel is played by the server after the step: its own spins.
  for (const step of round.steps) {
    const bonus = step.result.bonus_outcome;
    if (!bonus) continue;
    const outcome = validateOutcome(bonus);
    lines.push({ text: "The bonus won on the wheel", heading: true });
    for (const line of outcomeAccount(outcome, { ...outcomeWords(game, "base"), spinName: (spin) => (spin.kind === "bonus" ? `Bonus spin ${spin.index}` : "Bonus") }, fallback)) {
      lines.push({ text: line.text, heading: line.heading });
    }
  }
  return lines;
}
