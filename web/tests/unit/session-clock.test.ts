import { describe, expect, it } from "vitest";
import { formatElapsed, formatNet, sessionLine } from "../../src/ui/sessionClock";

describe("the UK session line (standards.md C6)", () => {
  it("shows elapsed time as hh:mm:ss, whole seconds", () => {
    expect(formatElapsed(0)).toBe("00:00:00");
    expect(formatElapsed(999)).toBe("00:00:00");
    expect(formatElapsed(59_999)).toBe("00:00:59");
    expect(formatElapsed(60_000)).toBe("00:01:00");
    expect(formatElapsed((12 * 60 + 34) * 1000)).toBe("00:12:34");
    expect(formatElapsed((3600 + 2 * 60 + 3) * 1000)).toBe("01:02:03");
    expect(formatElapsed(100 * 3600 * 1000)).toBe("100:00:00"); // no wrap past 99 hours
    expect(formatElapsed(-5000)).toBe("00:00:00"); // a client clock behind the server's
  });
  it("signs the net position, in currency", () => {
    expect(formatNet(-320, "EUR")).toBe("\u2212€3.20");
    expect(formatNet(150, "GBP")).toBe("+£1.50");
    expect(formatNet(0, "GBP")).toBe("£0.00");
    expect(formatNet(-123456, "GBP")).toBe("\u2212£1,234.56");
  });
  it("reads as one line", () => {
    expect(sessionLine((12 * 60 + 34) * 1000 + 500, -320, "EUR")).toBe("Session 00:12:34 · Net \u2212€3.20");
  });
});
