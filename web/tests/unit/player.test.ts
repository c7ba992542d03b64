// The event player against a fake view, with real outcomes exported from the server's round code.
import { describe, expect, it } from "vitest";
import type { Outcome } from "../../src/core/outcome";
import { validateOutcome } from "../../src/core/outcome";
import { formatCredits } from "../../src/core/money";
import { EventPlayer, Stopped, UnknownEvent } from "../../src/core/player";
import { TimeoutError } from "../../src/core/timing";
import { genericHandlers } from "../../src/screens/game/handlers";
import type { SlotView } from "../../src/screens/game/registry";
import { GAME_KEYS, fixture } from "./fixtures";
import { RecordingView } from "./recording-view";

class FakeView extends RecordingView {
  constructor() { super(["spinStart", "land", "tumble", "show", "highlight", "banner"]); }
}

function outcomeOf(key: string, kind: string): Outcome {
  const round = fixture(key).rounds.find((r) => r.kind === kind);
  if (!round) throw new Error(`no ${kind} fixture for ${key}`);
  return validateOutcome(round.outcome);
}

describe("event player", () => {
  for (const key of GAME_KEYS) {
    const f = fixture(key);
    for (const round of f.rounds) {
      it(`plays ${key} ${round.kind} (seed ${round.seed}) event by event, the win meter ending on total_win`, async () => {
        const outcome = validateOutcome(round.outcome);
        const view = new FakeView();
        const player = new EventPlayer<SlotView>(genericHandlers(f), {}, { timeoutMs: 2000 });
        const won = await player.play(view, outcome);
        expect(won).toBe(outcome.spins.reduce((a, s) => a + s.win, 0));
        expect(won).toBe(outcome.total_win);
        const events = outcome.spins.flatMap((s) => s.events);
        expect(view.calls.filter((c) => c === "land" || c === "tumble").length).toBe(events.filter((e) => e.type === "window" || e.type === "grid").length);
        for (const w of view.wins) expect(w).toBeLessThanOrEqual(outcome.total_win);
        for (const { cells } of view.highlights) for (const [reel, row] of cells) {
          expect(reel).toBeLessThan(f.info.window.reels);
          expect(row).toBeLessThan(f.info.window.rows);
        }
      });
    }
  }

  it("holds the win meter at a capped round's total_win, the amount its celebration counts to (a capped line round's spins add up past it)", async () => {
    let checked = 0;
    for (const key of GAME_KEYS) {
      const f = fixture(key);
      for (const round of f.rounds) {
        const raw = structuredClone(round.outcome) as unknown as Outcome;
        const sum = raw.spins.reduce((a, s) => a + s.win, 0);
        if (sum < 2 || raw.win_capped) continue;
        // the cap one credit under what the spins paid, as lines.py cap_round leaves it
        raw.win_capped = true;
        raw.uncapped_win = sum;
        raw.total_win = sum - 1;
        const outcome = validateOutcome(raw);
        const view = new FakeView();
        const won = await new EventPlayer<SlotView>(genericHandlers(f), {}, { timeoutMs: 2000 }).play(view, outcome);
        expect(won).toBe(sum - 1);
        for (const w of view.wins) expect(w).toBeLessThanOrEqual(sum - 1);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("names the global multiplier a pays-anywhere win was paid at, and tumbles its grids", async () => {
    const f = fixture("anywhere-example");
    let named = 0;
    for (const round of f.rounds) {
      const outcome = validateOutcome(round.outcome);
      const view = new FakeView();
      await new EventPlayer<SlotView>(genericHandlers(f), {}, { timeoutMs: 2000 }).play(view, outcome);
      const events = outcome.spins.flatMap((s) => s.events);
      for (const e of events) {
        if (e.type !== "scatter_win" || e.multiplier <= 1) continue;
        const name = f.info.symbols.find((s) => s.id === e.symbol)?.name; // the game file's name, as the tile shows it
        expect(name).toBeTruthy();
        expect(view.calls.some((c) => c.startsWith(`highlight ${e.count} x ${name} (x${e.multiplier}) pays `))).toBe(true);
        named++;
      }
      expect(view.calls.filter((c) => c === "tumble").length).toBe(events.filter((e) => e.type === "grid" && e.tumble > 0).length);
    }
    expect(named).toBeGreaterThan(0);
  });

  it("names every win as a sentence while it is paid: what won, how, and its pay in credits", async () => {
    // the playtest read "Line 1: 15" and "A: 1 way, 6"
    const paid = (n: number) => `pays ${n.toLocaleString("en")} credit${n === 1 ? "" : "s"}`;
    const seen = new Set<string>();
    for (const key of GAME_KEYS) {
      const f = fixture(key);
      const name = (id: string) => f.info.symbols.find((s) => s.id === id)?.name || id;
      for (const round of f.rounds) {
        const outcome = validateOutcome(round.outcome);
        const view = new FakeView();
        await new EventPlayer<SlotView>(genericHandlers(f), {}, { timeoutMs: 2000 }).play(view, outcome);
        const said = view.calls.filter((c) => c.startsWith("highlight ")).map((c) => c.slice("highlight ".length));
        for (const e of outcome.spins.flatMap((s) => s.events)) {
          let want: RegExp | null = null;
          const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          if (e.type === "line_win") want = new RegExp(`^Line ${e.line}: ${e.count} x ${esc(name(e.symbol))}( \\(x\\d+\\))? ${paid(e.win)}$`);
          else if (e.type === "ways_win") want = new RegExp(`^Ways: ${esc(name(e.symbol))} x${e.count}, ${e.ways} way${e.ways === 1 ? "" : "s"}, ${paid(e.win)}$`);
          else if (e.type === "scatter_win") want = new RegExp(`^${e.count} x ${esc(name(e.symbol))}( \\(x\\d+\\))? ${paid(e.win)}$`);
          else if (e.type === "cluster_win") want = new RegExp(`^${e.size} x ${esc(name(e.symbol))}( \\(x\\d+\\))? ${paid(e.win)}$`);
          if (!want) continue;
          expect(said.some((s) => want.test(s)), `${key}: no caption like ${want} among ${JSON.stringify(said)}`).toBe(true);
          seen.add(e.type);
        }
      }
    }
    expect([...seen].sort()).toEqual(["cluster_win", "line_win", "scatter_win", "ways_win"]);
  });

  it("highlights a line win on the payline's cells, showing the symbol it names", async () => {
    const f = fixture("cluedo");
    const outcome = outcomeOf("cluedo", "win");
    const view = new FakeView();
    await new EventPlayer<SlotView>(genericHandlers(f)).play(view, outcome);
    const lineWins = outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "line_win"));
    const windows = outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "window"));
    if (lineWins.length && outcome.spins.length === 1) {
      const first = lineWins[0] as { line: number; count: number; symbol: string };
      const cells = view.highlights[0]!.cells;
      expect(cells.length).toBe(first.count);
      const win = (windows[0] as { symbols: string[][] }).symbols;
      const wilds = new Set(f.info.wilds?.map((w) => w.symbol));
      for (const [reel, row] of cells) {
        const s = win[reel]?.[row] ?? "";
        expect(s === first.symbol || wilds.has(s)).toBe(true);
      }
    }
  });

  it("plays hold-and-win respins with the generic handlers: a coin held per prize, the collection, a window per respin", async () => {
    const f = fixture("holdwin-example");
    const outcome = outcomeOf("holdwin-example", "flag:bonus");
    const view = new FakeView();
    await new EventPlayer<SlotView>(genericHandlers(f)).play(view, outcome);
    const events = outcome.spins.flatMap((s) => s.events);
    const cash = events.filter((e) => e.type === "cash") as { reel: number; row: number; value: number }[];
    expect(cash.length).toBeGreaterThanOrEqual(6);
    // each prize locks with the respins left and the coins' total said (a view without the
    // hold-and-win meter: in the spin counter line), the last total the collection's pay
    const said = view.spinInfo.filter((t) => t.startsWith("Respins left "));
    expect(said.length).toBe(1 + cash.length);
    const collection = events.find((e) => e.type === "collection") as { win: number };
    const named = (events.filter((e) => e.type === "jackpot") as { jackpot: string; win: number }[]).filter((j) => j.jackpot !== "GRAND");
    expect(said.at(-1)).toBe(`Respins left 3 · Total ${formatCredits(collection.win + named.reduce((a, j) => a + j.win, 0))}`);
    expect(view.calls.some((c) => c.startsWith("banner HOLD & WIN"))).toBe(true);
    expect(view.calls.some((c) => /^highlight \d+ COINS PAY/.test(c))).toBe(true);
    expect(view.calls.filter((c) => c === "land").length).toBe(outcome.spins.length);
    // the last respin's window shows every prize locked, on the blank symbol elsewhere
    const locked = new Set(cash.map((c) => `${c.reel},${c.row}`));
    view.grid.forEach((col, r) => col.forEach((s, h) => expect(s).toBe(locked.has(`${r},${h}`) ? "COIN" : "BLANK")));
  });

  it("plays events strictly one at a time, in order", async () => {
    const outcome = outcomeOf("candy-jar-clusters", "win");
    const order: string[] = [];
    let running = 0;
    const handlers = Object.fromEntries(Object.keys(genericHandlers(fixture("candy-jar-clusters"))).map((t) => [t, async () => {
      running++;
      expect(running).toBe(1);
      order.push(t);
      await new Promise((r) => setTimeout(r, 1));
      running--;
    }]));
    await new EventPlayer<SlotView>(handlers).play(new FakeView(), outcome);
    expect(order).toEqual(outcome.spins.flatMap((s) => s.events.map((e) => e.type)));
  });

  it("refuses an outcome with an event type it has no handler for, before drawing anything", async () => {
    const outcome = outcomeOf("cluedo", "win");
    const view = new FakeView();
    const { line_win: _unused, scatter_win: _also, ...partial } = genericHandlers(fixture("cluedo"));
    const player = new EventPlayer<SlotView>({ window: partial.window });
    await expect(player.play(view, outcome)).rejects.toThrow(UnknownEvent);
    expect(view.calls).toEqual([]);
  });

  it("fails a handler that never finishes after its timeout", async () => {
    const outcome = outcomeOf("cluedo", "loss");
    const player = new EventPlayer<SlotView>({ window: () => new Promise<void>(() => {}) }, {}, { timeoutMs: 50 });
    await expect(player.play(new FakeView(), outcome)).rejects.toThrow(TimeoutError);
  });

  it("goes on past a handler that overran when told to, and still counts the round's win", async () => {
    const outcome = outcomeOf("cluedo", "win");
    const late: string[] = [];
    const hang = () => new Promise<void>(() => {});
    const handlers = { ...genericHandlers(fixture("cluedo")), window: hang };
    const player = new EventPlayer<SlotView>(handlers, {}, { timeoutMs: 20, onLate: "continue", late: (e) => late.push(e.what) });
    const view = new FakeView();
    expect(await player.play(view, outcome)).toBe(outcome.total_win);
    expect(late).toEqual(outcome.spins.filter((s) => s.events.some((e) => e.type === "window")).map((s) => `event window of spin ${s.index}`));
  });

  it("stops before the next event once its screen is left, drawing nothing more", async () => {
    const outcome = outcomeOf("candy-jar-clusters", "win");
    const view = new FakeView();
    let live = true;
    const handlers = Object.fromEntries(Object.entries(genericHandlers(fixture("candy-jar-clusters"))).map(([t, run]) => [t, async (e: never, ctx: never) => {
      await (run as (e: never, c: never) => Promise<void> | void)(e, ctx);
      live = false; // the player went to the info page while the first event played
    }]));
    await expect(new EventPlayer<SlotView>(handlers, {}, { live: () => live }).play(view, outcome)).rejects.toThrow(Stopped);
    const first = outcome.spins[0]!.events[0]!.type;
    expect(view.calls.length).toBe(view.calls.filter((c) => c.startsWith(first === "grid" ? "land" : first)).length);
  });

  it("resumes from a spin, counting what the earlier spins won", async () => {
    const outcome = outcomeOf("cluedo", "flag:free_spins");
    const view = new FakeView();
    const won = await new EventPlayer<SlotView>(genericHandlers(fixture("cluedo"))).play(view, outcome, { fromSpin: 1 });
    expect(won).toBe(outcome.total_win);
    expect(view.calls.filter((c) => c === "land").length).toBe(outcome.spins.length - 1);
  });
});
