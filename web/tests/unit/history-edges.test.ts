// The history's "What happened" fades an edge where it cuts a line (screens/history/edges.ts).
import { describe, expect, it } from "vitest";
import { cutEdges } from "../../src/screens/history/edges";

describe("the history account's faded edges", () => {
  it("fades an edge with more of the list beyond it, and only such an edge", () => {
    expect(cutEdges(0, 400, 400)).toBe("");
    expect(cutEdges(0, 400, 900)).toBe("bottom");
    expect(cutEdges(250, 400, 900)).toBe("top bottom");
    expect(cutEdges(500, 400, 900)).toBe("top");
  });
});
