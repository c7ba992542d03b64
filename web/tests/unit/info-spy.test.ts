// The information page's table of contents lights the section being read.
import { describe, expect, it } from "vitest";
import { currentSection } from "../../src/screens/info/spy";

// sections 400 px tall, the view 900 px (reading line at 300), scrolled by `y`
const view = (y: number, extra: Partial<Parameters<typeof currentSection>[0]> = {}) =>
  ({ tops: [0, 400, 800, 1200, 1600].map((t) => t - y), height: 900, atEnd: false, picked: null, ...extra });

describe("the section being read", () => {
  it("is the first at the top of the page", () => {
    expect(currentSection(view(0))).toBe(0);
  });
  it("is the one whose heading passed the reading line, not one further down in view", () => {
    // at y=700 section 1 (top -300 .. 100) ends high up; section 2's heading at 100 is read now
    expect(currentSection(view(700))).toBe(2);
    // section 3's heading at 500 is in view but below the line: not yet
    expect(currentSection(view(450))).toBe(1);
  });
  it("at the end of the page, the section picked if it is in view, else the last", () => {
    expect(currentSection(view(1100, { atEnd: true }))).toBe(4);
    expect(currentSection(view(1100, { atEnd: true, picked: 3 }))).toBe(3);
    expect(currentSection(view(1100, { atEnd: true, picked: 0 }))).toBe(4);
  });
  it("none without sections", () => {
    expect(currentSection({ tops: [], height: 900, atEnd: false, picked: null })).toBe(-1);
  });
});
