import { describe, expect, it } from "vitest";
import { Autoplay, DEFAULT_ROUNDS, ROUND_CHOICES, autoplayRefusal, hadFeature, limitMinor } from "../../src/core/autoplay";
import type { Outcome } from "../../src/core/outcome";
import { fixture } from "./fixtures";

const spin = (events: { type: string; [k: string]: unknown }[]) => ({ index: 0, kind: "base", win: 0, events }) as unknown as Outcome["spins"][number];
const outcome = (...spins: Outcome["spins"]) => ({ spins }) as unknown as Outcome;
const plain = outcome(spin([{ type: "window", symbols: [] }, { type: "line_win", win: 5 }]));
const result = (over: Partial<Parameters<Autoplay["after"]>[0]> = {}) => ({ outcome: plain, winMinor: 0, balanceMinor: 10000, nextStakeMinor: 20, choiceLeft: false, ...over });

describe("autoplay", () => {
  it("plays its rounds, running through the last one's play, then stops saying why", () => {
    const a = new Autoplay();
    a.start({ rounds: 2, lossLimitMinor: null, winLimitMinor: null, stopOnFeature: true }, 10000);
    a.took();
    expect(a.after(result())).toBe("");
    a.took();
    expect(a.running).toBe(true); // the last round is still in play: its win is collected by autoplay
    expect(a.remaining).toBe(0);
    expect(a.after(result())).toBe("all rounds played");
    expect(a.running).toBe(false);
  });

  it("stops before a bet that could pass the loss limit", () => {
    const a = new Autoplay();
    a.start({ rounds: 10, lossLimitMinor: 100, winLimitMinor: null, stopOnFeature: false }, 10000);
    a.took();
    expect(a.after(result({ balanceMinor: 9920 }))).toBe(""); // lost 80; the next 20 makes 100: allowed
    a.took();
    expect(a.after(result({ balanceMinor: 9900 }))).toBe("the loss limit was reached"); // lost 100; 20 more would pass it
  });

  it("stops on a single win at the limit and on a feature", () => {
    const a = new Autoplay();
    a.start({ rounds: 10, lossLimitMinor: null, winLimitMinor: 500, stopOnFeature: true }, 10000);
    expect(a.after(result({ winMinor: 499 }))).toBe("");
    expect(a.after(result({ winMinor: 500 }))).toBe("the single-win limit was reached");
    a.start({ rounds: 10, lossLimitMinor: null, winLimitMinor: null, stopOnFeature: true }, 10000);
    expect(a.after(result({ outcome: outcome(spin([{ type: "window" }]), spin([{ type: "window" }])) }))).toBe("a feature was played");
  });

  it("counts a trail, a bonus or filled jars as a feature, a plain win or a jar filling as none", () => {
    expect(hadFeature(plain)).toBe(false);
    expect(hadFeature(outcome(spin([{ type: "grid" }, { type: "jars", triggered: false }])))).toBe(false);
    expect(hadFeature(outcome(spin([{ type: "grid" }, { type: "jars", triggered: true }])))).toBe(true);
    expect(hadFeature(outcome(spin([{ type: "window" }, { type: "bonus", start_multiplier: 1 }])))).toBe(true);
  });

  // The playtest: "Stop on any feature" stopped autoplay after a Candy Jar round that had only a
  // wild and a jar candy landing. Each recorded round labelled by what its exporter drew it for
  // (web/tests/fixtures: a flag, a bonus, free spins, a jackpot; or a plain loss, win, cash
  // collection, grid multiplier, capped win).
  const LABELLED: [file: string, kind: string, feature: boolean][] = [
    ["cluedo", "flag:free_spins", true], ["cluedo", "loss", false], ["cluedo", "win", false],
    ["cluedo-features", "free-spins-capped", true], ["cluedo-features", "free-spins-retrigger", true],
    ["cluedo-features", "jackpot", true], ["cluedo-features", "mj-doubled", false],
    ["cops-n-robbers", "flag:bonus", true], ["cops-n-robbers", "loss", false], ["cops-n-robbers", "win", false],
    ["cops-n-robbers-features", "bonus-collect-multiplied", true], ["cops-n-robbers-features", "parade-sid", true],
    ["cops-n-robbers-features", "fortune-collect", false], ["cops-n-robbers-features", "mixed", false],
    ["candy-jar-clusters", "flag:free_spins", true], ["candy-jar-clusters", "flag:jackpot", true],
    ["candy-jar-clusters", "loss", false], ["candy-jar-clusters", "win", false],
    ["candy-jar-clusters-features", "flag:super_spins", true], ["candy-jar-clusters-features", "flag:win_capped", false],
    ["holdwin-example", "flag:bonus", true], ["holdwin-example", "win", false],
    ["cluster-mult-example", "grid_multiplier", false], ["cluster-mult-example", "flag:free_spins", true],
  ];
  it.each(LABELLED)("%s's recorded %s round: a feature %s", (file, kind, feature) => {
    const round = fixture(file).rounds.find((r) => r.kind === kind);
    expect(round, `${file} has no ${kind} round`).toBeDefined();
    expect(hadFeature(round?.outcome as unknown as Outcome)).toBe(feature);
  });

  it("a Candy Jar round with a wild and a jar candy landing (no free spins) is no feature; the jars filling is one", () => {
    const landed = (triggered: boolean) => outcome(spin([
      { type: "grid", tumble: 0, refilled: 0, symbols: [["W", "LEMON"], ["LEMON", "LEMON"]] },
      { type: "cluster_win", tumble: 0, symbol: "LEMON", size: 5, wilds: 1, wild_multiplier: 1, win: 10 },
      { type: "random_multiplier", tumble: 0, value: 1 },
      { type: "jars", wild: 1, free_spins: 0, jackpots: 0, triggered },
    ]));
    expect(hadFeature(landed(false))).toBe(false);
    expect(hadFeature(landed(true))).toBe(true);
  });

  it("offers 5 rounds and the choices it had, 10 chosen first", () => {
    expect(ROUND_CHOICES).toEqual([5, 10, 25, 50, 100]);
    expect(DEFAULT_ROUNDS).toBe(10);
  });

  it("refuses a number of rounds that is not a whole number from 1", () => {
    expect(() => new Autoplay().start({ rounds: 0, lossLimitMinor: null, winLimitMinor: null, stopOnFeature: false }, 0)).toThrow(/rounds must be/);
  });

  it("is refused while the balance cannot pay the bet, and allowed again once it can", () => {
    const money = (minor: number) => `€${(minor / 100).toFixed(2)}`;
    expect(autoplayRefusal(0, 20, money)).toBe("Autoplay needs a balance of at least one bet (€0.20): the balance is €0.00");
    expect(autoplayRefusal(19, 20, money)).toMatch(/at least one bet/);
    expect(autoplayRefusal(20, 20, money)).toBeNull();
    expect(autoplayRefusal(10000, Infinity, money)).toMatch(/no bet/); // no price for the mode at this bet
  });

  it("stops before a round the balance cannot pay (a Spin Chance is offered there, and autoplay never takes one)", () => {
    const a = new Autoplay();
    a.start({ rounds: 10, lossLimitMinor: null, winLimitMinor: null, stopOnFeature: false }, 30);
    a.took();
    expect(a.after(result({ balanceMinor: 19, nextStakeMinor: 20 }))).toBe("the balance cannot pay the next bet");
    expect(a.running).toBe(false);
  });
});

describe("autoplay limits in the game's unit", () => {
  // the playtest: Cluedo counts in credits, its autoplay asked the limits in EUR
  it("a credits game's limit is whole credits at the denomination", () => {
    const unit = { kind: "credits", denomination: 5 } as const;
    expect(limitMinor("100", unit)).toBe(500);
    expect(limitMinor("1", unit)).toBe(5);
    expect(limitMinor("0.4", unit)).toBe(5); // at least one credit, never "no limit"
    expect(limitMinor("2.6", unit)).toBe(15);
  });
  it("a money game's limit is the currency's minor units", () => {
    expect(limitMinor("1.25", { kind: "money", decimals: 2 })).toBe(125);
    expect(limitMinor("300", { kind: "money", decimals: 0 })).toBe(300);
  });
  it("empty, 0, negative or not a number: no limit", () => {
    for (const t of ["", "  ", "0", "-3", "abc"]) expect(limitMinor(t, { kind: "credits", denomination: 1 })).toBeNull();
  });
});
