// The gamble wheel: a won spin rests with a green slice under its pointer, a lost one a red,
// after whole turns, easing into the stop; its slices a prize wheel's, true to the odds.
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../src/core/money";
import { CASH_NAMES, cashGreenWords, chanceWords, gambleResult, meterAfterSpin } from "../../src/screens/cops-n-robbers/wheel";
import { greenShare, landingTurn, MIN_SHARE, MIN_SLICE, onGreen, pointerAngle, pointerStop, shownShare, SPIN_MS, SPIN_TURNS, underPointer, wheelSlices } from "../../src/screens/cops-n-robbers/wheel-spin";

// shares a wheel meets: tiny bonus chances, a third, a half, 400/533, a near-certain bonus
const SHARES = [1e-6, 0.01, MIN_SHARE, 1 / 3, 0.5, 400 / 533, 0.9, 0.99995];
const US = [0, 0.001, 0.25, 0.5, 0.999999];

describe("the wheel's rest shows the server's result", () => {
  for (const share of SHARES) {
    it(`rests on green when won and on red when lost, at share ${share}`, () => {
      const slices = wheelSlices(shownShare(share));
      for (const u of US) {
        const won = pointerStop(true, slices, u);
        const lost = pointerStop(false, slices, u);
        expect(onGreen(won, slices)).toBe(true);
        expect(onGreen(lost, slices)).toBe(false);
        // the wheel turns under a pointer fixed at the top: the turn it lands on brings that
        // angle under the pointer
        expect(onGreen(underPointer(landingTurn(won)), slices)).toBe(true);
        expect(onGreen(underPointer(landingTurn(lost)), slices)).toBe(false);
        // whole turns first: the spin is seen as a spin, never a nudge
        for (const end of [won, lost]) {
          expect(Math.floor(end / 360)).toBe(SPIN_TURNS);
          expect(landingTurn(end)).toBeGreaterThanOrEqual(SPIN_TURNS * 360);
        }
      }
    });
  }

  it("keeps clear of the slices' edges (a stop on the line would read as either colour)", () => {
    const slices = wheelSlices(shownShare(0.5));
    for (const u of US) {
      for (const won of [true, false]) {
        const a = (pointerStop(won, slices, u) % 360) / 360;
        const s = slices.find((x) => a >= x.from && a < x.to)!;
        const margin = 0.15 * (s.to - s.from);
        expect(a - s.from).toBeGreaterThanOrEqual(margin - 1e-9);
        expect(s.to - a).toBeGreaterThanOrEqual(margin - 1e-9);
      }
    }
  });

  it("stops on every slice of its colour as u runs (not always the first)", () => {
    const slices = wheelSlices(0.5);
    const hit = new Set<number>();
    for (let u = 0; u < 1; u += 0.01) hit.add(slices.findIndex((s) => { const a = (pointerStop(true, slices, u) % 360) / 360; return a >= s.from && a < s.to; }));
    expect(hit.size).toBe(slices.filter((s) => s.green).length);
  });

  it("refuses a result the drawn wheel has no colour for, and a u outside [0, 1)", () => {
    expect(() => pointerStop(false, wheelSlices(1), 0.5)).toThrow(/lost spin/);
    expect(() => pointerStop(true, wheelSlices(0), 0.5)).toThrow(/won spin/);
    expect(() => pointerStop(true, wheelSlices(0.5), 1)).toThrow(/u must lie/);
  });
});

// The design review: the wheels drew as two-slice pies. A prize wheel: 10 to 12 slices,
// neighbours never alike, and the green slices still exactly the chance drawn (the server's,
// shownShare's floors aside), each colour's slices equal.
describe("the wheel's slices", () => {
  for (const share of [...SHARES, 0, 1, 0.25, 0.6, 0.1, 0.05]) {
    it(`are a prize wheel true to the odds at share ${share}`, () => {
      const shown = shownShare(share);
      const slices = wheelSlices(shown);
      expect(slices.length).toBeGreaterThanOrEqual(10);
      expect(slices.length).toBeLessThanOrEqual(12);
      // they tile the turn, in order, from the top
      expect(slices[0]!.from).toBe(0);
      expect(slices.at(-1)!.to).toBe(1);
      slices.forEach((s, i) => { expect(s.to).toBeGreaterThan(s.from); if (i) expect(s.from).toBe(slices[i - 1]!.to); });
      // green adds up to the share drawn, exactly (to rounding)
      const green = slices.filter((s) => s.green).reduce((sum, s) => sum + s.to - s.from, 0);
      expect(green).toBeCloseTo(shown, 12);
      expect(greenShare(slices)).toBeCloseTo(shown, 12);
      // neighbours differ (in colour, or in shade of one colour), round the turn too
      slices.forEach((s, i) => { const n = slices[(i + 1) % slices.length]!; if (slices.length > 1) expect(s.green !== n.green || s.shade !== n.shade).toBe(true); });
      if (shown > 0 && shown < 1) {
        // both colours on the wheel, interleaved: as many green runs as red runs
        const runs = slices.filter((s, i) => s.green !== slices[(i + slices.length - 1) % slices.length]!.green);
        expect(runs.filter((s) => s.green).length).toBe(runs.filter((s) => !s.green).length);
        expect(runs.length).toBeGreaterThanOrEqual(2);
        // the green runs all alike, the red runs all alike (no colour favoured anywhere)
        const widths = (green: boolean) => {
          const w: number[] = [];
          slices.forEach((s, i) => { if (s.green !== green) return; const prev = slices[(i + slices.length - 1) % slices.length]!; if (prev.green === green && i) w[w.length - 1]! += s.to - s.from; else w.push(s.to - s.from); });
          return w;
        };
        for (const g of [true, false]) { const w = widths(g); for (const x of w) expect(x).toBeCloseTo(w[0]!, 12); }
        // the rarer colour's slices at least MIN_SLICE wide where the share allows
        const rare = Math.min(shown, 1 - shown);
        if (rare >= MIN_SLICE) for (const s of slices.filter((x) => x.green === shown <= 0.5)) expect(s.to - s.from).toBeGreaterThanOrEqual(MIN_SLICE - 1e-12);
      }
    });
  }
});

describe("the drawn green", () => {
  it("is the chance itself between the floors, never less than MIN_SHARE of either colour", () => {
    expect(shownShare(0)).toBe(0);
    expect(shownShare(1)).toBe(1);
    expect(shownShare(0.3)).toBe(0.3);
    expect(shownShare(1e-9)).toBe(MIN_SHARE);
    expect(shownShare(0.99999)).toBe(1 - MIN_SHARE);
  });
});

describe("the pointer's run", () => {
  it("starts at 0, only moves forward, slows down, and ends exactly on the stop", () => {
    const end = landingTurn(pointerStop(true, wheelSlices(0.5), 0.3)), ms = 3000;
    expect(pointerAngle(end, 0, ms)).toBe(0);
    expect(pointerAngle(end, ms, ms)).toBe(end);
    expect(pointerAngle(end, ms + 500, ms)).toBe(end);
    let last = 0, lastStep = Infinity;
    for (let t = 100; t <= ms; t += 100) {
      const a = pointerAngle(end, t, ms);
      expect(a).toBeGreaterThanOrEqual(last);
      expect(a - last).toBeLessThanOrEqual(lastStep + 1e-9); // easing out: each step no longer
      lastStep = a - last;
      last = a;
    }
  });

  it("is at its stop at once when it has no time (reduced motion)", () => {
    expect(pointerAngle(1500, 0, 0)).toBe(1500);
  });

  it("still turns in the last part of its run: it slows visibly, it does not creep (the playtest read a crawl as stopped)", () => {
    const end = landingTurn(pointerStop(false, wheelSlices(0.5), 0.5)), ms = SPIN_MS.normal;
    expect(ms).toBeGreaterThanOrEqual(2000);
    expect(ms).toBeLessThanOrEqual(3000);
    expect(SPIN_MS.fast).toBeLessThan(ms);
    expect(end - pointerAngle(end, ms * 0.55, ms)).toBeGreaterThan(90);
  });
});

describe("the result's words", () => {
  const state = { stake: 10, limit: 25000, amount: 0, collected: 0, bonus_won: null, reached: 0, finished: true };
  it("a won cash spin shows the server's new amount at stake, as the win's total", () => {
    const r = gambleResult({ wheel: "cash", option: 1 }, 400, { ...state, amount: 800, finished: false });
    expect(r).toEqual({ title: "WIN", amount: "Your win: 800 credits", lines: ["400 doubled", "Gamble again or COLLECT"], said: "WON: your win is now 800 credits" });
  });
  // The playtest: "+ A THIRD" beside "win 6" (the total) read as 6 more; "WON: 6" beside a WIN
  // meter still at 5. Each number says what it is, and the meter shows what WON says.
  it("a third added says the total it makes, not an amount added", () => {
    const r = gambleResult({ wheel: "cash", option: 0 }, 5, { ...state, amount: 6, finished: false });
    expect(r.lines[0]).toBe("5 with a third added");
    expect(r.said).toBe("WON: your win is now 6 credits");
    expect(CASH_NAMES[0]).not.toMatch(/^\+/);
  });
  // The gallery's review: "200 credits kept" twice on the panel, the kept line under the amount
  // (gamble-banked) and the result beside it. The kept line says it; the result does not.
  it("with part of the win kept, a won spin says what is at stake now, and leaves what is kept to the panel's kept line", () => {
    const r = gambleResult({ wheel: "cash", option: 1 }, 3, { ...state, amount: 6, collected: 2, finished: false });
    expect(r.said).toBe("WON: 6 credits at stake now");
    expect(r.amount).toBe("At stake: 6 credits");
    expect([r.said, ...r.lines].join(" ")).not.toMatch(/kept/);
  });
  it("the cash wheel's green names the total it takes the win to", () => {
    expect(cashGreenWords(5, 6, 0)).toBe("Green: takes your win of 5 to 6 credits in total");
    expect(cashGreenWords(3, 4, 2)).toBe("Green: takes the 3 at stake to 4 credits in total");
  });
  // The playtest: the stake in euros, the gamble in credits only ("takes your win of 125 to 166
  // credits"): the total green makes has its money beside it, as have the results.
  it("with the money beside the credits", () => {
    const money = (c: number) => formatMoney(c, "EUR");
    expect(cashGreenWords(125, 166, 0, money)).toBe("Green: takes your win of 125 to 166 credits (€1.66) in total");
    const won = gambleResult({ wheel: "cash", option: 1 }, 400, { ...state, amount: 800, finished: false }, money);
    expect(won.amount).toBe("Your win: 800 credits (€8.00)");
    expect(won.said).toBe("WON: your win is now 800 credits (€8.00)");
    const lost = gambleResult({ wheel: "cash", option: 2 }, 300, { ...state, collected: 100 }, money);
    expect(lost).toEqual({ title: "LOSE", amount: "−300 credits (€3.00)", lines: [], said: "LOST: −300 credits (€3.00)" });
    expect(gambleResult({ wheel: "cash", option: 1 }, 3, { ...state, amount: 6, collected: 2, finished: false }, money).amount).toBe("At stake: 6 credits (€0.06)");
  });
  it("the WIN meter shows what the panel says once the pointer stops", () => {
    const won = { ...state, amount: 6, finished: false };
    expect(meterAfterSpin(false, won)).toBe(6);
    expect(gambleResult({ wheel: "cash", option: 0 }, 5, won).said).toContain(`${meterAfterSpin(false, won)} credits`);
    expect(meterAfterSpin(false, { ...state, amount: 0, collected: 2 })).toBe(2);
    expect(meterAfterSpin(false, { ...state, amount: 0 })).toBe(0);
    expect(meterAfterSpin(true, { ...state, bonus_won: 2 })).toBeNull();
  });
  it("a won cash spin at the limit says it was collected", () => {
    expect(gambleResult({ wheel: "cash", option: 2 }, 400, { ...state, amount: 1200, finished: true }).lines[1]).toMatch(/collected/);
  });
  it("a lost spin says what was lost, once; what was kept is the panel's kept line's to say", () => {
    const r = gambleResult({ wheel: "cash", option: 2 }, 300, { ...state, collected: 100 });
    expect(r).toEqual({ title: "LOSE", amount: "−300 credits", lines: [], said: "LOST: −300 credits" });
    const bonus = gambleResult({ wheel: "bonus", bonus: 2 }, 300, { ...state, collected: 200, bonus_won: 2 });
    expect([bonus.said, ...bonus.lines].join(" ")).not.toMatch(/kept/);
  });
  it("a won bonus names the bonus the server says was won", () => {
    const r = gambleResult({ wheel: "bonus", bonus: 2 }, 500, { ...state, bonus_won: 2 });
    expect(r.title).toBe("WIN");
    expect(r.amount).toBe("SUPER BIG MONEY BONUS");
  });
});

// The wheels' chance in a player's words (wheel.ts chanceWords): the nearest fraction with a
// denominator up to 10 at one half or more, else 1 in N; "about" unless it is exact; the
// exact percentage kept for the tooltip.
describe("the chance of green in words", () => {
  it("says exact fractions plainly and near ones with about", () => {
    expect(chanceWords(0.5).words).toBe("1 in 2");
    expect(chanceWords(0.75).words).toBe("3 in 4");
    expect(chanceWords(400 / 533).words).toBe("about 3 in 4");
    expect(chanceWords(1 / 3).words).toBe("1 in 3");
    expect(chanceWords(0.7826).words).toBe("about 7 in 9");
    expect(chanceWords(400 / 35239.191577).words).toBe("about 1 in 88");
    expect(chanceWords(1).words).toBe("certain");
  });
  it("keeps the exact figure for the tooltip", () => {
    expect(chanceWords(400 / 533).exact).toBe("75.05%");
    expect(chanceWords(0.00001).exact).toBe("under 0.01%");
  });
});
