// The jackpot ladder's amounts: each fixed jackpot pays a multiple of the total bet. The
// multiples are the server's (the game description), never the client's: `info.jackpots` when
// the description carries them, else the information pages' jackpot list, whose numbers the
// server fills in from the game file ("**MINI**: 2 symbols collected = 10x total bet.").
import { formatCredits } from "../../core/money";
import type { BetOption, GameInfo, HelpPart } from "../../net/types";

export interface JackpotFigure { name: string; pays_x: number }

type Described = Pick<GameInfo, "help"> & { jackpots?: JackpotFigure[] };

const TIMES_BET = /=\s*([\d,]+)x total bet/;

/** Jackpot name -> its multiple of the total bet, as the server describes it; names it does
 * not describe are absent. */
export function jackpotMultiples(info: Described): Map<string, number> {
  const out = new Map<string, number>();
  if (info.jackpots?.length) {
    for (const j of info.jackpots) out.set(j.name, j.pays_x);
    return out;
  }
  const section = info.help?.sections.find((s) => s.id === "jackpots");
  for (const block of section?.blocks ?? []) {
    if (block.kind !== "ul") continue;
    for (const item of block.items) {
      const name = nameOf(item[0]);
      const times = TIMES_BET.exec(item.slice(1).map(textOf).join(""));
      if (name && times) out.set(name, Number(times[1]!.replace(/,/g, "")));
    }
  }
  return out;
}

function nameOf(part: HelpPart | undefined): string | null {
  return part && typeof part === "object" && "strong" in part ? part.strong : null;
}

function textOf(part: HelpPart): string {
  return typeof part === "string" ? part : "strong" in part ? part.strong : "";
}

/** Each jackpot's amount at `bet`, in minor units: its multiple x the total bet (the stake in
 * credits x the denomination). */
export function ladderAmounts(multiples: ReadonlyMap<string, number>, bet: Pick<BetOption, "stake_credits">, denomination: number): Map<string, number> {
  return new Map([...multiples].map(([name, x]) => [name, x * bet.stake_credits * denomination]));
}

/** A jackpot's moment in words: its title, the win counted up in credits (`amount`), then its
 * money and the multiplier that grew it (the pill on the ladder reads money: the moment's bare
 * "200" read as another amount beside "€2.00"), and its coin's caption: the jackpot's multiple of
 * the total bet, the server's (`multiple`; none where it gave none). */
export function jackpotMoment(name: string, win: number, multiplier: number, said: { money: string; multiple: number | null }):
  { title: string; amount: (credits: number) => string; lines: string[]; item: { name: string; line: string } } {
  return {
    title: `${name} JACKPOT`,
    amount: (credits) => `${formatCredits(credits)} credits`,
    lines: [`${said.money}${multiplier > 1 ? ` · with the x${multiplier} multiplier` : ""}`],
    item: { name, line: said.multiple === null ? "" : `${said.multiple.toLocaleString("en")}× the total bet` },
  };
}

const COLLECT = /^\s*:?\s*(\d+)\s+(?:\w+\s+)?symbols? collected/i;

/** Jackpot name -> how many of its symbols win it, as the information pages' jackpot list says
 * ("**MINI**: 2 symbols collected = ..."); names the pages do not say are absent. */
export function jackpotCollects(info: Pick<GameInfo, "help">): Map<string, number> {
  const out = new Map<string, number>();
  const section = info.help?.sections.find((s) => s.id === "jackpots");
  for (const block of section?.blocks ?? []) {
    if (block.kind !== "ul") continue;
    for (const item of block.items) {
      const name = nameOf(item[0]);
      const m = COLLECT.exec(item.slice(1).map(textOf).join(""));
      if (name && m) out.set(name, Number(m[1]));
    }
  }
  return out;
}
