import { describe, expect, it } from "vitest";
import { instalmentState, nextDue, poolCurrency, type ClaimRow } from "../../src/backoffice/control";

const YEAR_US = 365 * 86400 * 1e6;

function claim(over: Partial<ClaimRow>): ClaimRow {
  return {
    id: 7, pool: "Cluedo MegaJackpots/EUR", round_id: "r1", player_id: 3, amount_minor: 103, status: "verified",
    created_at_us: 0, verified_by: "mia", verified_at_us: 1e15,
    instalments: [
      { idx: 0, amount_minor: 8, due_at_us: 1e15, paid_at_us: null, paid_by: null, txn: null },
      { idx: 1, amount_minor: 5, due_at_us: 1e15 + YEAR_US, paid_at_us: null, paid_by: null, txn: null },
    ],
    ...over,
  };
}

describe("back office jackpot claims", () => {
  it("offers to pay only the first unpaid instalment, once due, of a verified claim", () => {
    expect(nextDue(claim({}), 1e15)).toBe(0);
    expect(nextDue(claim({}), 1e15 - 1)).toBeNull();
    expect(nextDue(claim({ status: "pending_verification" }), 1e15)).toBeNull();
    const first = claim({}).instalments[0]!;
    const paidFirst = claim({ instalments: [{ ...first, paid_at_us: 1e15, paid_by: "mia" }, claim({}).instalments[1]!] });
    expect(nextDue(paidFirst, 1e15 + 1)).toBeNull();
    expect(nextDue(paidFirst, 1e15 + YEAR_US)).toBe(1);
  });

  it("says an instalment's state in words, and a pool's currency from its key", () => {
    expect(instalmentState({ idx: 0, amount_minor: 8, due_at_us: null, due: "on verification", paid_at_us: null, paid_by: null, txn: null })).toBe("due on verification");
    expect(instalmentState({ idx: 0, amount_minor: 8, due_at_us: Date.UTC(2027, 0, 2) * 1000, paid_at_us: null, paid_by: null, txn: null })).toBe("due 2027-01-02");
    expect(instalmentState({ idx: 0, amount_minor: 8, due_at_us: 0, paid_at_us: Date.UTC(2026, 11, 6) * 1000, paid_by: "max", txn: "t" })).toBe("paid 2026-12-06 by max");
    expect(poolCurrency("Cluedo MegaJackpots/GBP")).toBe("GBP");
  });
});
