// The generic rendering every game starts from: its reels (line games) or grid columns
// (cluster games) drawn from the game file's data, every outcome event type handled plainly
// (land, highlight, a banner). A game module overrides the handlers it draws better.
import type { Cell, OutcomeEvent } from "../../core/outcome";
import type { Handlers } from "../../core/player";
import { formatCredits } from "../../core/money";
import { sleep } from "../../core/timing";
import type { GameView } from "../../net/types";
import { ReelSet } from "../../render/reels";
import { SymbolTextures } from "../../render/symbols";
import { clusterCells, lineCells, symbolCells } from "../../slot/paylines";
import type { SlotView, ViewDeps } from "./registry";

function hold(ms: number, fast?: boolean): Promise<void> {
  return sleep(fast ? Math.min(ms, 150) : ms);
}

/** The reels or grid, drawn with Pixi, and the DOM banner over them. */
export class PixiSlotView implements SlotView {
  readonly reels: ReelSet;
  private readonly textures: SymbolTextures;
  private readonly unsubscribe: () => void;
  private readonly bannerEl: HTMLElement;
  private readonly stopAnimating: () => void;

  constructor(private readonly deps: ViewDeps) {
    const { stage, game } = deps;
    const { reels, rows } = game.info.window;
    const strips = this.stripsOf(game);
    const cell = Math.floor(Math.min(1100 / reels, 640 / rows));
    this.textures = new SymbolTextures(stage.app.renderer, deps.symbols, cell, stage.app.renderer.resolution);
    this.reels = new ReelSet(this.textures, { reels, rows, cell, gap: 8, strips }, stage.profile, stage.app.ticker);
    this.reels.on("reelstop", () => deps.sound("stop"));
    stage.root.addChild(this.reels);
    this.stopAnimating = stage.animate(() => this.reels.needsFrame());
    this.unsubscribe = stage.onLayout((design) => {
      const w = reels * (cell + 8) - 8, hgt = rows * cell;
      const scale = Math.min((design.width - 40) / w, (design.height - 60) / hgt, 1);
      this.reels.scale.set(scale);
      this.reels.position.set((design.width - w * scale) / 2, (design.height - hgt * scale) / 2);
    });
    this.bannerEl = document.createElement("div");
    this.bannerEl.className = "banner";
    this.bannerEl.hidden = true;
    this.bannerEl.setAttribute("role", "status");
    deps.overlay.appendChild(this.bannerEl);
  }

  private stripsOf(game: GameView): string[][] {
    const sets = game.info.reel_sets;
    const base = sets?.[game.info.base_reel_set ?? "base"];
    if (base?.length) return base;
    const ids = game.info.symbols.filter((s) => s.role !== "scatter").map((s) => s.id);
    return Array.from({ length: game.info.window.reels }, (_, r) => ids.map((_, i) => ids[(i * 7 + r * 3) % ids.length] ?? ids[0] ?? "?"));
  }

  spinStart(): void {
    this.reels.startSpin();
    this.deps.sound("spin");
  }
  land(symbols: string[][], options: { fast?: boolean } = {}): Promise<void> {
    return this.reels.land(symbols, options);
  }
  tumble(symbols: string[][], options: { fast?: boolean } = {}): Promise<void> {
    return this.reels.land(symbols, { stagger: 0, fast: options.fast });
  }
  show(symbols: string[][]): void {
    this.reels.show(symbols);
  }
  current(): string[][] {
    return this.reels.models.map((m) => m.visible());
  }
  async highlight(cells: Cell[], label: string, options: { fast?: boolean } = {}): Promise<void> {
    this.reels.highlight(cells);
    this.bannerEl.textContent = label;
    this.bannerEl.hidden = false;
    await hold(900, options.fast);
    this.bannerEl.hidden = true;
  }
  clearHighlight(): void {
    this.reels.clearHighlight();
  }
  async banner(text: string, options: { ms?: number; fast?: boolean } = {}): Promise<void> {
    this.bannerEl.textContent = text;
    this.bannerEl.hidden = false;
    await hold(options.ms ?? 1000, options.fast);
    this.bannerEl.hidden = true;
  }
  setWin(credits: number): void {
    this.deps.setWin(credits);
  }
  setSpinInfo(text: string): void {
    this.deps.setSpinInfo(text);
  }
  sound(effect: Parameters<SlotView["sound"]>[0]): void {
    this.deps.sound(effect);
  }
  destroy(): void {
    this.stopAnimating();
    this.unsubscribe();
    this.reels.destroy();
    this.textures.destroy();
    this.bannerEl.remove();
  }
}

function wildsOf(game: GameView): Set<string> {
  return new Set(game.info.symbols.filter((s) => s.role === "wild" || s.id.includes("WILD")).map((s) => s.id));
}

/** A plain handler for every event type of the Outcome schema. */
export function genericHandlers(game: GameView): Required<Handlers<SlotView>> {
  const paylines = game.info.paylines ?? [];
  const wilds = wildsOf(game);
  const simple = (text: (e: never) => string) => async (e: OutcomeEvent, ctx: { view: SlotView; fast: boolean }) => {
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
      await ctx.view.highlight(lineCells(paylines, e.line, e.count), `Line ${e.line}: ${formatCredits(e.win)}`, { fast: ctx.fast });
    },
    scatter_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      await ctx.view.highlight(symbolCells(ctx.view.current(), e.symbol), `${e.count} x ${e.symbol}: ${formatCredits(e.win)}`, { fast: ctx.fast });
    },
    cluster_win: async (e, ctx) => {
      ctx.view.setWin(ctx.won);
      ctx.view.sound("win");
      const cells = clusterCells(ctx.view.current(), e.symbol, e.size, wilds)[0] ?? symbolCells(ctx.view.current(), e.symbol);
      await ctx.view.highlight(cells, `${e.size} x ${e.symbol}: ${formatCredits(e.win)}`, { fast: ctx.fast });
    },
    progressive_jackpot: simple((e: { count: number; symbol: string }) => `JACKPOT! ${e.count} x ${e.symbol}`),
    cash: async (e, ctx) => { await ctx.view.highlight([[e.reel, e.row]], `${e.value}x`, { fast: true }); },
    collection: async (e, ctx) => { ctx.view.setWin(ctx.won); await ctx.view.banner(`Collected ${e.values}x${e.multiplier > 1 ? ` x${e.multiplier}` : ""}: ${formatCredits(e.win)}`, { fast: ctx.fast }); },
    trail: async (e, ctx) => { ctx.view.setSpinInfo(`Robber ${e.robber} - Cop ${e.cop}`); },
    parade: simple((e: { result: string }) => `ID parade: ${e.result}`),
    bonus: simple((e: { start_multiplier: number }) => `BIG MONEY BONUS x${e.start_multiplier}`),
    free_spins_award: simple((e: { spins_awarded: number }) => `${e.spins_awarded} FREE SPINS`),
    random_multiplier: simple((e: { value: number }) => `Multiplier x${e.value}`),
    wilds_placed: simple((e: { count: number }) => `${e.count} wilds placed`),
    jars: async (e, ctx) => { if (e.triggered) await ctx.view.banner("Jars full: FREE SPINS", { fast: ctx.fast }); },
    free_spins_triggered: simple((e: { spins: number; modifiers: string[] }) => `${e.spins} FREE SPINS ${e.modifiers.join(" + ").toUpperCase()}`),
    extra_free_spins: simple((e: { spins_awarded: number }) => `+${e.spins_awarded} free spins`),
    jackpot: async (e, ctx) => { ctx.view.setWin(ctx.won); await ctx.view.banner(`${e.jackpot.toUpperCase()} JACKPOT ${formatCredits(e.win)}`, { fast: ctx.fast }); },
  };
}
