// The generic rendering every game starts from: its reels (line games) or grid columns
// (cluster games) drawn from the game file's data, every outcome event type handled plainly
// (land, highlight, a banner). A game module overrides the handlers it draws better.
import type { Cell } from "../../core/outcome";
import { sleep } from "../../core/timing";
import type { GameView } from "../../net/types";
import { HUD_SHARE, type Rect, type Stage } from "../../render/app";
import { ReelSet } from "../../render/reels";
import { gameSymbolTable, SymbolTextures } from "../../render/symbols";
import { allAtOnce, cycleText, WIN_CYCLE_MS, type WinCycle } from "../../core/win-cycle";
import { formatCredits, formatMoney } from "../../core/money";
import { h } from "../../ui/dom";
import { showMoment } from "../../ui/moment";
import type { FeatureMoment } from "./feature-moments";
import { holdArt, holdInfoOf, type HeldCoin, type HoldAndWinInfo, type HoldMeter } from "./hold-and-win";
import type { SlotView, ViewDeps } from "./registry";
import { bandUnder, type BandUnder } from "./band-under";

export { genericHandlers } from "./handlers";

/** How long a win's caption is shown while it is paid (turbo: CAPTION_FAST_MS): the WIN
 * meter's count to it ends within it (shell.ts). */
export const CAPTION_MS = 900;
export const CAPTION_FAST_MS = 150;
/** The longest a caption waits for the frame that lights its cells: a hidden page draws none;
 * a loaded software-rendered browser was seen to draw none for over a second. */
const CAPTION_FRAME_WAIT_MS = 2500;

function hold(ms: number, fast?: boolean): Promise<void> {
  return sleep(fast ? Math.min(ms, CAPTION_FAST_MS) : ms);
}

/** What anticipation watches for: the symbols and count the game names as its feature's
 * trigger (`info.feature_trigger`), else the symbols whose role is scatter or bonus and how
 * many trigger the feature (the fewest the free games award for when the game file says, else 3). */
export function anticipationOf(game: Pick<GameView, "info">): { symbols: ReadonlySet<string>; need: number } | undefined {
  const trigger = game.info.feature_trigger;
  if (trigger) return { symbols: new Set(trigger.symbols), need: trigger.count };
  const symbols = new Set(game.info.symbols.filter((s) => s.role === "scatter" || s.role === "bonus").map((s) => s.id));
  if (!symbols.size) return undefined;
  const award = game.info.free_games?.award ?? [];
  return { symbols, need: award.length ? Math.min(...award.map(([count]) => count)) : 3 };
}

/** Empty cells, a coin now and then: what hold-and-win's reels spin by in its respins. */
function respinStrips(info: HoldAndWinInfo, reels: number): string[][] {
  return Array.from({ length: reels }, (_, r) => Array.from({ length: 8 }, (_, i) => (i === (r * 3) % 8 ? info.prize : info.blank)));
}

/** The smallest line marker (CSS px across) drawn beside the reels; below it the compact
 * treatment (a winning line's number in a COMPACT_BADGE_PX badge at the line's ends). */
const MARKER_MIN_PX = 16;
export const COMPACT_BADGE_PX = 26;

/** CSS px kept free under the reels' frame for the win's words (`winLabelsUnder`): one line
 * of the win label (.win-cycle, about 28 px) and the gap to the frame. */
const LABEL_STRIP_PX = 38;
/** Design px the default frame reaches beyond the window, its stroke included (render/reels.ts
 * DEFAULT_FRAME). */
const FRAME_PX = 14;

export interface PixiSlotViewOptions {
  /** The win's words (a win's label as it is paid, the cycle after the round) in a strip kept
   * free under the reels, never over a symbol (a playtest saw "8 Ruby pay 35" drawn over the
   * WILD of the cluster it named). The generic screen's games; a themed subclass keeps its
   * own placement. */
  winLabelsUnder?: boolean;
  /** The compact line badges (a phone's 20 lines): CSS px across and where they lie beyond the
   * window's side (render/reels.ts badgeOutset). Default COMPACT_BADGE_PX, half over the frame. */
  compactBadge?: { px: number; outset: number };
}

/** The reels or grid, drawn with Pixi, and the DOM banner over them. */
export class PixiSlotView implements SlotView {
  readonly reels: ReelSet;
  protected readonly textures: SymbolTextures;
  private readonly unsubscribe: () => void;
  private readonly bannerEl: HTMLElement;
  private readonly stopAnimating: () => void;
  /** The winning lines' cycle after the round (core/win-cycle.ts): its banner and timer. */
  private readonly cycleEl: HTMLElement;
  private cycleTimer: ReturnType<typeof setInterval> | undefined;

  /** CSS px kept under the frame for the win's words (0: they lie over the reels). */
  private readonly labelStrip: number;
  /** CSS px across a compact line badge (PixiSlotViewOptions.compactBadge). */
  private readonly compactPx: number;

  constructor(private readonly deps: ViewDeps, options: PixiSlotViewOptions = {}) {
    this.labelStrip = options.winLabelsUnder ? LABEL_STRIP_PX : 0;
    this.compactPx = options.compactBadge?.px ?? COMPACT_BADGE_PX;
    const { stage, game } = deps;
    const { reels, rows } = game.info.window;
    const strips = this.stripsOf(game);
    const cell = Math.floor(Math.min(1100 / reels, 640 / rows));
    this.hold = holdInfoOf(game);
    this.textures = new SymbolTextures(stage.app.renderer, gameSymbolTable({ ...holdArt(this.hold), ...deps.symbols }, game.info.symbols), cell, stage.app.renderer.resolution);
    this.reels = new ReelSet(this.textures, { reels, rows, cell, gap: 8, strips, frame: deps.theme?.frame, paylines: game.info.paylines, anticipation: anticipationOf(game), badgeOutset: options.compactBadge?.outset }, stage.profile, stage.app.ticker);
    this.reels.on("reelstop", (r: number) => deps.sound("stop", r));
    // where the winning lines' badges lie, for the layout check (tests/e2e/layout.mjs: none over
    // the window): design px of the reels, the window at 0,0, `width` the window's. A screen
    // that places its badges (compactBadge) says where; the default's lie half over the window.
    if (options.compactBadge) this.reels.on("badges", (badges: ReelSet["badges"]) => {
      if (!badges.length) { delete deps.overlay.dataset.lineBadges; return; }
      deps.overlay.dataset.lineBadges = JSON.stringify({ width: reels * (cell + 8) - 8, badges: badges.map((b) => [b.line, b.x, b.y, b.r].map((v) => Math.round(v * 10) / 10)) });
    });
    stage.root.addChild(this.reels);
    this.stopAnimating = stage.animate(() => this.reels.needsFrame());
    this.unsubscribe = stage.onLayout(() => this.layout());
    this.bannerEl = document.createElement("div");
    this.bannerEl.className = "banner";
    this.bannerEl.dataset.layout = "over-reels"; // a message meant to lie over the reels
    this.bannerEl.hidden = true;
    this.bannerEl.setAttribute("role", "status");
    deps.overlay.appendChild(this.bannerEl);
    // under the reels it is a panel of the screen, held clear of the reels and the console
    // (the layout check); over them, a message lying on the reels
    this.cycleEl = h("div", { class: "win-cycle", "data-testid": "win-cycle", "data-layout": this.labelStrip ? "decoration" : "over-reels", hidden: true });
    if (this.labelStrip) this.cycleEl.dataset.place = this.bannerEl.dataset.place = "under";
    deps.overlay.appendChild(this.cycleEl);
    // hold-and-win's respins left and coins' total, in the strip under the reels
    this.holdEl = h("div", { class: "hold-meter", "data-testid": "hold-meter", "data-layout": this.labelStrip ? "decoration" : "over-reels", role: "status", hidden: true });
    if (this.labelStrip) this.holdEl.dataset.place = "under";
    deps.overlay.appendChild(this.holdEl);
  }

  private readonly hold: HoldAndWinInfo | undefined;
  private readonly holdEl: HTMLElement;

  private money(credits: number): string {
    return formatMoney(credits * this.deps.game.denomination, this.deps.game.currency);
  }

  /** Hold-and-win: the locked coins held still on their cells, each with its value (credits,
   * then money; a named jackpot's name, then its credits), the empty cells spinning blanks;
   * the overlay's data-hold-coins lists them ("reel,row:credits", what the e2e tests read).
   * Resolves inside the frame that draws them (as a caption waits for its lit cells): the
   * meter's total changed then is shown with their values, not before (the playtest saw a
   * landed coin's value appear after the total had counted it). */
  holdCoins(coins: readonly HeldCoin[] | null, landed: readonly HeldCoin[] = []): Promise<void> {
    if (!this.hold) return Promise.resolve();
    const looks = (coins ?? []).map((c) => ({
      cell: c.cell, symbol: this.hold!.prize, jackpot: c.jackpot,
      lines: c.jackpot ? [c.jackpot, formatCredits(c.credits)] : [formatCredits(c.credits), this.money(c.credits)],
    }));
    this.reels.holdCoins(looks, new Set(landed.map((c) => `${c.cell[0]},${c.cell[1]}`)));
    this.reels.setSpinStrips(coins ? respinStrips(this.hold, this.deps.game.info.window.reels) : null);
    if (coins) this.deps.overlay.dataset.holdCoins = coins.map((c) => `${c.cell[0]},${c.cell[1]}:${c.credits}`).join(" ");
    else delete this.deps.overlay.dataset.holdCoins;
    // a hidden page draws no frame: nothing to keep in step with
    if (typeof document !== "undefined" && document.hidden) { this.deps.stage.invalidate(); return Promise.resolve(); }
    return Promise.race([this.deps.stage.drawn(), sleep(CAPTION_FRAME_WAIT_MS)]);
  }

  /** Hold-and-win's meter under the reels: the respins left (a pip each, lit while left), or a
   * full screen's GRAND, and the running total in credits and money; once collected, where the
   * trigger spin won too, the total and how it makes the round's win ("+ WAYS WIN 4 = WIN
   * 554") in the respins' place; null hides it. */
  holdMeter(state: HoldMeter | null): void {
    const el = this.holdEl;
    if (!state) { el.hidden = true; el.replaceChildren(); delete el.dataset.total; return; }
    const pips = Array.from({ length: state.respins }, (_, i) => h("i", { class: i < state.respinsLeft ? "on" : "" }));
    const rose = el.dataset.total !== undefined && Number(el.dataset.total) < state.total;
    const sum = state.base && state.won !== undefined
      ? h("span", { class: "hold-sum", "data-testid": "hold-sum", "data-base": String(state.base.win), "data-won": String(state.won) }, `+ ${state.base.name} `, h("b", {}, formatCredits(state.base.win)), " = WIN ", h("b", {}, formatCredits(state.won)))
      : null;
    el.replaceChildren(
      // a full screen's prize takes the respins' place: none are left, and it is in the total
      sum ? "" : state.grand
        ? h("span", { class: "hold-grand", "data-testid": "hold-grand" }, "GRAND ", h("b", {}, formatCredits(state.grand)))
        : h("span", { class: "hold-respins", "data-testid": "hold-respins", "data-left": String(state.respinsLeft) }, "RESPINS LEFT ", h("b", {}, String(state.respinsLeft)), h("span", { class: "pips", "aria-hidden": "true" }, ...pips)),
      h("span", { class: `hold-total${rose ? " rose" : ""}`, "data-testid": "hold-total" }, "TOTAL ", h("b", {}, formatCredits(state.total)), ` (${this.money(state.total)})`),
      sum ?? "",
    );
    el.dataset.total = String(state.total);
    el.hidden = false;
  }

  /** After the round: its winning lines drawn in turn (each WIN_CYCLE_MS, its marker lit, its
   * cells highlighted) until the next spin; `still` (reduced motion): all at once. The banner
   * names the line shown, or sums them up over three lines. A win paid on a screen a tumble
   * replaced since is lit on that screen (the one left on show comes back when the cycle
   * stops), and a tumbling, ways or pays-anywhere game's words name the round's total beside
   * it (cycleText). Null: nothing (and the cycle stops). */
  showWins(cycle: WinCycle | null, still = false): void {
    this.stopWins();
    if (!cycle?.wins.length || this.reels.destroyed) return;
    const el = this.cycleEl;
    const say = (line: string) => {
      el.replaceChildren(...(cycle.summary ? [h("strong", {}, cycle.summary), line ? h("span", {}, line) : ""] : [h("strong", {}, line)]));
    };
    el.hidden = false;
    if (this.labelStrip) this.holdMeter(null); // the cycle's words take the meter's place
    el.dataset.count = String(cycle.wins.length);
    const final = this.current();
    let shown = final;
    const onScreen = (grid: string[][]) => {
      if (grid !== shown) { this.reels.show(grid); shown = grid; }
    };
    this.cycleShown = { final, shown: () => shown };
    const paidOn = cycle.wins.some((w) => w.grid);
    if (still || cycle.wins.length === 1) {
      // all at once on the screen left on show; a win paid on an earlier screen: the first, held
      const held = paidOn ? cycle.wins[0]! : null;
      if (held?.grid) onScreen(held.grid);
      const all = held ? { cells: held.cells, paths: held.path.length ? [held.path] : [] } : allAtOnce(cycle);
      if (all.cells.length) this.reels.highlightLines(all.cells, all.paths, { quiet: true });
      el.dataset.line = cycle.wins.map((w) => w.line).join(" ");
      // the words name only what is lit: the held win, whose cells are on the screen shown
      // (all of them named over a grid the later wins tumbled in named cells no longer there)
      say(cycle.summary ? "" : cycleText(cycle, held ? 0 : -1));
      this.deps.stage.invalidate();
      return;
    }
    let i = 0;
    const next = () => {
      const k = i++ % cycle.wins.length;
      const w = cycle.wins[k]!;
      onScreen(w.grid ?? final);
      // a win with no cell to light is named only: nothing dimmed
      if (w.cells.length) this.reels.highlightLines(w.cells, w.path.length ? [w.path] : [], { quiet: true });
      else this.reels.clearHighlight();
      el.dataset.line = String(w.line);
      el.dataset.cycle = String(k + 1);
      say(cycleText(cycle, k));
      this.deps.stage.invalidate();
    };
    next();
    this.cycleTimer = setInterval(next, WIN_CYCLE_MS);
  }
  /** The screen the round ended on and the one the cycle shows now. */
  private cycleShown: { final: string[][]; shown: () => string[][] } | null = null;

  /** The winning lines' cycle stops (a spin, another highlight, a lost gamble): the screen the
   * round ended on is back. */
  stopWins(): void {
    const c = this.cycleShown;
    this.cycleShown = null;
    if (c && c.shown() !== c.final && !this.reels.destroyed) this.reels.show(c.final);
    if (this.cycleTimer === undefined && this.cycleEl.hidden) return;
    clearInterval(this.cycleTimer);
    this.cycleTimer = undefined;
    this.cycleEl.hidden = true;
    delete this.cycleEl.dataset.line;
    delete this.cycleEl.dataset.cycle;
    this.reels.clearHighlight();
  }

  /** CSS px at the stage's bottom that the HTML console (and an open choice) cover; null
   * until the shell has measured them (then the design's HUD share is assumed). */
  private cover: number | null = null;
  /** CSS px at the stage's top that the game's title takes (null: the design's 48). */
  private titlePx: number | null = null;

  fitAbove(px: number, top?: number): void {
    this.fitTo(px, top);
  }

  /** fitAbove's own work, whatever a game's override adds to it. */
  private fitTo(px: number, top?: number): void {
    this.cover = px;
    this.titlePx = top ?? null;
    this.layout();
  }

  /** The reels fitted above `px` (the console and an open `panel`) keep still where they stood
   * fitted above `calm` (the console alone): they move up only as far as the panel needs to
   * clear their window by `clearPx` CSS px, never further than the plain fit above it; where
   * they would shrink to fit, they are fitted to the open panel as before. A game calls it
   * after its fitAbove while a panel is open (the playtests saw the reels jump as one opened). */
  protected keepStill(calm: number, px: number, top: number | undefined, panel: HTMLElement, clearPx: number): void {
    const { scale: root, hostHeight } = this.deps.stage.placement();
    const fitted = { y: this.reels.y, scale: this.reels.scale.x };
    this.fitTo(calm, top);
    const still = { y: this.reels.y, scale: this.reels.scale.x };
    this.fitTo(px, top); // the shell's cover stays the one it measured
    if (Math.abs(still.scale - fitted.scale) > 1e-9) return;
    // on the page: the window's bottom where it stood (from the canvas, which fills the stage's
    // host) and the panel as drawn
    this.reels.y = still.y;
    const rect = this.windowRect();
    const hostTop = this.deps.stage.app.canvas.getBoundingClientRect().top;
    const panelTop = Math.min(hostTop + hostHeight - px, panel.getBoundingClientRect().top);
    const over = hostTop + rect.y + rect.height + clearPx - panelTop;
    if (over > 0) this.reels.y = Math.max(fitted.y, still.y - over / root);
    this.deps.stage.invalidate();
  }

  /** `px` (what the console covers) with a choice panel's room kept under the reels on a
   * desktop (the landscape design): at least `room` CSS px, the panel's min-height through the
   * section's `cssVar`, kept while no panel is open, so that when one opens it fills that room
   * and the reels neither move nor lie under it (the playtests at 1440x900 saw Cluedo's reels
   * move up 29 px and Cops' whole game pushed under the header). A panel taller than the room
   * (a narrow window), and a phone, are fitted as before. */
  protected withChoiceRoom(px: number, room: number, cssVar: string): number {
    const section = this.deps.overlay.closest<HTMLElement>("section.game");
    const choice = section?.querySelector<HTMLElement>("[data-testid=choice]");
    if (!section || !choice || this.deps.stage.placement().design.name !== "landscape") {
      section?.style.removeProperty(cssVar);
      return px;
    }
    section.style.setProperty(cssVar, `${room}px`);
    const hud = choice.parentElement;
    const hudTop = hud?.getBoundingClientRect().top ?? 0;
    // An open panel: the notice row over it (a reload's "Your unfinished round is back where
    // you left it") lies on the stage's strip under the reels, where a win's words go; counted,
    // it shrank the reels after a reload mid-gamble (the playtest saw the frame come back
    // narrower, the hall's moon and bolt showing beside it).
    // A panel lower than the room (a gamble's offer: the win, GAMBLE, COLLECT) keeps the room
    // too: the reels stand where they stood, the room over the panel left to the game's signs.
    if (!choice.hidden) {
      if (!hud) return px;
      const panel = choice.getBoundingClientRect();
      const bare = px - Math.max(0, panel.top - hudTop);
      return Math.max(bare, bare - panel.height + room);
    }
    // What the HUD shows over the console with no panel open (the round's closing message, "The
    // round paid 100 credits") lies in the room: counted on top of it, it shrank the reels as
    // the panel closed (the playtest saw them jump smaller at COLLECT).
    const bar = hud?.querySelector<HTMLElement>(":scope > .console");
    const above = hud && bar ? Math.max(0, bar.getBoundingClientRect().top - hudTop) : 0;
    return Math.max(px, px - above + room);
  }

  /** Design px across that the reels' window (and its line markers) may take: the design's
   * width less room for the frame. A game may give its reels more (Cluedo on a phone). */
  protected reelsAcross(placement: ReturnType<Stage["placement"]>): number {
    return placement.design.width - 40;
  }

  /** How many times as tall as wide the reels' rows are drawn in the layout `placement` gives
   * (ReelSet.setStretch): 1, square cells, unless a game makes its reels taller (Cluedo on a
   * phone, where square cells leave a 5-reel window a quarter of the screen's height). */
  protected rowStretch(_placement: ReturnType<Stage["placement"]>): number {
    return 1;
  }

  /** CSS px a game keeps under the reels (beyond the strip of the win's words) for what it
   * shows there, in the layout `placement` gives (Cluedo's and Cops' signs on a phone): the
   * reels are centred in the room above it, at the size they had (it never shrinks them, so a
   * panel opening over it moves nothing). None by default. */
  protected roomUnder(_placement: ReturnType<Stage["placement"]>): number {
    return 0;
  }

  /** The reels take the stage above what the console covers, under the title, centred. */
  protected layout(): void {
    const placement = this.deps.stage.placement();
    const { design, scale: root, y: rootY, hostHeight } = placement;
    const { reels, rows, cell, gap } = this.reels.opts;
    const w = reels * (cell + gap) - gap, hgt = rows * cell;
    // clear of the title by the frame drawn around the window (about 16 design px) and a gap
    const top = this.titlePx === null ? 48 : Math.max(8, (this.titlePx + 18 - rootY) / root);
    const floor = this.cover === null
      ? design.height * (1 - HUD_SHARE[design.name])
      : Math.min(design.height, (hostHeight - this.cover - rootY) / root);
    const strip = this.labelStrip / root;
    const free = Math.max(60, floor - top - 12 - strip);
    const across = this.reelsAcross(placement);
    const k = this.rowStretch(placement);
    this.reels.setStretch(k);
    const tall = hgt * k; // design px of the window's height at scale 1
    const fit = (side: number) => Math.min(across / (w + 2 * side), free / tall, 1);
    // The line markers beside the window, unless the page's width would draw them under
    // MARKER_MIN_PX (20 lines on a phone): then a winning line's number is drawn large instead.
    // Judged by the width alone, so a choice panel opening does not switch the treatment.
    const full = this.reels.fullSide;
    const compact = full > 0 && this.reels.markerRadius * 2 * Math.min((design.width - 40) / (w + 2 * full), 1) * root < MARKER_MIN_PX;
    const scale = fit(compact ? 0 : full);
    this.reels.scale.set(scale, scale * k);
    this.reels.setCompact(compact ? this.compactPx : 0, scale * root);
    const room = Math.min(this.roomUnder(placement) / root, Math.max(0, free - tall * scale));
    this.reels.position.set((design.width - w * scale) / 2, top + (free - tall * scale - room) / 2);
    // the words under the window start below its frame
    const under = `${Math.round(FRAME_PX * scale * k * root + 6)}px`;
    // (the first layout runs from the constructor, before they are made)
    for (const el of [this.cycleEl, this.bannerEl, this.holdEl]) el?.style.setProperty("--under", under);
    this.deps.stage.invalidate();
  }

  /** The room under the reels for a game's signs on a phone, as it is laid out now (band-under.ts):
   * `px` is what the console covers. */
  protected bandUnderReels(px: number, o: Parameters<typeof bandUnder>[3]): BandUnder {
    return bandUnder(this.windowRect(), this.deps.stage.placement().hostHeight, px, o);
  }

  /** The reels' window in CSS px of the stage's host. */
  windowRect(): Rect {
    const { scale, x, y } = this.deps.stage.placement();
    const { reels, rows, cell, gap } = this.reels.opts;
    return { x: x + this.reels.x * scale, y: y + this.reels.y * scale, width: (reels * (cell + gap) - gap) * this.reels.scale.x * scale, height: rows * cell * this.reels.scale.y * scale };
  }

  private stripsOf(game: GameView): string[][] {
    const sets = game.info.reel_sets;
    const base = sets?.[game.info.base_reel_set ?? "base"];
    if (base?.length) return base;
    const ids = game.info.symbols.filter((s) => s.role !== "scatter").map((s) => s.id);
    return Array.from({ length: game.info.window.reels }, (_, r) => ids.map((_, i) => ids[(i * 7 + r * 3) % ids.length] ?? ids[0] ?? "?"));
  }

  spinStart(): void {
    this.stopWins();
    this.holdCoins(null); // a new round holds nothing
    this.holdMeter(null);
    this.setCellMultipliers(null); // marks last one round: a new round starts with none
    this.reels.startSpin();
    this.deps.sound("spin");
  }
  land(symbols: string[][], options: { fast?: boolean; anticipate?: boolean } = {}): Promise<void> {
    this.stopWins();
    return this.reels.land(symbols, options);
  }
  tumble(symbols: string[][], options: { fast?: boolean } = {}): Promise<void> {
    // a win's label goes with the cells it names: a tumble replaces them
    if (this.bannerEl.dataset.kind === "win") this.bannerEl.hidden = true;
    return this.reels.land(symbols, { stagger: 0, fast: options.fast });
  }
  show(symbols: string[][]): void {
    this.stopWins();
    this.reels.show(symbols);
  }
  current(): string[][] {
    return this.reels.models.map((m) => m.visible());
  }
  async highlight(cells: Cell[], label: string, options: { fast?: boolean; line?: Cell[] } = {}): Promise<void> {
    this.stopWins();
    this.reels.highlight(cells, undefined, options.line);
    // the caption appears in the frame that lights its cells, never before them
    await Promise.race([this.deps.stage.drawn(), sleep(CAPTION_FRAME_WAIT_MS)]);
    this.bannerEl.dataset.kind = "win"; // a theme may set a win's label apart from a message
    if (this.labelStrip) this.bannerEl.dataset.layout = "decoration"; // under the reels: a panel
    this.bannerEl.textContent = label;
    this.bannerEl.hidden = false;
    // a caption under the reels stands where hold-and-win's meter does: the meter steps aside
    const meter = this.labelStrip && !this.holdEl.hidden;
    if (meter) this.holdEl.style.visibility = "hidden";
    await hold(CAPTION_MS, options.fast);
    this.bannerEl.hidden = true;
    if (meter) this.holdEl.style.removeProperty("visibility");
  }
  clearHighlight(): void {
    this.stopWins();
    this.reels.clearHighlight();
  }
  markCell(cell: Cell, text: string): void {
    this.reels.markCell(cell, text);
    this.deps.stage.invalidate();
  }
  expandReel(reel: number, symbol: string, text: string): void {
    this.reels.expandReel(reel, symbol, text);
    this.deps.stage.invalidate();
  }
  async banner(text: string, options: { ms?: number; fast?: boolean } = {}): Promise<void> {
    this.bannerEl.dataset.kind = "message";
    this.bannerEl.dataset.layout = "over-reels";
    this.bannerEl.textContent = text;
    this.bannerEl.hidden = false;
    await hold(options.ms ?? 1000, options.fast);
    this.bannerEl.hidden = true;
  }
  /** The free spins' intro (2.6 s) or outro (3 s, its total counted up) over the reels, as the
   * shipped games show theirs (Cluedo's MYSTERY BONUS, BONUS TOTAL). */
  featureMoment(m: FeatureMoment, options: { fast?: boolean } = {}): Promise<void> {
    return showMoment(this.deps.overlay, {
      kind: `feature-moment ${m.kind}`, title: m.title, lines: m.lines, ms: m.kind === "fs-intro" ? 2600 : m.kind === "hw-intro" ? 1800 : 3000, fast: options.fast,
      count: m.total === undefined ? undefined : { to: m.total, format: (n) => `${formatCredits(n)} credits` },
    });
  }
  /** The grid multipliers drawn on the cells; the overlay says how many cells are marked and
   * the highest multiplier (`data-grid-marked`, `data-grid-max`: what the e2e tests read). */
  setCellMultipliers(cells: readonly (readonly number[])[] | null): void {
    this.reels.setCellMarks(cells);
    const values = (cells ?? []).flat();
    const marked = values.filter((v) => v > 0).length;
    if (marked) Object.assign(this.deps.overlay.dataset, { gridMarked: String(marked), gridMax: String(Math.max(...values)) });
    else { delete this.deps.overlay.dataset.gridMarked; delete this.deps.overlay.dataset.gridMax; }
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
    clearInterval(this.cycleTimer);
    this.cycleEl.remove();
    this.stopAnimating();
    this.unsubscribe();
    this.reels.destroy();
    this.textures.destroy();
    this.bannerEl.remove();
    this.holdEl.remove();
  }
}

