// Cluedo's plain account (screens/cluedo/account.ts) over the real fixtures: every round of
// cluedo.json and cluedo-features.json (a line doubled by the wild, free spins with retriggers,
// free spins cut at 180, the MegaJackpot) and every red/black gamble of cluedo-features.json.
// The expected lines are built here from each fixture's events and steps, event by event.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Offer } from "../../src/net/types";
import { cluedoAccount } from "../../src/screens/cluedo/account";
import { fixture, type FixtureRound } from "./fixtures";
import { credits, gameOf, roundOf, stepOf, texts } from "./history-fixtures";

const here = dirname(fileURLToPath(import.meta.url));
const base = fixture("cluedo");
interface GambleFixture { name: string; offer: Offer; steps: { choice: string; result: Record<string, unknown> }[] }
const features = JSON.parse(readFileSync(join(here, "..", "fixtures", "cluedo-features.json"), "utf8")) as { rounds: FixtureRound[]; gambles: GambleFixture[] };
const game = gameOf("cluedo", base.info);
const name = new Map(base.info.symbols.map((s) => [s.id, s.name]));

interface Ev { type: string; [k: string]: unknown }
interface Sp { index: number; kind: string; multiplier: number; win: number; events: Ev[] }
interface Oc { spins: Sp[]; total_win: number; breakdown: Record<string, number>; counters: { free_spins_played: number } }

// The wild doubles a line it is on (not a line of its own); the free spins triple every win:
// the event's multiplier and the spin's say which applied.
const PHRASES: Record<string, string> = {
  "1 1": "", "1 2": " with the wild's x2", "3 3": " at the free spins' x3", "3 6": " with the wild's x2 at the free spins' x3",
};

function expected(o: Oc): string[] {
  const out: string[] = [];
  let awarded = 0;
  const freeTimes = o.spins.find((s) => s.kind === "free")?.multiplier;
  for (const spin of o.spins) {
    out.push(`# ${spin.kind === "base" ? "Spin" : `Free spin ${spin.index} of ${awarded}`} — ${spin.win ? credits(spin.win) : "no win"}`);
    for (const e of spin.events) {
      if (e.type === "window") continue;
      if (e.type === "line_win") {
        const key = e.symbol === "MJ" ? `${spin.multiplier} ${spin.multiplier}` : `${spin.multiplier} ${e.multiplier}`;
        const phrase = PHRASES[key];
        if (phrase === undefined) throw new Error(`a line at x${e.multiplier} in a spin at x${spin.multiplier}: not a case this test knows`);
        out.push(`Line ${e.line}: ${e.count} ${name.get(e.symbol as string)}${phrase} — ${credits(e.win as number)}`);
      } else if (e.type === "scatter_win") {
        out.push(`${e.count} Mystery Bonus${spin.kind === "free" ? " at the free spins' x3" : ""} — ${credits(e.win as number)}`);
      } else if (e.type === "free_spins_award") {
        const more = e.spins_awarded as number, asked = e.spins_requested as number, total = e.total_awarded as number;
        if (spin.kind === "base") out.push(`${e.trigger_count} Mystery Bonus: ${more} free spins at x${freeTimes}`);
        else if (more === asked) out.push(`${e.trigger_count} Mystery Bonus: ${more} more free spins (${total} in all)`);
        else if (more > 0) out.push(`${e.trigger_count} Mystery Bonus: ${more} more free spin${more === 1 ? "" : "s"}, the bonus reaches its maximum of ${total}`);
        else out.push(`${e.trigger_count} Mystery Bonus: no more free spins, the bonus is at its maximum of ${total}`);
        awarded = total;
      } else if (e.type === "progressive_jackpot") {
        out.push(`MegaJackpot: ${e.count} MegaJackpots on line ${e.line}`);
      } else throw new Error(`event ${e.type}: not one Cluedo sends`);
    }
  }
  if (o.spins.some((s) => s.kind === "free")) {
    const total = o.breakdown.free_games ?? 0;
    out.push(`Bonus total: ${total ? credits(total) : "no win"} in ${o.counters.free_spins_played} free spins`);
  }
  out.push(`Total win: ${o.total_win ? credits(o.total_win) : "no win"}`);
  return out;
}

const rounds = [...base.rounds, ...features.rounds];

describe("Cluedo's account of a round", () => {
  it.each(rounds.map((r) => [r.kind, r] as const))("%s: a line for each win, a heading for each spin", (_kind, r) => {
    const lines = cluedoAccount(roundOf(r.outcome), game);
    expect(texts(lines)).toEqual(expected(r.outcome as unknown as Oc));
    // each spin's lines carry the spin they tell of
    const spins = (r.outcome as unknown as Oc).spins;
    expect(lines.filter((l) => l.heading).map((l) => l.spin)).toEqual(spins.map((s) => s.index));
  });

  it("names the wild's x2 on a doubled line and the 180 cap", () => {
    const doubled = features.rounds.find((r) => r.kind === "mj-doubled")!;
    expect(texts(cluedoAccount(roundOf(doubled.outcome), game)).some((l) => /^Line \d+: \d .+ with the wild's x2 — /.test(l))).toBe(true);
    const capped = features.rounds.find((r) => r.kind === "free-spins-capped")!;
    expect(texts(cluedoAccount(roundOf(capped.outcome), game)).some((l) => l.endsWith("the bonus is at its maximum of 180"))).toBe(true);
  });

  it("tells a jackpot claim in currency, its status and instalments", () => {
    const jackpot = features.rounds.find((r) => r.kind === "jackpot")!;
    const plan = Array.from({ length: 20 }, (_, i) => ({ due: `year ${i + 1}`, amount_minor: 6172 }));
    const claim = { id: 1, pool: "cluedo", amount_minor: 123456, status: "pending_verification", instalments: plan };
    const lines = texts(cluedoAccount(roundOf(jackpot.outcome, { jackpot_claim: claim }), game));
    expect(lines).toContain("Jackpot won: €1,234.56 (pending verification, 20 instalments)");
  });
});

describe("Cluedo's gamble in the account", () => {
  it.each(features.gambles.map((g) => [g.name, g] as const))("%s: each step in words, amounts from the steps", (_name, g) => {
    const steps = g.steps.map((s, i) => stepOf(i, "gamble", s.choice, s.result));
    const lines = texts(cluedoAccount(roundOf(null, { offers: [g.offer], steps }), game));
    const want = ["# Gamble"];
    let before = g.offer.amount;
    for (const s of g.steps) {
      const st = s.result.state as { amount: number; banked: number; last_card: string };
      if (s.choice === "half") want.push(`Took half: ${credits(st.banked)} banked, ${credits(st.amount)} still at stake`);
      else if (s.choice === "collect") want.push(`Collected: ${credits(s.result.paid_credits as number)}`);
      else {
        const colour = s.choice.charAt(0).toUpperCase() + s.choice.slice(1);
        want.push(st.last_card === s.choice ? `${colour} — won (${before.toLocaleString("en")} → ${credits(st.amount)})` : `${colour} — lost (the card was ${st.last_card}): ${credits(before)} lost`);
      }
      if (s.choice !== "collect" && s.result.finished === true) {
        const paid = s.result.paid_credits as number;
        want.push(paid > 0 ? `The gamble ends: ${credits(paid)} paid` : "The gamble ends: nothing paid");
      }
      before = st.amount;
    }
    expect(lines).toEqual(want);
  });

  it("a closed round's gamble starts from the outcome's win", () => {
    const win = base.rounds.find((r) => r.kind === "win")!;
    const total = (win.outcome as unknown as Oc).total_win;
    const state = { amount: total * 2, banked: 0, wins: 1, half_taken: false, history: ["red"], finished: false, last_card: "red", paid: 0 };
    const lines = texts(cluedoAccount(roundOf(win.outcome, { steps: [stepOf(0, "gamble", "red", { state, finished: false })] }), game));
    expect(lines.slice(-2)).toEqual(["# Gamble", `Red — won (${total.toLocaleString("en")} → ${credits(total * 2)})`]);
  });
});
