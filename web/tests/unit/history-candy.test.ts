// Candy Jar Clusters' plain account (screens/candy-jar-clusters/account.ts) over the real
// fixtures: every round of candy-jar-clusters.json and candy-jar-clusters-features.json (clusters
// with wilds and golden wilds, tumbles, random multipliers, the jars and Free Spins with their
// modifiers, EXTRA FREE SPIN symbols and super spins, the fixed jackpots, the win cap). The
// expected lines are built here from each fixture's events.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { candyAccount } from "../../src/screens/candy-jar-clusters/account";
import { fixture, type FixtureRound } from "./fixtures";
import { credits, gameOf, roundOf, texts } from "./history-fixtures";

const here = dirname(fileURLToPath(import.meta.url));
const base = fixture("candy-jar-clusters");
const features = JSON.parse(readFileSync(join(here, "..", "fixtures", "candy-jar-clusters-features.json"), "utf8")) as { rounds: FixtureRound[] };
const game = gameOf("candy-jar-clusters", base.info);
const name = new Map(base.info.symbols.map((s) => [s.id, s.name]));

interface Ev { type: string; [k: string]: unknown }
interface Sp { index: number; kind: string; multiplier: number; win: number; events: Ev[] }
interface Oc { spins: Sp[]; total_win: number; uncapped_win: number | null; win_capped: boolean; breakdown: Record<string, number>; counters: { free_spins_played: number; super_spins_played: number } }

const s = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
const and = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}` : xs.join(""));
// the sheet's modifiers: the yellow jar's WILDS, the red's FREE SPINS, the green's JACKPOTS
const MODIFIERS: Record<string, string> = { wild: "Wilds", free_spins: "Free Spins", jackpots: "Jackpots" };

function expected(o: Oc): string[] {
  const out: string[] = [];
  let free = 0, supers = 0, awarded = 0;
  for (const spin of o.spins) {
    if (spin.kind === "free") free++;
    if (spin.kind === "super") supers++;
    const title = spin.kind === "base" ? "Spin" : spin.kind === "free" ? `Free spin ${free} of ${awarded}` : `Super spin ${supers}`;
    out.push(`# ${title} — ${spin.win ? credits(spin.win) : "no win"}`);
    for (const e of spin.events) {
      switch (e.type) {
        case "grid": if ((e.tumble as number) > 0) out.push(`Tumble ${e.tumble}: ${s(e.refilled as number, "new candy", "new candies")} drop in`); break;
        case "cluster_win": out.push(`Cluster of ${e.size} ${name.get(e.symbol as string)}${(e.wilds as number) > 0 ? ` with ${s(e.wilds as number, "wild")}` : ""}${(e.wild_multiplier as number) > 1 ? `, golden wilds x${e.wild_multiplier}` : ""} — ${credits(e.win as number)}`); break;
        case "random_multiplier": if ((e.value as number) > 1) out.push(`Random multiplier x${e.value} on the spin's wins`); break;
        case "jars": {
          const filled = [["wild", "YELLOW"], ["free_spins", "RED"], ["jackpots", "GREEN"]].filter(([j]) => (e[j!] as number) > 0).map(([j, c]) => `${e[j!]} ${name.get(c!)}`);
          if (filled.length) out.push(`Into the jars: ${and(filled)}${e.triggered ? " — the jars trigger Free Spins" : ""}`);
          break;
        }
        case "free_spins_triggered": {
          const mods = (e.modifiers as string[]).map((m) => MODIFIERS[m]!);
          const extra = (e.extra_spins_at_start as number) > 0 ? ` (${s(e.extra_spins_at_start as number, "extra spin")} at the start)` : "";
          out.push(`Free Spins: ${s(e.spins as number, "free spin")}${extra}${mods.length ? ` with the ${and(mods)} modifier${mods.length > 1 ? "s" : ""}` : ""}`);
          awarded = e.spins as number;
          break;
        }
        case "wilds_placed": out.push(`${s(e.count as number, "wild")} placed${(e.golden_multiplier as number) > 0 ? `, golden wilds x${e.golden_multiplier}` : ""}`); break;
        case "extra_free_spins":
          out.push(`${s(e.collected as number, "Extra Free Spin symbol")} collected: ${s(e.spins_awarded as number, "free spin")} in all; ${(e.super_spins_awarded as number) > 0 ? `${s(e.super_spins_awarded as number, "super spin")} won` : `${e.toward_super_spin} toward the next super spin`}`);
          awarded = e.spins_awarded as number;
          break;
        case "jackpot": out.push(`${name.get(e.jackpot as string)} jackpot${(e.multiplier as number) > 1 ? ` x${e.multiplier}` : ""} — ${credits(e.win as number)}`); break;
        default: throw new Error(`event ${e.type}: not one Candy Jar sends`);
      }
    }
  }
  if (o.spins.length > 1) {
    const c = o.counters;
    out.push(`Free Spins over: ${s(c.free_spins_played, "free spin")}${c.super_spins_played ? ` and ${s(c.super_spins_played, "super spin")}` : ""} paid ${credits(o.breakdown.free_spins ?? 0)}${o.breakdown.jackpots ? `, the jackpots ${credits(o.breakdown.jackpots)}` : ""}`);
  }
  if (o.win_capped) out.push(`Maximum win reached: ${credits(o.total_win)} paid (${credits(o.uncapped_win!)} before the cap)`);
  out.push(`Total win: ${o.total_win ? credits(o.total_win) : "no win"}`);
  return out;
}

const rounds = [...base.rounds, ...features.rounds];

describe("Candy Jar's account of a round", () => {
  it.each(rounds.map((r) => [r.kind, r] as const))("%s: clusters, tumbles, jars, free and super spins", (_kind, r) => {
    expect(texts(candyAccount(roundOf(r.outcome), game))).toEqual(expected(r.outcome as unknown as Oc));
  });

  it("the fixtures reach the golden wilds, a random multiplier, a super spin, a jackpot and the cap", () => {
    const all = rounds.flatMap((r) => texts(candyAccount(roundOf(r.outcome), game)));
    for (const pattern of [/golden wilds x\d+ — /, /^Random multiplier x\d+/, /^# Super spin 1 — /, /^(Mini|Minor|Major|Maxi|Grand) jackpot/, /^Maximum win reached: /]) {
      expect(all.some((l) => pattern.test(l)), String(pattern)).toBe(true);
    }
  });
});
