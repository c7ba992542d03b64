// The generic handlers: one for every event type of the Outcome schema, drawing plainly through
// the SlotView (land, highlight, a banner). No Pixi here, so they run against a fake view in
// the unit tests. A game module spreads them and replaces the ones it draws better.
import type { OutcomeEvent } from "../../core/outcome";
import type { Handlers } from "../../core/player";
import { formatCredits } from "../../core/money";
import type { GameView } from "../../net/types";
import { clusterCells, lineCells, symbolCells, waysCells } from "../../slot/paylines";
import type { SlotView } from "./registry";

type Described = Pick<GameView, "info">;

function wildsOf(game: Described): Set<string> {
  return new Set(game.info.symbols.filter((s) => s.role === "wild" || s.id.includes("WILD")).map((s) => s.id));
}

/** A plain handler for every event type of the Outcome schema. */
export function genericHandlers(game: Described): Required<Handlers<SlotView>> {
  const paylines = game.info.paylines ?? [];
  const wilds = wildsOf(game);
  // the game file's name for a symbol (Emerald, 10), as its tile and the paytable show it
  const nameOf = (id: string) => game.info.symbols.find((s) => s.id === id)?.name || id;
  const simple = (text: (e: never) => string, sfx?: "feature") => async (e: OutcomeEvent, ctx: { view: SlotView; fast: boolean }) => {
    if (sfx) ctx.view.sound(sfx);
    await ctx.view.banner(text(e as never), { ms: 900, fast: ctx.fast });
  };
  return {
    window: async (e, ctx) => { await ctx.view.land(e.symbols, { fast: ctx.fast }); },
    grid: async (e, ctx) => {
      if (e.tumble === 0) await ctx.view.land(e.symbols, { fast: ctx.fast });
      else await ctx.view.tumble(e.symbols, { fast: ctx.fast });
    },
    line_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      await ctx.view.highlight(lineCells(paylines, e.line, e.count), `Line ${e.line}: ${formatCredits(e.win)}`, { fast: ctx.fast, line: lineCells(paylines, e.line, paylines[e.line - 1]?.length ?? e.count) });
    },
    ways_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      const cells = waysCells(ctx.view.current(), e.symbol, e.count, wilds);
      await ctx.view.highlight(cells, `${nameOf(e.symbol)}: ${e.ways} way${e.ways === 1 ? "" : "s"}, ${formatCredits(e.win)}`, { fast: ctx.fast });
    },
    scatter_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      // the multiplier applied (a free game's, a pays-anywhere game's global one) is named
      const times = e.multiplier > 1 ? ` (x${e.multiplier})` : "";
      await ctx.view.highlight(symbolCells(ctx.view.current(), e.symbol), `${e.count} x ${nameOf(e.symbol)}${times}: ${formatCredits(e.win)}`, { fast: ctx.fast });
    },
    cluster_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      const cells = clusterCells(ctx.view.current(), e.symbol, e.size, wilds)[0] ?? symbolCells(ctx.view.current(), e.symbol);
      await ctx.view.highlight(cells, `${e.size} x ${nameOf(e.symbol)}: ${formatCredits(e.win)}`, { fast: ctx.fast });
    },
    progressive_jackpot: simple((e: { count: number; symbol: string }) => `JACKPOT! ${e.count} x ${e.symbol}`),
    cash: async (e, ctx) => { await ctx.view.highlight([[e.reel, e.row]], `${e.value}x`, { fast: true }); },
    collection: async (e, ctx) => { ctx.view.setWin(ctx.won); await ctx.view.banner(`Collected ${e.values}x${e.multiplier > 1 ? ` x${e.multiplier}` : ""}: ${formatCredits(e.win)}`, { fast: ctx.fast }); },
    trail: async (e, ctx) => { ctx.view.setSpinInfo(`Robber ${e.robber} - Cop ${e.cop}`); },
    parade: simple((e: { result: string }) => `ID parade: ${e.result}`),
    // a game module names its own bonus (Cops n Robbers: BIG MONEY BONUS); generic: the count
    bonus: simple((e: { trigger_count: number; start_multiplier: number }) => `BONUS: ${e.trigger_count} symbols${e.start_multiplier > 1 ? ` x${e.start_multiplier}` : ""}`, "feature"),
    free_spins_award: simple((e: { spins_awarded: number }) => `${e.spins_awarded} FREE SPINS`, "feature"),
    random_multiplier: simple((e: { value: number }) => `Multiplier x${e.value}`),
    wilds_placed: simple((e: { count: number }) => `${e.count} wilds placed`),
    jars: async (e, ctx) => { if (e.triggered) await ctx.view.banner("Jars full: FREE SPINS", { fast: ctx.fast }); },
    free_spins_triggered: simple((e: { spins: number; modifiers: string[] }) => `${e.spins} FREE SPINS ${e.modifiers.join(" + ").toUpperCase()}`, "feature"),
    extra_free_spins: simple((e: { spins_awarded: number }) => `+${e.spins_awarded} free spins`),
    // a wild's drawn multiplier, drawn on its cell until the reels spin again
    wild_multiplier: async (e, ctx) => { ctx.view.markCell?.([e.reel, e.row], `x${e.value}`); },
    jackpot: async (e, ctx) => { ctx.view.setWin(ctx.won); await ctx.view.banner(`${e.jackpot.toUpperCase()} JACKPOT ${formatCredits(e.win)}`, { fast: ctx.fast }); },
  };
}
