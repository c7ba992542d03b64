// The 7x7 candy grid, drawn with Pixi: candies drop in column by column when a grid lands,
// winning candies pop, the rest fall and the refills drop in from above on a tumble. Every
// symbol drawn comes from the outcome's grid events; this class only moves sprites between
// them (which cells to pop is given by the caller; which survive is checked against the next
// grid, and a column that does not match simply drops in whole). Every tween runs on the
// wall clock from its start (render/clock.ts): at 2 fps a 520 ms drop still ends after 520 ms,
// in fewer frames.
import { Container, Graphics, Sprite, Text, type Ticker } from "pixi.js";
import type { Cell } from "../../core/outcome";
import { frameDelta, wallClock, type Clock } from "../../render/clock";
import type { QualityProfile } from "../../render/quality";
import type { SymbolTextures } from "../../render/symbols";
import { clusterEdges, labelCell } from "./outline";
import { tumbleMoves } from "./tumble";

interface Tween { sprite: Sprite; from: { x: number; y: number; s: number; a: number }; to: { x: number; y: number; s: number; a: number }; delay: number; ms: number; start: number; ease: (t: number) => number }

const bounce = (t: number) => { const n = 7.5625, d = 2.75; if (t < 1 / d) return n * t * t; if (t < 2 / d) return n * (t -= 1.5 / d) * t + 0.75; if (t < 2.5 / d) return n * (t -= 2.25 / d) * t + 0.9375; return n * (t -= 2.625 / d) * t + 0.984375; };
const easeIn = (t: number) => t * t;
const easeOut = (t: number) => 1 - (1 - t) * (1 - t);

/** The edges stroked once per [width, colour, alpha], widest first. */
function strokeEdges(g: Graphics, edges: readonly [number, number, number, number][], strokes: readonly (readonly [number, number, number])[]): void {
  for (const [width, color, alpha] of strokes) {
    for (const [x1, y1, x2, y2] of edges) g.moveTo(x1, y1).lineTo(x2, y2);
    g.stroke({ width, color, alpha, cap: "round" });
  }
}

/** The frame 18 px beyond the cells' `w` x `h`: a wafer band, cross-hatched, and an icing rim. */
function waferFrame(w: number, h: number): Container {
  const box = new Container();
  const shape = (g: Graphics) => g.roundRect(-18, -18, w + 36, h + 36, 24);
  const wafer = shape(new Graphics()).fill(0xdca060);
  for (let k = -h - 36; k < w + 36; k += 16) {
    wafer.moveTo(k, -18).lineTo(k + h + 36, h + 18).moveTo(k + h + 36, -18).lineTo(k, h + 18);
  }
  wafer.stroke({ width: 3, color: 0xa8662c, alpha: 0.8 });
  const clip = shape(new Graphics()).fill(0xffffff);
  wafer.mask = clip;
  const rims = shape(new Graphics()).stroke({ width: 4, color: 0x6e3a12 })
    .roundRect(-15, -15, w + 30, h + 30, 21).stroke({ width: 2, color: 0xffe2a8, alpha: 0.7 })
    .roundRect(-10, -10, w + 20, h + 20, 17).fill(0xff7eb6).stroke({ width: 2, color: 0xffffff, alpha: 0.6 })
    .roundRect(-7, -9, w + 14, 5, 3).fill({ color: 0xffffff, alpha: 0.45 });
  box.addChild(wafer, clip, rims);
  return box;
}

export class CandyGrid extends Container {
  readonly cols: number;
  readonly rows: number;
  readonly cell: number;
  private symbols: string[][];
  private readonly sprites: Sprite[][] = [];
  private readonly board = new Container();
  private readonly overlay = new Container();
  private readonly sparks = new Container();
  private tweens: Tween[] = [];
  private done: (() => void)[] = [];
  private highlighted = false;
  private pulse = 0;
  private changed = true;
  private generation = 0; // bumped by every clearOut, land, show and tumble
  private last: number; // the clock at the previous frame

  /** The wild symbols' ids: a cluster's amount is drawn on one of its other cells. */
  private readonly wilds: ReadonlySet<string>;

  constructor(private readonly textures: SymbolTextures, opts: { cols: number; rows: number; cell: number; wilds?: readonly string[] }, private profile: QualityProfile, private readonly ticker: Ticker, private readonly clock: Clock = wallClock) {
    super();
    this.wilds = new Set(opts.wilds ?? []);
    this.last = clock();
    this.cols = opts.cols;
    this.rows = opts.rows;
    this.cell = opts.cell;
    const { cols, rows, cell } = this;
    const w = cols * cell, hgt = rows * cell;
    // a wafer frame (caramel, cross-hatched) with a pink icing rim on the shop's counter, and
    // dark chocolate slots so every candy's colour stands out; drawn even when the grid is empty
    this.addChild(waferFrame(w, hgt));
    const slots = new Graphics().roundRect(-6, -6, w + 12, hgt + 12, 14).fill(0x2a0f1e);
    for (let c = 0; c < cols; c++) for (let r = 0; r < rows; r++) {
      slots.roundRect(c * cell + 3, r * cell + 3, cell - 6, cell - 6, cell * 0.2).fill((c + r) % 2 ? 0x4a1f33 : 0x40192c);
      slots.roundRect(c * cell + 8, r * cell + 6, cell - 16, cell * 0.22, cell * 0.1).fill({ color: 0xffffff, alpha: 0.05 });
    }
    this.addChild(slots);
    const mask = new Graphics().rect(-4, -4, w + 8, hgt + 8).fill(0xffffff);
    this.board.mask = mask;
    this.addChild(mask, this.board, this.overlay, this.sparks);
    this.symbols = Array.from({ length: cols }, () => Array.from({ length: rows }, () => ""));
    for (let c = 0; c < cols; c++) {
      const list: Sprite[] = [];
      for (let r = 0; r < rows; r++) list.push(this.makeSprite(c, r));
      this.sprites.push(list);
    }
    ticker.add(this.tick, this);
  }

  private makeSprite(c: number, r: number): Sprite {
    const s = new Sprite();
    s.anchor.set(0.5);
    s.width = s.height = this.cell;
    s.position.set((c + 0.5) * this.cell, (r + 0.5) * this.cell);
    s.visible = false;
    this.board.addChild(s);
    return s;
  }

  setProfile(profile: QualityProfile): void {
    this.profile = profile;
    this.changed = true;
  }

  needsFrame(): boolean {
    const r = this.changed || this.tweens.length > 0 || this.sparks.children.length > 0 || (this.highlighted && this.profile.glow);
    this.changed = false;
    return r;
  }

  get animating(): boolean {
    return this.tweens.length > 0;
  }

  current(): string[][] {
    return this.symbols.map((col) => [...col]);
  }

  private place(sprite: Sprite, c: number, r: number, id: string): void {
    sprite.texture = this.textures.get(id);
    sprite.width = sprite.height = this.cell;
    sprite.position.set((c + 0.5) * this.cell, (r + 0.5) * this.cell);
    sprite.alpha = 1;
    sprite.visible = id !== "";
  }

  /** Draw `symbols` now. */
  show(symbols: readonly (readonly string[])[]): void {
    this.generation++;
    this.finish();
    this.clearHighlight();
    for (let c = 0; c < this.cols; c++) for (let r = 0; r < this.rows; r++) {
      const id = symbols[c]?.[r] ?? "";
      this.symbols[c]![r] = id;
      this.place(this.sprites[c]![r]!, c, r, id);
    }
    this.changed = true;
  }

  /** PLAY: the candies on the grid fall out of the bottom. */
  clearOut(fast = false): Promise<void> {
    this.clearHighlight();
    const ms = fast ? 150 : 320;
    for (let c = 0; c < this.cols; c++) for (let r = 0; r < this.rows; r++) {
      const sp = this.sprites[c]![r]!;
      if (!sp.visible) continue;
      this.tween(sp, { x: sp.x, y: sp.y + (this.rows + 1) * this.cell, s: 1, a: 1 }, c * (fast ? 10 : 30), ms, easeIn);
    }
    const cleared = ++this.generation;
    return this.run().then(() => {
      if (cleared !== this.generation || this.destroyed) return; // a grid landed meanwhile (keep it), or the screen was left
      for (const col of this.sprites) for (const sp of col) sp.visible = false;
      for (const col of this.symbols) col.fill("");
    });
  }

  /** A grid lands: every column drops in from above, left to right. */
  land(symbols: readonly (readonly string[])[], fast = false): Promise<void> {
    this.generation++;
    this.finish();
    this.clearHighlight();
    const ms = fast ? 160 : 520, step = fast ? 10 : 70;
    for (let c = 0; c < this.cols; c++) for (let r = 0; r < this.rows; r++) {
      const id = symbols[c]?.[r] ?? "";
      this.symbols[c]![r] = id;
      const sp = this.sprites[c]![r]!;
      this.place(sp, c, r, id);
      const y = sp.y;
      sp.y = y - (this.rows + 1) * this.cell;
      this.tween(sp, { x: sp.x, y, s: 1, a: 1 }, c * step + (this.rows - r) * (fast ? 2 : 12), ms, bounce);
    }
    return this.run();
  }

  /** A tumble: the `removed` cells pop, survivors fall, refills drop in; ends on `symbols`. */
  async tumble(symbols: readonly (readonly string[])[], removed: readonly Cell[], fast = false): Promise<void> {
    this.generation++;
    this.finish();
    // the winners' outlines and amounts go as they start to pop, with the line naming them (a
    // playtest saw outlines and an amount around empty cells: an outline is always around its
    // candies, whole)
    this.clearHighlight();
    const pop = fast ? 80 : 260, fall = fast ? 150 : 420;
    const byCol = new Map<number, Set<number>>();
    for (const [c, r] of removed) (byCol.get(c) ?? byCol.set(c, new Set()).get(c)!).add(r);
    // 1. the winners pop
    const t0 = this.clock();
    for (const [c, rows] of byCol) for (const r of rows) {
      const sp = this.sprites[c]?.[r];
      if (sp?.visible) this.tween(sp, { x: sp.x, y: sp.y, s: 0.05, a: 0 }, 0, pop, easeIn, t0);
    }
    const popped = this.tweens.length > 0;
    await this.run();
    if (this.destroyed) return; // the screen was left mid-tumble: its sprites are gone
    // 2. survivors fall to their rows from the pop's end on the clock (not from the frame that
    // saw it end, up to a frame later), so the whole tumble ends within a frame of its time
    const t1 = popped ? Math.min(t0 + pop, this.clock()) : this.clock();
    for (let c = 0; c < this.cols; c++) {
      const before = [...this.symbols[c]!]; // a copy: the loop writes the new column
      const after = Array.from({ length: this.rows }, (_, r) => symbols[c]?.[r] ?? "");
      const moves = tumbleMoves(before, after, byCol.get(c) ?? new Set()) ?? after.map(() => null);
      const old = this.sprites[c]!;
      const next: Sprite[] = [];
      const refills = moves.filter((m) => m === null).length;
      let k = 0;
      for (let r = 0; r < this.rows; r++) {
        const from = moves[r];
        if (from !== null && from !== undefined && before[from] === after[r]) {
          const sp = old[from]!;
          next.push(sp);
          const target = (r + 0.5) * this.cell;
          if (from !== r) this.tween(sp, { x: sp.x, y: target, s: 1, a: 1 }, 0, fall, bounce, t1);
        } else {
          // a refill reuses a popped (or replaced) sprite, starting above the grid
          const sp = this.spareSprite(old, next, moves);
          this.place(sp, c, r, after[r]!);
          const y = sp.y;
          sp.y = y - (refills + 0.5) * this.cell - k * 6;
          this.tween(sp, { x: sp.x, y, s: 1, a: 1 }, k * (fast ? 5 : 30), fall, bounce, t1);
          next.push(sp);
          k++;
        }
        this.symbols[c]![r] = after[r]!;
      }
      this.sprites[c] = next;
    }
    await this.run();
  }

  private spareSprite(old: Sprite[], taken: Sprite[], moves: (number | null)[]): Sprite {
    const kept = new Set(moves.filter((m): m is number => m !== null).map((r) => old[r]));
    const sp = old.find((s) => !kept.has(s) && !taken.includes(s));
    if (sp) {
      sp.scale.set(1);
      return sp;
    }
    return this.makeSprite(0, 0);
  }

  /** A glowing outline around the cluster `cells`, the amount on it, the cells of no paid
   * cluster dimmed; the `earlier` clusters paid on the same grid keep a steady outline, so
   * every winner is marked when they pop together. */
  highlight(cells: readonly Cell[], label: string, colour = 0xfff3b0, earlier: readonly (readonly Cell[])[] = [], quiet = false): void {
    this.clearHighlight();
    this.highlighted = true;
    const { cell } = this;
    const won = new Set([cells, ...earlier].flatMap((g) => g.map(([c, r]) => `${c},${r}`)));
    const dim = new Graphics();
    for (let c = 0; c < this.cols; c++) for (let r = 0; r < this.rows; r++) if (!won.has(`${c},${r}`)) dim.rect(c * cell, r * cell, cell, cell).fill({ color: 0x000000, alpha: 0.5 });
    const outline = new Graphics();
    // a dark under-stroke first: the light outline reads on pale candies (lemon, grapes) too
    for (const group of earlier) strokeEdges(outline, clusterEdges(group, cell), [[11, 0x5e0530, 0.7], [5, 0xffd60a, 0.95]]);
    const lit = new Graphics();
    for (const [c, r] of cells) lit.roundRect(c * cell + 4, r * cell + 4, cell - 8, cell - 8, cell * 0.18).fill({ color: colour, alpha: 0.18 });
    strokeEdges(outline, clusterEdges(cells, cell), [[18, 0x5e0530, 0.6], [14, colour, 0.35], [8, colour, 0.7], [4, 0xffffff, 1]]);
    this.overlay.addChild(dim, lit, outline);
    if (label && cells.length) {
      // on one of the cluster's own cells, not a wild where another will do (outline.ts labelCell)
      const [sc, sr] = labelCell(cells, ([c, r]) => this.wilds.has(this.symbols[c]?.[r] ?? ""))!;
      const cx = (sc + 0.5) * cell, cy = (sr + 0.5) * cell;
      const text = new Text({ text: label, style: { fontFamily: "Arial Black, Arial, sans-serif", fontWeight: "bold", fontSize: Math.round(cell * 0.42), fill: 0xffffff, stroke: { color: 0xc9184a, width: 6 }, align: "center" } });
      text.anchor.set(0.5);
      // within its cell, so it covers no candy beside it (a long amount is drawn smaller)
      if (text.width > cell * 0.92) text.scale.set((cell * 0.92) / text.width);
      text.position.set(cx, cy);
      // a plate under it: it reads over the candy it stands on
      const plate = new Graphics().roundRect(sc * cell + 3, cy - cell * 0.3, cell - 6, cell * 0.6, cell * 0.16).fill({ color: 0x3a0820, alpha: 0.6 }).stroke({ width: 3, color: colour, alpha: 0.9 });
      this.overlay.addChild(plate);
      this.overlay.addChild(text);
    }
    if (!quiet) this.burst(cells, colour);
    this.changed = true;
  }

  /** A soft ring on `cells` that stays until the next grid (the placed wilds). */
  mark(cells: readonly Cell[], colour: number): void {
    const g = new Graphics();
    for (const [c, r] of cells) g.circle((c + 0.5) * this.cell, (r + 0.5) * this.cell, this.cell * 0.46).stroke({ width: 4, color: colour, alpha: 0.9 });
    this.overlay.addChild(g);
    this.changed = true;
  }

  clearHighlight(): void {
    this.highlighted = false;
    this.overlay.removeChildren().forEach((c) => c.destroy());
    this.overlay.alpha = 1;
    this.changed = true;
  }

  private burst(cells: readonly Cell[], colour: number): void {
    const n = this.profile.particles;
    if (!n || !cells.length) return;
    for (let i = 0; i < n; i++) {
      const [c, r] = cells[i % cells.length] as Cell;
      const g = new Graphics().star(0, 0, 5, 4 + (i % 3) * 2, 2).fill(i % 2 ? colour : 0xff8fab);
      g.position.set((c + 0.5) * this.cell, (r + 0.5) * this.cell);
      const a = (i / n) * Math.PI * 2;
      (g as Graphics & { v: [number, number] }).v = [Math.cos(a) * (90 + (i % 5) * 30), Math.sin(a) * (90 + (i % 7) * 20) - 60];
      this.sparks.addChild(g);
    }
  }

  /** A tween from `start` (the clock, now by default): `delay` ms later it runs for `ms` ms. */
  private tween(sprite: Sprite, to: Tween["to"], delay: number, ms: number, ease: (t: number) => number, start = this.clock()): void {
    this.tweens.push({ sprite, from: { x: sprite.x, y: sprite.y, s: 1, a: sprite.alpha }, to, delay, ms, start, ease });
  }

  /** Resolves when every tween has run (the ticker's frames apply them by the clock: the first
   * frame after a tween's end finishes it, however few frames came before). */
  private run(): Promise<void> {
    this.changed = true;
    if (!this.tweens.length) return Promise.resolve();
    return new Promise((resolve) => this.done.push(resolve));
  }

  /** Jump every running tween to its end (a new grid arrived). */
  private finish(): void {
    for (const tw of this.tweens) this.apply(tw, 1);
    this.tweens = [];
    const done = this.done;
    this.done = [];
    done.forEach((d) => d());
  }

  private apply(tw: Tween, p: number): void {
    const e = tw.ease(p);
    const { sprite, from, to } = tw;
    sprite.x = from.x + (to.x - from.x) * e;
    sprite.y = from.y + (to.y - from.y) * e;
    const s = from.s + (to.s - from.s) * (p >= 1 ? 1 : easeOut(p));
    sprite.width = sprite.height = this.cell * s;
    sprite.alpha = from.a + (to.a - from.a) * p;
  }

  private tick(): void {
    // wall-clock time (the ticker's deltaMS stops at 100 ms: at 2 fps the grid ran 5x slow)
    const now = this.clock();
    const dt = frameDelta(now, this.last);
    this.last = now;
    if (this.tweens.length) {
      const left: Tween[] = [];
      for (const tw of this.tweens) {
        const p = Math.max(0, Math.min(1, (now - tw.start - tw.delay) / tw.ms));
        this.apply(tw, p);
        if (p < 1) left.push(tw);
      }
      this.tweens = left;
      if (!this.tweens.length) {
        const done = this.done;
        this.done = [];
        done.forEach((d) => d());
      }
    }
    if (this.highlighted && this.profile.glow) {
      this.pulse += dt / 250;
      this.overlay.alpha = 0.8 + 0.2 * Math.sin(this.pulse);
    }
    const sec = dt / 1000;
    for (const s of this.sparks.children) {
      const g = s as Graphics & { v: [number, number] };
      g.x += g.v[0] * sec;
      g.y += g.v[1] * sec;
      g.v[1] += 300 * sec;
      g.alpha -= sec * 1.3;
    }
    for (const s of [...this.sparks.children]) if (s.alpha <= 0) s.destroy();
  }

  override destroy(): void {
    this.ticker.remove(this.tick, this);
    this.finish();
    super.destroy({ children: true });
  }
}
