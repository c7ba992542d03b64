// The free spins' intro and outro on the generic screens (screens/game/feature-moments.ts),
// played by the generic handlers and hooks against a fake view. The rounds are real ones
// (modes-rounds.json: its `command` says how the server's round code played them): a bought
// round of modes-example (no base spin; it opens on the award of the spins bought) and a base
// round that triggers the free spins.
import { describe, expect, it } from "vitest";
import type { FreeSpinsAwardEvent, Outcome } from "../../src/core/outcome";
import { validateOutcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import { formatCredits, formatMoney } from "../../src/core/money";
import { freeSpinsOutro, spinsAwardedAt, type FeatureMoment } from "../../src/screens/game/feature-moments";
import { genericHandlers, genericHooks } from "../../src/screens/game/handlers";
import type { SlotView } from "../../src/screens/game/registry";
import rounds from "./modes-rounds.json";
import { RecordingView } from "./recording-view";

const PURSE = { currency: "EUR", denomination: 5 };
const game = { info: rounds.info, ...PURSE } as unknown as Parameters<typeof genericHandlers>[0];

/** What the screen showed, in order; `moments` false: a view that draws no moments. */
class MomentView extends RecordingView {
  moments: FeatureMoment[] = [];
  featureMoment?: (m: FeatureMoment) => Promise<void>;
  constructor(moments = true) {
    super(["land", "highlight", "banner"]);
    if (moments) this.featureMoment = async (m) => { this.moments.push(m); this.calls.push(`moment ${m.kind}`); };
  }
}

async function play(outcome: Outcome, view = new MomentView()): Promise<MomentView> {
  await new EventPlayer<SlotView>(genericHandlers(game), genericHooks(PURSE), { timeoutMs: 5000 }).play(view, outcome);
  return view;
}

const awards = (o: Outcome) => o.spins.flatMap((s) => s.events.filter((e): e is FreeSpinsAwardEvent => e.type === "free_spins_award"));
const money = (credits: number) => formatMoney(credits * PURSE.denomination, PURSE.currency);

describe("a bought round's free spins", () => {
  const outcome = validateOutcome(rounds.buy);
  const bought = awards(outcome)[0]!;

  it("is a round of free spins alone, opening on the award of the spins bought", () => {
    expect(outcome.spins.every((s) => s.kind === "free")).toBe(true);
    expect(outcome.spins[0]!.events[0]).toEqual(bought);
    expect(bought.trigger_count).toBe(0);
  });

  it("opens with the intro (the spins bought, the multiplier, the price) before the first reels land, and no scatter count", async () => {
    const view = await play(outcome);
    expect(view.calls[0]).toBe("moment fs-intro");
    expect(view.calls.some((c) => c.includes("SCATTERS"))).toBe(false);
    expect(view.moments[0]).toEqual({
      kind: "fs-intro", title: "FREE SPINS BOUGHT",
      lines: [`${bought.spins_awarded} FREE SPINS`, `ALL WINS x${rounds.info.free_games.multiplier}`,
        `bought for ${money(outcome.bet.cost)} (${formatCredits(outcome.bet.cost)} credits)`],
    });
  });

  it("counts its spins of the spins bought from the first one", async () => {
    const view = await play(outcome);
    const shown = view.spinInfo.filter((t) => t.startsWith("Free spin"));
    expect(shown).toEqual(outcome.spins.map((_, i) => `Free spin ${i + 1} of ${bought.total_awarded}`));
    expect(spinsAwardedAt(outcome, outcome.spins[0]!)).toBe(bought.total_awarded);
  });

  it("ends with the outro: the round's win against the price paid", async () => {
    const view = await play(outcome);
    expect(view.calls.at(-1)).toBe("moment fs-outro");
    const outro = view.moments.at(-1)!;
    expect(outro.total).toBe(outcome.total_win);
    expect(outro.lines).toEqual([`${money(outcome.total_win)} won in ${outcome.spins.length} free spins`, `for a price of ${money(outcome.bet.cost)}`]);
  });

  it("says the same words in banners on a view that draws no moments", async () => {
    const view = await play(outcome, new MomentView(false));
    expect(view.calls[0]).toBe(`banner FREE SPINS BOUGHT · ${bought.spins_awarded} FREE SPINS · ALL WINS x3 · bought for ${money(outcome.bet.cost)} (${formatCredits(outcome.bet.cost)} credits)`);
    expect(view.calls.at(-1)).toContain(`FREE SPINS TOTAL · ${formatCredits(outcome.total_win)} · `);
  });

  it("says the price in credits where the screen has no currency", () => {
    expect(freeSpinsOutro(outcome)!.lines).toEqual([`won in ${outcome.spins.length} free spins`, `for a price of ${formatCredits(outcome.bet.cost)} credits`]);
  });
});

describe("triggered free spins", () => {
  const outcome = validateOutcome(rounds.triggered);
  const award = awards(outcome)[0]!;

  it("light the scatters on the base spin, then the intro reads as a bought one's, without a price", async () => {
    const view = await play(outcome);
    const at = view.calls.indexOf(`highlight ${award.trigger_count} SCATTERS: ${award.spins_awarded} FREE SPINS`);
    expect(at).toBeGreaterThan(view.calls.indexOf("land"));
    expect(view.calls[at + 1]).toBe("moment fs-intro");
    expect(view.moments[0]).toEqual({ kind: "fs-intro", title: "FREE SPINS", lines: [`${award.spins_awarded} FREE SPINS`, "ALL WINS x3"] });
  });

  it("end with the outro of the free spins' total (the server's breakdown), not the base spin's", async () => {
    const view = await play(outcome);
    const outro = view.moments.at(-1)!;
    const free = outcome.spins.filter((s) => s.kind === "free").length;
    expect(outro).toEqual({ kind: "fs-outro", title: "FREE SPINS TOTAL", total: outcome.breakdown.free_games, lines: [`${money(outcome.breakdown.free_games ?? 0)} won in ${free} free spins`] });
    expect(view.moments.filter((m) => m.kind === "fs-intro")).toHaveLength(1); // a retrigger is no second intro
  });
});
