// Cops n Robbers' plain account (screens/cops-n-robbers/account.ts) over the real fixtures: every
// round of cops-n-robbers.json and cops-n-robbers-features.json (line wins with mixed presents,
// presents collected in the base game, Fortune Spins and the bonus at the trail's multiplier, the
// trail, the ID parade's Bert, Sid and Vic), and the steps of history-steps.json (wheel gambles:
// an amount lowered, a cash spin won and lost, a bonus wheel won with the bonus the server
// played, and lost; Spin Chance played won, played lost, declined). The expected lines are built
// here from the fixtures' events and steps.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Offer } from "../../src/net/types";
import { copsAccount } from "../../src/screens/cops-n-robbers/account";
import { fixture, type FixtureRound } from "./fixtures";
import { credits, gameOf, roundOf, stepOf, texts } from "./history-fixtures";

const here = dirname(fileURLToPath(import.meta.url));
const read = (f: string) => JSON.parse(readFileSync(join(here, "..", "fixtures", f), "utf8"));
const base = fixture("cops-n-robbers");
const features = read("cops-n-robbers-features.json") as { rounds: FixtureRound[] };
interface StepFixture { name: string; amount?: number; steps: { kind: string; choice: unknown; result: Record<string, unknown> }[] }
const steps = read("history-steps.json") as { stake: number; wheel_gambles: StepFixture[]; spin_chances: StepFixture[] };
const game = gameOf("cops-n-robbers", base.info, [{ name: "base", title: "Base game", price: 1 }, { name: "fortune", title: "Fortune Spins", price: 2 }]);
const name = new Map(base.info.symbols.map((s) => [s.id, s.name]));

interface Ev { type: string; [k: string]: unknown }
interface Sp { index: number; kind: string; multiplier: number; win: number; events: Ev[] }
interface Oc { bet: { mode: string }; spins: Sp[]; total_win: number; breakdown: Record<string, number>; counters: { bonus_spins: number }; win_capped: boolean }

// The sheet: 3 bonus symbols start the Big Money Bonus at 1x, 4 the Super Big Money Bonus at 2x,
// 5 the Mega Big Money Bonus at 3x.
const BONUSES: Record<number, string> = { 1: "Big Money Bonus", 2: "Super Big Money Bonus", 3: "Mega Big Money Bonus" };
const PARADE: Record<string, string> = { bert: "Bert: the bonus ends", sid: "Sid: the cop is pushed back", vic: "Vic: the robber runs ahead" };
const s = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
const and = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}` : xs.join(""));

function expected(o: Oc): string[] {
  const out: string[] = [];
  let bases = 0;
  for (const spin of o.spins) {
    const title = spin.kind === "bonus" ? `Bonus spin ${spin.index}` : `Spin${o.spins.filter((x) => x.kind === "base").length > 1 ? ` ${++bases}` : ""}${o.bet.mode === "fortune" ? " (Fortune Spins)" : ""}`;
    out.push(`# ${title} — ${spin.win ? credits(spin.win) : "no win"}`);
    let presents: number[] = [];
    let seen = 0;
    spin.events.forEach((e, i) => {
      if (e.type === "cash") {
        presents.push(e.value as number);
        seen++;
        if (spin.events[i + 1]?.type !== "cash") {
          out.push(`${presents.length === 1 ? "A present shows" : `${presents.length} presents show`} ${and(presents.map((v) => `${v}x`))} the stake`);
          presents = [];
        }
        return;
      }
      switch (e.type) {
        case "window": return;
        case "line_win": out.push(`Line ${e.line}: ${e.count} ${e.symbol === "PRESENTS" ? "mixed presents" : name.get(e.symbol as string)}${(e.multiplier as number) > 1 ? ` at x${e.multiplier}` : ""} — ${credits(e.win as number)}`); return;
        case "collection": out.push(`Cash collected by ${(e.collectors as number) > 1 ? `${e.collectors} robbers` : "the robber"}: ${s(seen, "present")}, ${e.values}x the stake${(e.multiplier as number) > 1 ? `, x${e.multiplier}` : ""} — ${credits(e.win as number)}`); return;
        case "bonus": out.push(`${e.trigger_count} Bonus: the ${BONUSES[e.start_multiplier as number]} starts at x${e.start_multiplier}`); return;
        case "trail": {
          const landed = [(e.robbers as number) ? s(e.robbers as number, "robber") : "", (e.cops as number) ? s(e.cops as number, "cop") : ""].filter(Boolean);
          out.push(`Trail: ${landed.length ? `${and(landed)} landed; ` : ""}the robber is on ${e.robber}, the cop on ${e.cop}`);
          return;
        }
        case "parade": out.push(`The cop catches the robber. ID parade — ${PARADE[e.result as string]}${e.result === "bert" ? "" : ` (robber on ${e.robber}, cop on ${e.cop})`}`); return;
        default: throw new Error(`event ${e.type}: not one Cops n Robbers sends`);
      }
    });
  }
  if (o.spins.some((x) => x.kind === "bonus")) out.push(`Bonus total: ${credits(o.breakdown.bonus ?? 0)} in ${s(o.counters.bonus_spins, "bonus spin")}`);
  if (o.win_capped) throw new Error("a capped round: this test does not build its line");
  out.push(`Total win: ${o.total_win ? credits(o.total_win) : "no win"}`);
  return out;
}

const rounds = [...base.rounds, ...features.rounds];

describe("Cops n Robbers' account of a round", () => {
  it.each(rounds.map((r) => [r.kind, r] as const))("%s: presents, collections, the trail, the parade", (_kind, r) => {
    expect(texts(copsAccount(roundOf(r.outcome), game))).toEqual(expected(r.outcome as unknown as Oc));
  });

  it("tells each of Bert, Sid and Vic in the fixtures", () => {
    const all = rounds.flatMap((r) => texts(copsAccount(roundOf(r.outcome), game)));
    for (const who of ["Bert", "Sid", "Vic"]) expect(all.some((l) => l.includes(`ID parade — ${who}: `))).toBe(true);
    expect(all.some((l) => /^Cash collected by the robber: \d+ presents?, \d+x the stake, x\d+ — /.test(l))).toBe(true);
  });
});

describe("the choices after a Cops n Robbers round", () => {
  const offer = (kind: string, amount: number): Offer => ({ kind, amount, stake: steps.stake, denomination: 1, limits: {}, payback: "1" });

  it.each(steps.wheel_gambles.map((g) => [g.name, g] as const))("wheel gamble %s", (_name, g) => {
    const views = g.steps.map((x, i) => stepOf(i, x.kind, x.choice, x.result));
    const lines = texts(copsAccount(roundOf(null, { offers: [offer("wheel_gamble", g.amount!)], steps: views }), game));
    const want = ["# Gamble: the wheels"];
    let before = g.amount!;
    for (const x of g.steps) {
      const st = x.result.state as { amount: number; collected: number; bonus_won: number | null };
      const [kind] = x.choice as [string];
      const paid = x.result.paid_credits as number | undefined;
      if (kind === "collect") { want.push(`Collected: ${credits(paid!)}`); continue; }
      if (kind === "amount") want.push(`Gambled ${credits(st.amount)} of it: ${credits(st.collected)} banked`);
      if (kind === "cash") want.push(st.amount > 0 ? `Cash wheel — won (${before.toLocaleString("en")} → ${credits(st.amount)})` : `Cash wheel — lost: ${credits(before)} lost`);
      if (kind === "bonus") want.push(st.bonus_won !== null ? `Bonus wheel — won the ${BONUSES[st.bonus_won]}` : `Bonus wheel — lost: ${credits(before)} lost`);
      if (x.result.finished === true && paid !== undefined) want.push(paid > 0 ? `The gamble ends: ${credits(paid)} paid` : "The gamble ends: nothing paid");
      before = st.amount;
    }
    const bonus = g.steps.at(-1)!.result.bonus_outcome as Oc | undefined;
    if (bonus) {
      // the bonus the server played for the wheel: its spins after the gamble
      expect(lines.slice(0, want.length)).toEqual(want);
      const rest = lines.slice(want.length);
      expect(rest[0]).toBe("# The bonus won on the wheel");
      const spins = rest.filter((l) => l.startsWith("# Bonus spin "));
      expect(spins.length).toBe(bonus.spins.filter((x) => x.kind === "bonus").length);
      expect(rest.at(-1)).toBe(`Total win: ${bonus.total_win ? credits(bonus.total_win) : "no win"}`);
    } else expect(lines).toEqual(want);
  });

  it.each(steps.spin_chances.map((g) => [g.name, g] as const))("Spin Chance %s", (_name, g) => {
    const views = g.steps.map((x, i) => stepOf(i, x.kind, x.choice, x.result));
    const lines = texts(copsAccount(roundOf(null, { steps: views }), game));
    const st = g.steps[0]!.result.state as { credit: number; stake: number; played: boolean; won: boolean };
    const line = !st.played ? `Declined: ${credits(st.credit)} kept`
      : `Played ${credits(st.credit)} for a spin costing ${credits(st.stake)} — ${st.won ? "won: the spin is played as the next round" : "not won"}`;
    expect(lines).toEqual(["# Spin Chance", line]);
  });
});
