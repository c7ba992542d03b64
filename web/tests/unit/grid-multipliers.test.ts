// A cluster game's grid multipliers drawn by the generic screen (cluster-mult-example, no module
// of its own): the generic handlers against a fake view, with the server's own outcomes
// (tools/export_web_fixtures.py), and the reels' badge layer against the Pixi stand-in.
import { describe, expect, it, vi } from "vitest";

vi.mock("pixi.js", () => import("./pixi-stub"));

import type { Outcome } from "../../src/core/outcome";
import { validateOutcome } from "../../src/core/outcome";
import { EventPlayer } from "../../src/core/player";
import { formatCredits } from "../../src/core/money";
import { cellMarkBox, cellMarkLook, ReelSet } from "../../src/render/reels";
import { LABEL_FIT } from "../../src/render/symbol-labels";
import { PROFILES } from "../../src/render/quality";
import { genericHandlers, genericHooks, gridMultiplierOf, gridMultipliersAfter, gridMultipliersBefore } from "../../src/screens/game/handlers";
import type { SlotView } from "../../src/screens/game/registry";
import { fixture } from "./fixtures";
import { RecordingView } from "./recording-view";

const KEY = "cluster-mult-example";

/** What the screen showed, in order: each land/tumble with the marks on the cells then, each
 * highlight's and banner's words, the console's spin field. */
class MarksView extends RecordingView {
  marks: number[][] | null = null;
  log: { what: string; marks: number[][] | null; text?: string }[] = [];
  constructor() { super(["spinStart", "land", "tumble", "highlight", "banner"]); }
  protected override note(what: string, text?: string) { this.log.push({ what, marks: this.marks && this.marks.map((c) => [...c]), text }); }
  override spinStart() { this.marks = null; super.spinStart(); }
  setCellMultipliers(cells: readonly (readonly number[])[] | null) { this.marks = cells ? cells.map((c) => [...c]) : null; this.note("marks"); }
}

function rounds(): { kind: string; outcome: Outcome }[] {
  return fixture(KEY).rounds.map((r) => ({ kind: r.kind, outcome: validateOutcome(r.outcome) }));
}

function round(kind: string): Outcome {
  const r = rounds().find((x) => x.kind === kind);
  if (!r) throw new Error(`no ${kind} fixture for ${KEY}`);
  return r.outcome;
}

async function play(view: MarksView, outcome: Outcome, hooks = false): Promise<number> {
  const f = fixture(KEY);
  view.spinStart();
  return new EventPlayer<SlotView>(genericHandlers(f), hooks ? genericHooks() : {}, { timeoutMs: 2000 }).play(view, outcome);
}

/** The events of the outcome as one list, with the spin each is in. */
function flat(outcome: Outcome) {
  return outcome.spins.flatMap((spin) => spin.events.map((e) => ({ spin, e })));
}

describe("grid multipliers on the generic grid screen", () => {
  it("the fixtures hold a win paid at a grid multiplier and free spins with marks", () => {
    const kinds = rounds().map((r) => r.kind);
    expect(kinds).toContain("grid_multiplier");
    expect(kinds).toContain("flag:free_spins");
  });

  for (const { kind, outcome } of rounds()) {
    it(`${kind}: after each tumble's wins the cells show that event's marks, and each spin lands on the round's marks so far`, async () => {
      const view = new MarksView();
      await play(view, outcome);
      // plain reference: walk the outcome; the marks on screen are the last grid_multipliers
      // event's cells, none before the first
      let expected: number[][] | null = null;
      const landed: (number[][] | null)[] = [];
      const afterEach: number[][][] = [];
      for (const { e } of flat(outcome)) {
        if (e.type === "grid" && e.tumble === 0) landed.push(expected);
        if (e.type === "grid_multipliers") { expected = e.cells; afterEach.push(e.cells); }
      }
      expect(view.log.filter((l) => l.what === "land").map((l) => l.marks)).toEqual(landed);
      // each grid_multipliers event drew its cells (the marks calls after the spin starts' ones)
      const drawn = view.log.filter((l, i) => l.what === "marks" && view.log[i + 1]?.what !== "land").map((l) => l.marks);
      expect(drawn).toEqual(afterEach);
      expect(view.marks).toEqual(expected);
    });
  }

  it("a cell's badge only appears and grows through a round (free spins included), never shrinks", async () => {
    const view = new MarksView();
    await play(view, round("flag:free_spins"));
    const shown = view.log.map((l) => l.marks).filter((m): m is number[][] => m !== null);
    expect(shown.length).toBeGreaterThan(1);
    for (let i = 1; i < shown.length; i++) {
      shown[i]!.forEach((col, r) => col.forEach((v, w) => expect(v).toBeGreaterThanOrEqual(shown[i - 1]![r]![w]!)));
    }
    // the free spins carried marks from before them: their first land shows some
    const firstFree = view.log.filter((l) => l.what === "land")[1];
    expect(firstFree?.marks?.flat().some((v) => v > 0)).toBe(true);
  });

  it("the next round starts with no marks (they last one round)", async () => {
    const view = new MarksView();
    await play(view, round("flag:free_spins"));
    expect(view.marks?.flat().some((v) => v > 1)).toBe(true);
    await play(view, round("loss"));
    expect(view.log.filter((l) => l.what === "land").at(-1)?.marks).toBeNull();
    expect(view.marks).toBeNull();
  });

  it("a cluster win paid at a grid multiplier names it", async () => {
    for (const { outcome } of rounds()) {
      const view = new MarksView();
      await play(view, outcome);
      // plain reference: per spin and tumble, the k-th cluster win goes with applied[k]
      const names = fixture(KEY).info.symbols;
      const expected: string[] = [];
      for (const spin of outcome.spins) {
        const seen = new Map<number, number>();
        for (const e of spin.events) {
          if (e.type !== "cluster_win") continue;
          const k = seen.get(e.tumble) ?? 0;
          seen.set(e.tumble, k + 1);
          const marks = spin.events.find((x) => x.type === "grid_multipliers" && x.tumble === e.tumble) as { applied: number[] } | undefined;
          const m = marks?.applied[k] ?? 1;
          expect(gridMultiplierOf(spin, e)).toBe(m);
          const name = names.find((s) => s.id === e.symbol)?.name ?? e.symbol;
          expected.push(`${e.size} x ${name}${m > 1 ? ` (x${m})` : ""} pays ${formatCredits(e.win)} credit${e.win === 1 ? "" : "s"}`);
        }
      }
      const said = view.log.filter((l) => l.what === "highlight" && !l.text?.includes("FREE SPINS")).map((l) => l.text);
      expect(said).toEqual(expected);
    }
    expect(flat(round("grid_multiplier")).some(({ e }) => e.type === "grid_multipliers" && e.applied.some((m) => m > 1))).toBe(true);
  });

  it("free spins: the scatters counted at the award, each spin numbered of those awarded, the total at the end", async () => {
    const outcome = round("flag:free_spins");
    const view = new MarksView();
    await play(view, outcome, true);
    const award = flat(outcome).find(({ e }) => e.type === "free_spins_award")!.e as { trigger_count: number; spins_awarded: number; total_awarded: number };
    expect(view.log.some((l) => l.what === "highlight" && l.text === `${award.trigger_count} SCATTERS: ${award.spins_awarded} FREE SPINS`)).toBe(true);
    const free = outcome.spins.filter((s) => s.kind === "free").length;
    expect(free).toBe(outcome.counters.free_spins_played);
    expect(view.spinInfo.slice(0, free)).toEqual(Array.from({ length: free }, (_, i) => `Free spin ${i + 1} of ${award.total_awarded}`));
    // (the fake view draws no moments: the outro's words are said in a banner)
    expect(view.log.at(-1)).toMatchObject({ what: "banner", text: `FREE SPINS TOTAL · ${formatCredits(outcome.breakdown.free_spins ?? -1)} · won in ${free} free spins` });
    expect(view.spinInfo.at(-1)).toBe("");
  });

  it("gridMultipliersBefore / After: none on the first spin, the last marks of the spins before otherwise", () => {
    const outcome = round("flag:free_spins");
    expect(gridMultipliersBefore(outcome, outcome.spins[0]!)).toBeNull();
    const last = outcome.spins.slice(0, -1).flatMap((s) => s.events).filter((e) => e.type === "grid_multipliers").at(-1) as { cells: number[][] };
    expect(gridMultipliersBefore(outcome, outcome.spins.at(-1)!)).toEqual(last.cells);
    // a recovered round's screen after its last spin: the round's last marks
    const final = outcome.spins.flatMap((s) => s.events).filter((e) => e.type === "grid_multipliers").at(-1) as { cells: number[][] };
    expect(gridMultipliersAfter(outcome, outcome.spins.length - 1)).toEqual(final.cells);
    expect(gridMultipliersAfter(round("loss"), 0)).toBeNull();
  });
});

describe("the reels' badge layer", () => {
  const ticker = { add() {}, remove() {} };
  const textures = { get: (id: string) => ({ id, width: 100 }) };
  const make = () => new ReelSet(textures as never, { reels: 3, rows: 2, cell: 100, gap: 8, strips: [["A", "B"]] }, PROFILES.HIGH, ticker as never, () => 0);
  const badges = (reels: ReelSet) => {
    const found: string[] = [];
    const walk = (n: { label?: string; children: unknown[] }) => { if (typeof n.label === "string" && n.label.startsWith("cell-mark-")) found.push(n.label); n.children.forEach((c) => walk(c as never)); };
    walk(reels as never);
    return found.sort();
  };

  it("draws a badge on each marked cell and none elsewhere; null clears them", () => {
    const reels = make();
    reels.setCellMarks([[0, 1], [2, 0], [0, 8]]);
    expect(badges(reels)).toEqual(["cell-mark-0-1", "cell-mark-1-0", "cell-mark-2-1"]);
    expect(reels.cellMarks()).toEqual([[0, 1], [2, 0], [0, 8]]);
    expect(reels.needsFrame()).toBe(true); // the new badges pop
    reels.setCellMarks(null);
    expect(badges(reels)).toEqual([]);
  });

  it("a badge lies in its cell's corner, under the symbol's name, readable on a phone", () => {
    // Cluster Mult Example's 7x7 grid (generic.ts: 91 design px cells) at 390x844 (about 0.47
    // CSS px per design px) and at 1440x900: the x16 and x8 badges covered the names at 390
    const cell = Math.floor(Math.min(1100 / 7, 640 / 7));
    const nameBottom = cell * (0.5 + LABEL_FIT.size / 2); // a one-line name, centred on the tile
    for (const screenScale of [0.47, 1.2]) for (const v of [1, 2, 4, 8, 16, 32, 64, 128, 1024]) {
      const look = cellMarkLook(v)!;
      const box = cellMarkBox(cell, screenScale, look);
      const at = `x${v} at ${screenScale}`;
      expect(box.y, at).toBeGreaterThanOrEqual(nameBottom);
      expect(box.x, at).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, at).toBeLessThanOrEqual(cell);
      expect(box.y + box.height, at).toBeLessThanOrEqual(cell * 1.05);
      if (look.text) expect(box.height * screenScale, at).toBeGreaterThanOrEqual(13); // CSS px
    }
  });

  it("a badge says its multiplier and grows with it", () => {
    expect(cellMarkLook(0)).toBeNull();
    expect(cellMarkLook(1)?.text).toBe("");
    const sizes = [2, 4, 8, 16, 32, 64, 128].map((v) => cellMarkLook(v)!);
    expect(sizes.map((l) => l.text)).toEqual(["x2", "x4", "x8", "x16", "x32", "x64", "x128"]);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]!.size).toBeGreaterThan(sizes[i - 1]!.size);
    expect(cellMarkLook(1)!.size).toBeLessThan(sizes[0]!.size);
  });
});
