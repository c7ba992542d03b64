import { describe, expect, it } from "vitest";
import { creditsOf, formatCredits, formatMoney, minorOf, MoneyError } from "../../src/core/money";

describe("money", () => {
  it("formats minor units with the currency's decimals, integers only", () => {
    expect(formatMoney(123456, "EUR")).toBe("€1,234.56");
    expect(formatMoney(5, "GBP")).toBe("£0.05");
    expect(formatMoney(-5, "GBP")).toBe("-£0.05");
    expect(formatMoney(0, "EUR")).toBe("€0.00");
    expect(formatMoney(100000000, "EUR")).toBe("€1,000,000.00");
    expect(formatMoney(1234, "JPY")).toBe("¥1,234");
    expect(formatMoney(1234, "CHF")).toBe("12.34 CHF");
    expect(formatMoney(1234567, "KWD")).toBe("1,234.567 KWD");
  });
  it("never formats a float or an unsafe integer", () => {
    expect(() => formatMoney(1.5, "EUR")).toThrow(MoneyError);
    expect(() => formatMoney(2 ** 53, "EUR")).toThrow(MoneyError);
    expect(() => formatCredits(0.1)).toThrow(MoneyError);
  });
  it("turns minor units into whole credits at a denomination, rounding down", () => {
    expect(creditsOf(100000, 1)).toBe(100000);
    expect(creditsOf(100000, 5)).toBe(20000);
    expect(creditsOf(99, 5)).toBe(19);
    expect(creditsOf(-1, 5)).toBe(-1);
    expect(() => creditsOf(10, 0)).toThrow(MoneyError);
    expect(minorOf(20, 5)).toBe(100);
    expect(() => minorOf(2 ** 52, 4)).toThrow(MoneyError);
  });
  it("groups credits", () => {
    expect(formatCredits(24011840)).toBe("24,011,840");
    expect(formatCredits(999)).toBe("999");
    expect(formatCredits(-1000)).toBe("-1,000");
  });
  it("agrees with an independent big-integer rendering", () => {
    for (const v of [0, 1, 9, 10, 99, 100, 101, 999999, 1000000, 123456789012]) {
      const b = BigInt(v);
      const expected = `€${(b / 100n).toLocaleString("en")}.${String(b % 100n).padStart(2, "0")}`;
      expect(formatMoney(v, "EUR")).toBe(expected);
    }
  });
});
