// The history page's parts without the DOM: the generic account (a game without its own words)
// over every fixture, the choices and the jackpot claim in words, the status in words, the short
// round reference, the balance after a round, and the screens of a round (one per window or grid).
import { describe, expect, it } from "vitest";
import type { Outcome } from "../../src/core/outcome";
import { claimAccount, genericAccount, stepsAccount } from "../../src/screens/history/account";
import { balanceAfter, heldInGamble, heldWords, shortReference, statusWords } from "../../src/screens/history/format";
import { framesOf, walkReplay } from "../../src/screens/history/frames";
import { fixture, GAME_KEYS } from "./fixtures";
import { credits, gameOf, roundOf, stepOf, texts } from "./history-fixtures";

interface Ev { type: string; win?: number; [k: string]: unknown }

describe("the generic account", () => {
  for (const key of GAME_KEYS) {
    const f = fixture(key);
    it.each(f.rounds.map((r) => [`${key} ${r.kind}`, r] as const))("%s: a heading per spin, every win with its credits", (_name, r) => {
      const lines = genericAccount(roundOf(r.outcome), gameOf(key, f.info));
      const o = r.outcome as unknown as Outcome;
      expect(lines.filter((l) => l.heading).length).toBe(o.spins.length);
      const shown = texts(lines);
      for (const spin of o.spins) {
        for (const e of spin.events as unknown as Ev[]) {
          if (typeof e.win !== "number") continue;
          const want = ` — ${credits(e.win)}`;
          const lines = shown.filter((l) => l.endsWith(want)).length;
          const events = o.spins.flatMap((x) => x.events as unknown as Ev[]).filter((x) => x.win === e.win).length;
          expect(lines, `the ${e.type} paying ${e.win}`).toBeGreaterThanOrEqual(events);
        }
      }
      expect(shown.at(-1)).toBe(`Total win: ${o.total_win ? credits(o.total_win) : "no win"}`);
      for (const l of shown) expect(l).not.toMatch(/undefined|NaN|\[object|null/);
      // names, not ids
      for (const s of f.info.symbols) if (s.name !== s.id) for (const l of shown) expect(l.includes(` ${s.id} `)).toBe(false);
    });
  }

  it("a round without an outcome (cancelled) says nothing of spins", () => {
    expect(genericAccount(roundOf(null, { status: "cancelled" }), undefined)).toEqual([]);
  });
});

describe("choices and claims in words", () => {
  it("a choice this page has no words for says what was chosen, plainly", () => {
    const lines = texts(stepsAccount(roundOf(null, { steps: [stepOf(0, "pick_a_box", ["box", 3], { state: {}, finished: true, paid_credits: 40 })] })));
    expect(lines).toEqual(["# Pick a box", `Chose box 3: ${credits(40)} paid`]);
  });

  it("a claim's status in words, a claim without instalments", () => {
    const claim = { id: 2, pool: "p", amount_minor: 500000, status: "paid", instalments: [] };
    expect(claimAccount({ jackpot_claim: claim, currency: "GBP" })).toEqual([{ text: "Jackpot won: £5,000.00 (paid)" }]);
    expect(claimAccount({ jackpot_claim: null, currency: "GBP" })).toEqual([]);
  });
});

describe("what the list says", () => {
  it("the status in words", () => {
    expect(["closed", "cancelled", "open", "debited", "outcome_committed", "credited"].map(statusWords))
      .toEqual(["Played", "Cancelled", "In progress", "In progress", "In progress", "In progress"]);
  });

  it("a round waiting on its gamble: what is at stake and banked, from the item or the round view", () => {
    expect(heldInGamble({ at_stake_minor: 40, banked_minor: 20 })).toMatchObject({ atStake: 40, banked: 20 });
    expect(heldInGamble({ at_stake_minor: null, banked_minor: null })).toBeNull();
    const choice = { active: "gamble" } as never;
    const round = { status: "outcome_committed", pending_win_credits: 8, denomination: 5, choice } as const;
    expect(heldInGamble(null, round)).toMatchObject({ atStake: 40, banked: 0 });
    // Spin Chance: a choice on the balance once the win is credited holds nothing
    expect(heldInGamble(null, { ...round, status: "credited", pending_win_credits: 0 })).toBeNull();
    expect(heldInGamble(null, { ...round, status: "closed", choice: null })).toBeNull();
  });

  it("a win stopped at the gamble offer is not called a gamble: only gamble steps taken make it one", () => {
    // a new player read "In gamble — At stake in gamble" on a round where GAMBLE was never pressed
    const offer = heldInGamble({ at_stake_minor: 166, banked_minor: 0, gamble_steps: 0 });
    expect(heldWords(offer!)).toEqual({ status: "Win waiting", label: "Not collected yet" });
    const gambled = heldInGamble({ at_stake_minor: 332, banked_minor: 0, gamble_steps: 1 });
    expect(heldWords(gambled!)).toEqual({ status: "In gamble", label: "At stake in gamble" });
    // an older server without the count: what the gamble banked says a step was taken
    expect(heldWords(heldInGamble({ at_stake_minor: 40, banked_minor: 20 })!).status).toBe("In gamble");
    const round = { status: "outcome_committed" as const, pending_win_credits: 8, denomination: 5, choice: { active: "gamble" } as never };
    expect(heldWords(heldInGamble(null, { ...round, steps: [] })!).status).toBe("Win waiting");
    expect(heldWords(heldInGamble(null, { ...round, steps: [{}] as never })!).status).toBe("In gamble");
  });

  it("the round reference: the id's first 8 characters", () => {
    expect(shortReference("0b6f5a9e-7c1d-4e2a-9f3b-5d8c7e6a1b2c")).toBe("0b6f5a9e");
    expect(shortReference("0b6f-5a9e7c1d")).toBe("0b6f5a9e");
  });

  it("the balance after: the item's, else the player's last ledger movement, else none", () => {
    const ledger = [
      { account: "player", amount_minor: -100, balance_after_minor: 99900 },
      { account: "house", amount_minor: 100, balance_after_minor: null },
      { account: "player", amount_minor: 250, balance_after_minor: 100150 },
      { account: "house", amount_minor: -250, balance_after_minor: null },
    ];
    expect(balanceAfter({ balance_after_minor: 123 }, { ledger })).toBe(123);
    expect(balanceAfter({ balance_after_minor: null }, { ledger })).toBe(100150);
    expect(balanceAfter(null, { ledger: [] })).toBeNull();
    expect(balanceAfter(null, null)).toBeNull();
  });
});

describe("a round's screens", () => {
  it("one per window of a line game's spins", () => {
    for (const key of ["cluedo", "cops-n-robbers"]) for (const r of fixture(key).rounds) {
      const o = r.outcome as unknown as Outcome;
      const frames = framesOf([o]);
      expect(frames.map((f) => f.spin)).toEqual(o.spins.map((_, i) => i));
      frames.forEach((f) => expect(f.end).toBe(o.spins[f.spin]!.events.length - 1));
    }
  });

  it("one per grid of a cluster game, each up to the next grid", () => {
    for (const r of fixture("candy-jar-clusters").rounds) {
      const o = r.outcome as unknown as Outcome;
      const frames = framesOf([o]);
      const grids = o.spins.flatMap((s, si) => s.events.flatMap((e, i) => (e.type === "grid" ? [{ si, i, tumble: e.tumble }] : [])));
      expect(frames.length).toBe(grids.length);
      frames.forEach((f, k) => {
        expect([f.spin, f.tumble]).toEqual([grids[k]!.si, grids[k]!.tumble]);
        const events = o.spins[f.spin]!.events;
        expect(events[f.end + 1] === undefined || events[f.end + 1]!.type === "grid").toBe(true);
        expect(events.slice(grids[k]!.i + 1, f.end + 1).some((e) => e.type === "grid")).toBe(false);
      });
    }
  });

  it("the screens of a bonus won on a wheel follow the round's", () => {
    const [a, b] = fixture("cops-n-robbers").rounds.map((r) => r.outcome as unknown as Outcome);
    const frames = framesOf([a!, b!]);
    expect(frames.filter((f) => f.outcome === 1).length).toBe(b!.spins.length);
    expect(frames.findIndex((f) => f.outcome === 1)).toBe(a!.spins.length);
  });

  it("REPLAY names each screen before it plays: the label is the spin on the reels", async () => {
    for (const key of ["cops-n-robbers", "candy-jar-clusters"]) for (const r of fixture(key).rounds) {
      const o = r.outcome as unknown as Outcome;
      const frames = framesOf([o]);
      let named = frames.length - 1; // the page opens on the last screen
      const seen: [number, number][] = [];
      await walkReplay(frames, [o], { name: (i) => { named = i; }, play: async (i) => { seen.push([i, named]); }, going: () => true });
      for (const [played, label] of seen) expect(label, `${key}: screen ${played} played under the label of ${label}`).toBe(played);
      // every spin is played once, whole (its last screen)
      expect(seen.map(([i]) => frames[i]!.spin)).toEqual(o.spins.map((_, s) => s));
    }
  });

  it("REPLAY stops when told", async () => {
    const o = fixture("cops-n-robbers").rounds.map((r) => r.outcome as unknown as Outcome).find((x) => x.spins.length > 1)!;
    const played: number[] = [];
    await walkReplay(framesOf([o]), [o], { name: () => {}, play: async (i) => { played.push(i); }, going: () => played.length < 1 });
    expect(played).toEqual([0]);
  });
});

describe("the list's badges and its won rounds", () => {
  const item = (extra: Record<string, unknown> = {}) => ({ win_minor: 0, jackpot_minor: null, at_stake_minor: null, banked_minor: null, gamble_steps: null, ...extra });
  const spins = (...kinds: string[]) => ({ outcome: { spins: kinds.map((kind, index) => ({ index, kind, events: [], win: 0 })) } as never, steps: [] });
  it("names free spins, a bonus, a gamble and a jackpot where the round had them, nothing for a plain spin", async () => {
    const { featuresOf } = await import("../../src/screens/history/format");
    expect(featuresOf(item(), spins("base"))).toEqual([]);
    expect(featuresOf(item(), spins("base", "free", "free"))).toEqual(["free-spins"]);
    expect(featuresOf(item(), spins("base", "bonus"))).toEqual(["bonus"]);
    expect(featuresOf(item({ jackpot_minor: 5000 }), null)).toEqual(["jackpot"]);
    // a gamble taken (TAKE HALF, a colour), then COLLECT: a gamble; COLLECT alone is none
    const gambled = { outcome: spins("base").outcome, steps: [stepOf(0, "gamble", "half", {}), stepOf(1, "gamble", "red", {}), stepOf(2, "gamble", ["collect"], {})] };
    expect(featuresOf(item(), gambled)).toEqual(["gamble"]);
    expect(featuresOf(item(), { outcome: spins("base").outcome, steps: [stepOf(0, "gamble", ["collect"], {})] })).toEqual([]);
    // a win still held in the gamble after a step, from the list item alone
    expect(featuresOf(item({ at_stake_minor: 100, banked_minor: 100, gamble_steps: 1 }), null)).toEqual(["gamble"]);
    expect(featuresOf(item({ at_stake_minor: 100, banked_minor: 0, gamble_steps: 0 }), null)).toEqual([]);
  });
  it("draws a round as won when it paid: its win, a jackpot, a win held at the gamble", async () => {
    const { paidOut } = await import("../../src/screens/history/format");
    expect(paidOut(item({ win_minor: 0 }))).toBe(false);
    expect(paidOut(item({ win_minor: null }))).toBe(false);
    expect(paidOut(item({ win_minor: 1 }))).toBe(true);
    expect(paidOut(item({ jackpot_minor: 100 }))).toBe(true);
    expect(paidOut(item({ win_minor: null, at_stake_minor: 40, banked_minor: 0, gamble_steps: 0 }))).toBe(true);
  });
});
