// A line game's drawn wild multipliers (the generic handlers): each wild_multiplier event marks
// its cell on the view, after the window lands and before the line wins it multiplies. The
// round is a real one (wildmult-round.json: its `command` says how the server's round code
// played it).
import { describe, expect, it } from "vitest";
import type { Cell } from "../../src/core/outcome";
import { validateOutcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import { genericHandlers } from "../../src/screens/game/handlers";
import type { SlotView } from "../../src/screens/game/registry";
import round from "./wildmult-round.json";
import { RecordingView } from "./recording-view";

class MarkingView extends RecordingView {
  constructor() { super(["land", "highlight"]); }
  markCell([reel, row]: Cell, text: string) { this.calls.push(`mark ${reel},${row} ${text}`); }
}

describe("wild multipliers", () => {
  it("marks each wild's cell with the multiplier it drew, after the landing, before the wins", async () => {
    const outcome = validateOutcome(round.outcome);
    const view = new MarkingView();
    const game = { info: round.info } as unknown as Parameters<typeof genericHandlers>[0];
    await new EventPlayer<SlotView>(genericHandlers(game), {}, { timeoutMs: 2000 }).play(view, outcome);
    const draws = outcome.spins[0]!.events.filter((e) => e.type === "wild_multiplier");
    expect(draws.length).toBeGreaterThan(1);
    const marks = draws.map((e) => `mark ${e.reel},${e.row} x${e.value}`);
    expect(view.calls.filter((c) => c.startsWith("mark "))).toEqual(marks);
    for (const e of draws) expect(view.grid[e.reel]![e.row]).toBe("WILD"); // marks sit on wilds
    const first = view.calls.findIndex((c) => c.startsWith("mark "));
    expect(view.calls.indexOf("land")).toBeLessThan(first);
    expect(view.calls.findIndex((c) => c.startsWith("highlight"))).toBeGreaterThan(first + draws.length - 1);
  });
});
