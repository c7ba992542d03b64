import { describe, expect, it } from "vitest";
import type { MeterRow, RtpRow } from "../../src/backoffice/api";
import { utcDay } from "../../src/backoffice/api";
import { meterCells, METER_HEADINGS, RTP_HEADINGS, rtpCells, totals } from "../../src/backoffice/view";

function meter(over: Partial<MeterRow>): MeterRow {
  return {
    day: "2026-12-04", operator: "demo", game: "cluedo", mode: "base", currency: "EUR", rounds: 3,
    turnover_minor: 6000, wins_minor: 4512, hold_minor: 1488, rtp: 0.752,
    gamble_rounds: 0, gamble_staked_minor: 0, gamble_won_minor: 0, gamble_rtp: null,
    step_wagers: 0, step_wagered_minor: 0, funded_won_minor: 0, house_net_minor: 0,
    jackpot_wins: 0, jackpot_paid_minor: 0, voided_rounds: 0, ...over,
  };
}

describe("back office meters", () => {
  it("shows one cell per heading, money from integer minor units", () => {
    const cells = meterCells(meter({}));
    expect(cells).toHaveLength(METER_HEADINGS.length);
    expect(cells).toEqual(["demo", "cluedo", "base", "3", "€60.00", "€45.12", "€14.88", "75.20%", "—", "—", "—", "0"]);
  });

  it("shows the gamble and the balance wagers apart from the paytable", () => {
    const cells = meterCells(meter({ gamble_rounds: 2, gamble_staked_minor: 300, gamble_won_minor: 600,
      step_wagers: 1, step_wagered_minor: 150, funded_won_minor: 0 }));
    expect(cells.slice(8, 10)).toEqual(["€3.00 → €6.00 (2)", "€1.50 → €0.00 (1)"]);
  });

  it("shows what the jackpot pools paid and the voided rounds apart (H2)", () => {
    const cells = meterCells(meter({ jackpot_wins: 2, jackpot_paid_minor: 2_500_000, voided_rounds: 3 }));
    expect(cells.slice(10)).toEqual(["€25,000.00 (2)", "3"]);
  });

  it("shows a dash for the RTP of a day without turnover", () => {
    expect(meterCells(meter({ turnover_minor: 0, wins_minor: 0, hold_minor: 0, rtp: null }))[7]).toBe("—");
  });

  it("totals per currency, never across currencies", () => {
    const sums = totals([meter({}), meter({ game: "candy", rounds: 2, turnover_minor: 40, wins_minor: 10 }),
      meter({ currency: "GBP", rounds: 1, turnover_minor: 500, wins_minor: 0 })]);
    expect(sums.get("EUR")).toEqual({ rounds: 5, turnover: 6040, wins: 4522 });
    expect(sums.get("GBP")).toEqual({ rounds: 1, turnover: 500, wins: 0 });
  });

  it("names the UTC day, whatever the local time zone", () => {
    expect(utcDay(new Date(Date.UTC(2026, 11, 31, 23, 59, 59)))).toBe("2026-12-31");
  });
});

describe("back office RTP report", () => {
  const base: RtpRow = {
    operator: "demo", game: "candy-jar-clusters", mode: "base", currency: "EUR", rounds: 14,
    turnover_minor: 520, wins_minor: 300, actual_rtp: 300 / 520, theoretical_rtp: 0.9598,
    theoretical_source: "estimate", round_sd: 18.9, sd_source: "estimate", effective_rounds: 11.3,
    confidence: 0.99, band: [-13.5, 15.4], inside: true,
  };

  it("shows the band as two percentages and the verdict in words", () => {
    const cells = rtpCells(base);
    expect(cells).toHaveLength(RTP_HEADINGS.length);
    expect(cells.slice(3)).toEqual(["14", "57.69%", "95.98% (estimate)", "0.00% to 1540.00%", "inside"]);
    expect(rtpCells({ ...base, inside: false })[7]).toBe("OUTSIDE");
    expect(rtpCells({ ...base, band: [0.9, 1.02] })[6]).toBe("90.00% to 102.00%");
  });

  it("says why a row has no band", () => {
    expect(rtpCells({ ...base, band: null, inside: null, round_sd: null })[7]).toBe("no SD: no band");
    expect(rtpCells({ ...base, band: null, inside: null, theoretical_rtp: null })[7]).toBe("no figure");
  });
});
