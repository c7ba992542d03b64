// A set of reels (or a cluster grid's columns): spins when asked, lands on the symbols the
// server's window or grid event names, highlights winning cells. The spin state is the
// ReelModel's (slot/reel-model.ts); this class only draws it, every frame. Every motion is
// advanced by the wall-clock time since the last frame (render/clock.ts), so a landing takes
// the same time at 2 fps as at 60 (fewer frames drawn), never longer.
import { BlurFilter, Circle, Container, Graphics, Sprite, Text, type Ticker } from "pixi.js";
import type { Cell } from "../core/outcome";
import { ReelModel } from "../slot/reel-model";
import { markerLayout } from "../slot/paylines";
import { frameDelta, wallClock, type Clock } from "./clock";
import type { QualityProfile } from "./quality";
import { LABEL_FIT } from "./symbol-labels";
import type { SymbolTextures } from "./symbols";

/** Draws the frame around a window of `width` x `height` design px (the window at 0,0). */
export type FrameArt = (g: Graphics, width: number, height: number) => void;

export const DEFAULT_FRAME: FrameArt = (g, w, h) => {
  g.roundRect(-12, -12, w + 24, h + 24, 18).fill({ color: 0x000000, alpha: 0.45 }).stroke({ width: 4, color: 0xd4af37 });
};

export interface ReelSetOptions {
  reels: number;
  rows: number;
  cell: number; // design pixels per cell
  gap: number;
  strips: readonly (readonly string[])[]; // one per reel: what spins by
  speed?: number; // cells per second
  frame?: FrameArt;
  /** A line game's paylines (row per reel, line 1 first): each line's number is marked at both
   * sides of the window, at its first and last reel's row, lit while its line wins. */
  paylines?: readonly (readonly number[])[];
  /** Anticipation: when the reels landed so far show `need - 1` of these symbols (scatters,
   * bonus symbols), the reels still spinning spin longer, glowing. */
  anticipation?: { symbols: ReadonlySet<string>; need: number };
  /** Where a compact line badge's centre lies beyond the window's side, as a share of its
   * radius (default BADGE_OUTSET; above 1 + BADGE_STROKE / 2 it lies wholly in the margin). */
  badgeOutset?: number;
}

/** Cells a reel in anticipation runs on beyond its usual stop (about a second at full speed). */
const ANTICIPATION_CELLS = 24;
const GLOW = 0xffd23f;
/** The ground a held coin stands on (the window's dark glass, opaque). */
const HELD_GROUND = 0x120b24;

/** A hold-and-win coin held on a cell: the prize symbol, the words on it (its value in credits,
 * then in money), the named jackpot it is (null: a plain value). */
export interface HeldLook {
  cell: Cell;
  symbol: string;
  lines: string[];
  jackpot: string | null;
}
/** A winning symbol's pulse: it grows by up to this share of its size. */
export const WIN_PULSE = 0.08;
/** A compact line badge's centre lies this share of its radius outside the window's side (less
 * than none: inside it, on the frame's edge and the gutter), so the line's path ends in it; its
 * white rim is this share of the radius wide. Inside, a phone keeps air beside the badge for the
 * same reels (the playtest: Cluedo's "18" ran to the screen's edge). */
export const BADGE_OUTSET = -0.15;
export const BADGE_STROKE = 0.16;

/** CSS px a compact line badge `badgePx` across reaches beyond the window's side (its rim
 * included): what a screen as wide as the reels must keep free at its edges. */
export function compactBadgeReach(badgePx: number, outset = BADGE_OUTSET): number {
  return (badgePx / 2) * (1 + outset + BADGE_STROKE / 2);
}

/** Which reels spin on in anticipation of `window`: reel r does when the reels before it
 * already show `need - 1` or more of the feature's symbols (the last reel included; never the
 * first). Pure, for the unit tests. */
export function anticipatingReels(window: readonly (readonly string[])[], symbols: ReadonlySet<string>, need: number): boolean[] {
  let seen = 0;
  return window.map((reel, r) => {
    const on = r > 0 && seen >= need - 1;
    seen += reel.filter((s) => symbols.has(s)).length;
    return on;
  });
}

/** A payline's look beyond the plain line, in shares of the plain line's width (so it scales
 * with the cell): `width` its own, `glow` a soft halo under it, `outline` a dark rim each side,
 * `core` a bright thread along its middle. */
export interface PaylineLook {
  width: number;
  colour?: number;
  glow?: { width: number; colour: number; alpha: number };
  outline?: { width: number; colour: number };
  core?: { width: number; colour: number };
}

/** The strokes a payline is drawn with, bottom first (design px): the plain line alone, or the
 * look's glow, outline, line and core. */
export function paylineStrokes(cell: number, colour: number, look: PaylineLook | null): { width: number; color: number; alpha: number }[] {
  const plain = Math.max(4, cell / 22);
  if (!look) return [{ width: plain, color: colour, alpha: 0.9 }];
  const w = plain * look.width;
  const line = look.colour ?? colour;
  return [
    ...(look.glow ? [{ width: plain * look.glow.width, color: look.glow.colour, alpha: look.glow.alpha }] : []),
    ...(look.outline ? [{ width: w + 2 * plain * look.outline.width, color: look.outline.colour, alpha: 1 }] : []),
    { width: w, color: line, alpha: 1 },
    ...(look.core ? [{ width: plain * look.core.width, color: look.core.colour, alpha: 0.95 }] : []),
  ];
}

interface Marker { line: number; lit: Graphics; x: number; y: number }

/** A cell's grid multiplier as drawn: 0 none, 1 marked (won once, no multiplier yet), else
 * the multiplier. Pure, for the unit tests: the badge's text and its size (1 at x2, growing by
 * an eighth per doubling up to 1.75 times that) and colour (gold, then orange, then red). */
export function cellMarkLook(value: number): { text: string; size: number; colour: number } | null {
  if (!(value > 0)) return null;
  if (value === 1) return { text: "", size: 0.55, colour: 0xffe066 };
  const steps = Math.max(0, Math.log2(value) - 1);
  return { text: `x${value}`, size: Math.min(1.75, 1 + steps / 8), colour: value >= 16 ? 0xff4d6d : value >= 4 ? 0xff9f1c : 0xffd23f };
}

/** The smallest x2 badge on the screen, CSS px tall. */
const MARK_MIN_PX = 16;

/** Where a cell's mark badge lies in its cell (design px from the cell's top left corner; the
 * cell `cell` px square, `screenScale` CSS px per design px): in the lower right corner, under
 * the band the symbol's name takes across the tile's middle (LABEL_FIT: a one-line name), to
 * the cell's edge and a little over it into the gap (at 390 px the x16 and x8 badges covered
 * the names). At least MARK_MIN_PX tall where the corner has room, growing with `look.size`. */
export function cellMarkBox(cell: number, screenScale: number, look: { text: string; size: number }): { x: number; y: number; width: number; height: number } {
  const top = cell * (0.5 + LABEL_FIT.size / 2 + 0.02);
  const wide = look.text ? 0.46 * look.text.length + 0.35 : 1;
  const height = Math.min(Math.max(cell * 0.24, MARK_MIN_PX / screenScale) * look.size, cell * 1.04 - top, (cell - 4) / wide);
  const width = look.text ? Math.max(height * 1.1, height * wide) : height;
  return { x: cell - 2 - width, y: top, width, height };
}

/** How long a mark's badge pops when it appears or grows, in seconds. */
const MARK_POP_S = 0.35;

interface Pending { resolve: () => void; left: number }

export class ReelSet extends Container {
  readonly models: ReelModel[];
  private readonly columns: Container[] = [];
  private readonly sprites: Sprite[][] = [];
  private readonly overlay = new Container();
  /** Marks on cells (a wild's drawn multiplier), above the highlight, until the next spin or landing. */
  private readonly wildMarks = new Container();
  private readonly sparks = new Container();
  private pending: Pending | null = null;
  private last: number; // the clock at the previous frame
  private drawnAt = -Infinity; // the clock when a spinning reel was last drawn
  private highlighted: Cell[] = [];
  private pulse = 0;
  /** Copies of the winning cells' symbols drawn over the dimmed reels, pulsing in scale. */
  private winners: { sprite: Container; base: number }[] = [];
  /** Hold-and-win's locked coins, drawn still over their cells (the reels spin under them):
   * by cell ("r,row"), what each shows. */
  private readonly held = new Container();
  private heldCoins = new Map<string, HeldLook>();
  private readonly markers: Marker[] = [];
  private readonly antGlow = new Graphics();
  private readonly markerBox = new Container(); // above the payline drawn to its markers
  private readonly preview = new Container(); // the line a player points at
  private previewing = 0;
  private anticipating: boolean[] = [];
  /** The cells' grid multipliers ([reel][row]: 0 none, 1 marked, else the multiplier), drawn
   * over the symbols and the highlights: marks stay on their cells while symbols fall. */
  private readonly marks = new Container();
  private markValues: number[][] = [];
  private popping: { badge: Container; age: number }[] = [];
  /** The compact line badges drawn now (design px, the window at 0,0; `r` the rim's radius),
   * emitted as "badges" when they change: the screen tells its layout check where they lie. */
  badges: { line: number; x: number; y: number; r: number }[] = [];
  /** Design px the line markers take beside the window, each side (0: none). */
  private readonly markerSide: number;
  /** On a phone the markers of 20 lines stack too small to read (about 9 px): they are not
   * drawn, the reels take their room, and a winning line's number is drawn large at its ends
   * instead, `compact` CSS px wide on the screen (0: the markers at the sides). */
  private compact = 0;
  /** The side markers' radius in design px (0: none). */
  markerRadius = 0;
  private screenScale = 1;
  private readonly blur = new BlurFilter({ strengthX: 0, strengthY: 6, quality: 2 });
  private changed = true;

  constructor(private readonly textures: SymbolTextures, readonly opts: ReelSetOptions, private profile: QualityProfile, private readonly ticker: Ticker, private readonly clock: Clock = wallClock) {
    super();
    this.last = clock();
    const { reels, rows, cell, gap } = opts;
    const frame = new Graphics();
    (opts.frame ?? DEFAULT_FRAME)(frame, reels * (cell + gap) - gap, rows * cell);
    this.addChild(frame);
    this.models = Array.from({ length: reels }, (_, r) => new ReelModel(opts.strips[r] ?? opts.strips[0] ?? ["?"], rows));
    for (let r = 0; r < reels; r++) {
      const column = new Container();
      column.x = r * (cell + gap);
      const mask = new Graphics().rect(0, 0, cell, rows * cell).fill(0xffffff);
      column.addChild(mask);
      column.mask = mask;
      const list: Sprite[] = [];
      for (let j = -1; j < rows; j++) {
        const s = new Sprite();
        s.width = s.height = cell;
        column.addChild(s);
        list.push(s);
      }
      this.sprites.push(list);
      this.columns.push(column);
      this.addChild(column);
    }
    this.markerSide = this.drawMarkers();
    this.addChild(this.held, this.antGlow, this.overlay, this.marks, this.wildMarks, this.preview, this.markerBox, this.sparks);
    this.draw();
    ticker.add(this.tick, this);
  }

  /** Design px the line markers take beside the window, each side (0: none, or compact). */
  get side(): number {
    return this.compact ? 0 : this.markerSide;
  }

  /** Design px the line markers take beside the window when drawn (0: the reels have none). */
  get fullSide(): number {
    return this.markerSide;
  }

  /** The markers' treatment: `badgePx` > 0 (CSS px): none at the sides, a winning line's
   * number in a badge that size at the line's ends; `screenScale`: CSS px per design px of
   * the reels, so the badge keeps its size on the screen. */
  setCompact(badgePx: number, screenScale: number): void {
    this.compact = this.markerSide ? badgePx : 0;
    const rescaled = this.screenScale !== (screenScale || 1);
    this.screenScale = screenScale || 1;
    // the grid multipliers' badges keep their least size on the screen
    if (rescaled && this.markValues.length) this.drawMarks(this.markValues, this.markValues);
    this.markerBox.visible = !this.compact;
    this.changed = true;
  }

  /** How a winning payline is drawn from now on (null: the plain line): a game's feature may
   * draw it thick and glowing (Cluedo's free spins, over the golden reels). */
  paylineLook: PaylineLook | null = null;

  /** How many times as tall as wide a row is drawn (1: square cells): the view scales the reels
   * `k` times more down than across (a phone's tall reels, Cluedo); the symbols keep their
   * shape (SymbolTextures.stretch) and so do the line badges and the cells' marks. */
  stretch = 1;
  setStretch(k: number): void {
    if (k === this.stretch) return;
    this.stretch = k;
    if (this.textures.stretch(k)) this.redraw();
  }

  /** Whether the wins drawn over the reels (highlights, lines, their badges) show: a screen
   * hides them while something else lies over the window (Cluedo's gamble card). */
  setWinsShown(on: boolean): void {
    if (this.overlay.visible === on) return;
    this.overlay.visible = on;
    this.changed = true;
  }

  setProfile(profile: QualityProfile): void {
    this.profile = profile;
    this.changed = true;
  }

  /** Whether the next frame must be drawn (Stage.animate asks it every frame). */
  needsFrame(): boolean {
    const moving = this.spinning || this.sparks.children.length > 0 || this.popping.length > 0 || this.heldPops.length > 0 || (this.highlighted.length > 0 && this.profile.glow);
    const r = moving || this.changed;
    this.changed = false;
    return r;
  }

  get spinning(): boolean {
    return this.models.some((m) => m.state !== "idle");
  }

  /** Reels start at once (on PLAY), before the server answers. */
  startSpin(): void {
    this.clearHighlight();
    this.clearMarks();
    this.previewLine(0);
    const speed = this.opts.speed ?? 22;
    this.models.forEach((m) => m.start(speed));
    if (this.profile.motionBlur) this.columns.forEach((c) => (c.filters = [this.blur]));
  }

  /** Land on `window` ([reel][row]); resolves when the last reel stops. */
  land(window: readonly (readonly string[])[], options: { stagger?: number; fast?: boolean; anticipate?: boolean } = {}): Promise<void> {
    this.clearHighlight();
    this.clearMarks();
    const stagger = options.fast ? 1 : options.stagger ?? 4;
    const speed = (this.opts.speed ?? 22) * (options.fast ? 2 : 1);
    // Only reels that land one at a time build suspense (a tumble's columns fall together).
    const ant = this.opts.anticipation;
    this.anticipating = ant && stagger > 0 && options.anticipate !== false ? anticipatingReels(window, ant.symbols, ant.need) : [];
    const extra = options.fast ? ANTICIPATION_CELLS / 4 : ANTICIPATION_CELLS;
    return new Promise((resolve) => {
      this.pending?.resolve();
      this.pending = { resolve, left: this.models.length };
      let waited = 0;
      this.models.forEach((m, r) => {
        if (this.anticipating[r]) waited += extra;
        m.speed = speed;
        m.land(window[r] ?? [], 3 + r * stagger + waited);
      });
    });
  }

  /** Show `window` now (a resumed round, a replay). */
  show(window: readonly (readonly string[])[]): void {
    this.clearHighlight();
    this.clearMarks();
    this.models.forEach((m, r) => m.show(window[r] ?? m.visible()));
    this.columns.forEach((c) => (c.filters = []));
    this.draw();
  }

  /** The grid multipliers on the cells ([reel][row]: 0 none, 1 marked, else the multiplier;
   * null or empty: none). A mark that appears or grows pops; the others are redrawn still. */
  setCellMarks(values: readonly (readonly number[])[] | null): void {
    if (this.destroyed) return;
    this.drawMarks((values ?? []).map((col) => [...col]), this.markValues);
  }

  private drawMarks(next: number[][], before: readonly (readonly number[])[]): void {
    this.markValues = next;
    this.marks.removeChildren().forEach((c) => c.destroy({ children: true }));
    this.popping = [];
    const { cell, gap } = this.opts;
    next.forEach((col, r) => col.forEach((value, w) => {
      const look = cellMarkLook(value);
      if (!look || r >= this.opts.reels || w >= this.opts.rows) return;
      const x = r * (cell + gap), y = w * cell;
      // the marked cell's own frame, then its badge in the lower right corner
      const tint = new Graphics().roundRect(x + 2, y + 2, cell - 4, cell - 4, 12)
        .fill({ color: look.colour, alpha: value > 1 ? 0.1 : 0.05 })
        .stroke({ width: Math.max(2, cell / 40), color: look.colour, alpha: value > 1 ? 0.85 : 0.5 });
      this.marks.addChild(tint);
      const badge = new Container();
      badge.label = `cell-mark-${r}-${w}`;
      const box = cellMarkBox(cell, this.screenScale, look);
      const { width, height } = box;
      badge.position.set(x + box.x + width / 2, y + box.y + height / 2);
      if (look.text) {
        badge.addChild(new Graphics().roundRect(-width / 2, -height / 2, width, height, height / 2)
          .fill({ color: look.colour }).stroke({ width: Math.max(2, height * 0.08), color: 0xffffff }));
        const text = new Text({ text: look.text, style: { fontFamily: "Lilita One, Impact, sans-serif", fontSize: Math.round(height * 0.78), fill: 0x1a0a00 } });
        text.anchor.set(0.5);
        badge.addChild(text);
      } else {
        badge.addChild(new Graphics().circle(0, 0, height / 2).fill({ color: look.colour, alpha: 0.9 }).stroke({ width: 2, color: 0xffffff, alpha: 0.8 }));
      }
      this.marks.addChild(badge);
      if ((before[r]?.[w] ?? 0) !== value && this.profile.glow) this.popping.push({ badge, age: 0 });
    }));
    this.changed = true;
  }

  /** The grid multipliers drawn now, [reel][row] (for the tests). */
  cellMarks(): number[][] {
    return this.markValues.map((col) => [...col]);
  }

  /** Light `cells`; with `path` (a payline's cell on every reel) the line is drawn across the
   * reels through them, a little beyond the first and last reel, ends marked. */
  highlight(cells: readonly Cell[], colour = 0xffe066, path: readonly Cell[] = []): void {
    this.highlightLines(cells, path.length ? [path] : [], { colour });
  }

  /** Light `cells` and draw each of `paths` (paylines), their markers lit; `quiet`: no sparks
   * (the winning lines' cycle after the round redraws a line every 1.5 s). */
  highlightLines(cells: readonly Cell[], paths: readonly (readonly Cell[])[], options: { colour?: number; quiet?: boolean } = {}): void {
    // A round's handlers may still run after the screen was left: draw nothing then (the
    // symbol textures' renderer is gone).
    if (this.destroyed) return;
    const colour = options.colour ?? 0xffe066;
    this.clearHighlight();
    this.highlighted = [...cells];
    const { cell, gap } = this.opts;
    const dim = new Graphics();
    for (let r = 0; r < this.opts.reels; r++) for (let w = 0; w < this.opts.rows; w++) {
      if (!cells.some(([a, b]) => a === r && b === w)) dim.rect(r * (cell + gap), w * cell, cell, cell).fill({ color: 0x000000, alpha: 0.5 });
    }
    // A soft glow behind each winner (two widening rings fading out), then the symbol itself
    // above the dimmed reels, pulsing in the tick (a still, slightly raised copy on LOW).
    const glow = new Graphics();
    for (const [r, w] of cells) {
      const x = r * (cell + gap), y = w * cell;
      glow.roundRect(x - 6, y - 6, cell + 12, cell + 12, 20).fill({ color: colour, alpha: 0.16 });
      glow.roundRect(x, y, cell, cell, 14).fill({ color: colour, alpha: 0.22 });
    }
    this.overlay.addChild(dim, glow);
    for (const [r, w] of cells) {
      const id = this.models[r]?.visible()[w];
      if (id === undefined) continue;
      // a held coin is lit as it is drawn, its value on it
      const look = this.heldCoins.get(`${r},${w}`);
      const sprite = look ? this.coinOf(look) : new Sprite(this.textures.get(id));
      if (sprite instanceof Sprite) {
        sprite.anchor.set(0.5);
        sprite.width = sprite.height = cell;
      }
      sprite.position.set(r * (cell + gap) + cell / 2, w * cell + cell / 2);
      const base = sprite.scale.x;
      if (!this.profile.glow) sprite.scale.set(base * 1.05);
      this.winners.push({ sprite, base });
      this.overlay.addChild(sprite);
    }
    const frames = new Graphics();
    for (const [r, w] of cells) frames.roundRect(r * (cell + gap) + 3, w * cell + 3, cell - 6, cell - 6, 12).stroke({ width: 6, color: colour });
    this.overlay.addChild(frames);
    const lit = new Set<number>();
    for (const path of paths) {
      const line = this.lineOf(path);
      if (line) lit.add(line);
      const ends = this.markers.filter((m) => m.line === line);
      if (path.length > 1) this.overlay.addChild(this.paylinePath(path, colour, ends.length === 2 && !this.compact ? ends : undefined));
      if (path.length > 1 && line && this.compact) this.overlay.addChild(...this.lineBadges(path, line));
    }
    for (const m of this.markers) m.lit.visible = lit.has(m.line);
    if (this.badges.length) this.emit("badges", this.badges);
    if (!options.quiet) this.burst(cells, colour);
    this.changed = true;
  }

  /** The lines whose markers are lit now (1-based), for the tests. */
  litLines(): number[] {
    return [...new Set(this.markers.filter((m) => m.lit.visible).map((m) => m.line))].sort((a, b) => a - b);
  }

  /** The payline (1-based) whose cells `path` are, or 0. */
  private lineOf(path: readonly Cell[]): number {
    const lines = this.opts.paylines ?? [];
    if (path.length !== this.opts.reels) return 0;
    return lines.findIndex((rows) => rows.length === path.length && rows.every((row, r) => path[r]?.[0] === r && path[r]?.[1] === row)) + 1;
  }

  /** Each line's number at both sides of the window, in one order for both (slot/paylines.ts
   * markerLayout: grouped by the row the line starts on, evenly spaced, never touching).
   * Pointing at a marker (hover, or a tap) draws its line's path. Returns the side they take. */
  private drawMarkers(): number {
    const lines = this.opts.paylines ?? [];
    if (lines.length < 2) return 0;
    const { cell, rows, reels, gap } = this.opts;
    const w = reels * (cell + gap) - gap;
    const { order, ys, radius } = markerLayout(lines, rows, cell);
    this.markerRadius = radius;
    const box = this.markerBox;
    for (const x of [-18 - radius, w + 18 + radius]) {
      order.forEach((line, k) => {
        const y = ys[k]!;
        const badge = new Container();
        badge.position.set(x, y);
        badge.label = `line-marker-${line}`;
        const off = new Graphics().circle(0, 0, radius).fill({ color: 0x140c24, alpha: 0.85 }).stroke({ width: 2, color: 0xd4af37, alpha: 0.8 });
        const lit = new Graphics().circle(0, 0, radius + 1).fill({ color: GLOW }).stroke({ width: 2, color: 0xffffff });
        lit.visible = false;
        const label = new Text({ text: String(line), style: { fontFamily: "Lilita One, Impact, sans-serif", fontSize: Math.round(radius * 1.15), fill: 0xffffff, stroke: { color: 0x000000, width: 3 } } });
        label.anchor.set(0.5);
        badge.addChild(off, lit, label);
        // the marker explains itself: pointing at it (or tapping it) draws its line
        badge.eventMode = "static";
        badge.cursor = "pointer";
        badge.hitArea = new Circle(0, 0, radius + 2);
        badge.on("pointerover", () => this.previewLine(line));
        badge.on("pointertap", () => this.previewLine(line));
        badge.on("pointerout", () => this.previewLine(0));
        box.addChild(badge);
        this.markers.push({ line, lit, x, y });
      });
    }
    return 18 + radius * 2 + 4;
  }

  /** The payline drawn from marker to marker while a player points at its number (0: none);
   * nothing while the reels spin. */
  previewLine(line: number): void {
    if (this.destroyed) return;
    this.preview.removeChildren().forEach((c) => c.destroy());
    this.previewing = 0;
    const rows = this.opts.paylines?.[line - 1];
    if (!rows || this.spinning) { this.changed = true; return; }
    this.previewing = line;
    const path = rows.map((row, reel) => [reel, row] as Cell);
    const ends = this.markers.filter((m) => m.line === line);
    this.preview.addChild(this.paylinePath(path, 0x9fe8ff, ends.length === 2 ? ends : undefined));
    for (const m of ends) {
      const ring = new Graphics().circle(m.x, m.y, this.markerRadius + 3).stroke({ width: 3, color: 0x9fe8ff });
      this.preview.addChild(ring);
    }
    this.changed = true;
  }

  /** The line a player points at now (0: none), for the tests. */
  get previewed(): number {
    return this.previewing;
  }

  /** The compact treatment's badges: the line's number, lit, at both ends of its path, as
   * large on the screen as the markers would be small. */
  private lineBadges(path: readonly Cell[], line: number): Container[] {
    const { cell, gap } = this.opts;
    const outset = this.opts.badgeOutset ?? BADGE_OUTSET;
    const radius = this.compact / 2 / this.screenScale;
    const first = path[0]!, last = path[path.length - 1]!;
    const ends = [
      { x: -radius * outset, y: first[1] * cell + cell / 2 },
      { x: last[0] * (cell + gap) + cell + radius * outset, y: last[1] * cell + cell / 2 },
    ];
    return ends.map(({ x, y }) => {
      this.badges.push({ line, x, y, r: radius * (1 + BADGE_STROKE / 2) });
      const badge = new Container();
      badge.position.set(x, y);
      badge.scale.y = 1 / this.stretch;
      badge.label = `line-badge-${line}`;
      const disc = new Graphics().circle(0, 0, radius).fill({ color: GLOW }).stroke({ width: radius * BADGE_STROKE, color: 0xffffff });
      const text = new Text({ text: String(line), style: { fontFamily: "Lilita One, Impact, sans-serif", fontSize: Math.round(radius * 1.15), fill: 0x1a0a00, stroke: { color: 0xffffff, width: Math.max(2, radius * 0.08) } } });
      text.anchor.set(0.5);
      badge.addChild(disc, text);
      return badge;
    });
  }

  /** The line's path through its cells; from its number marker to its number marker when the
   * reels have them (`ends`: left, right), else a little beyond the first and last reel with
   * the ends marked. */
  private paylinePath(path: readonly Cell[], colour: number, ends?: readonly { x: number; y: number }[]): Graphics {
    const { cell, gap } = this.opts;
    const points = path.map(([r, w]) => ({ x: r * (cell + gap) + cell / 2, y: w * cell + cell / 2 }));
    const first = points[0]!, last = points[points.length - 1]!;
    const reach = cell / 2 + 10;
    const start = ends?.[0] ?? { x: first.x - reach, y: first.y }, end = ends?.[1] ?? { x: last.x + reach, y: last.y };
    const g = new Graphics();
    const strokes = paylineStrokes(cell, colour, this.paylineLook);
    for (const s of strokes) {
      g.moveTo(start.x, start.y);
      for (const p of points) g.lineTo(p.x, p.y);
      g.lineTo(end.x, end.y).stroke({ ...s, join: "round", cap: "round" });
    }
    const dot = this.paylineLook?.colour ?? colour;
    if (!ends) for (const p of [start, end]) g.circle(p.x, p.y, Math.max(7, cell / 12, strokes.at(-1)!.width)).fill({ color: dot });
    return g;
  }

  /** A badge with `text` ("x3") at the bottom of a cell: a wild's drawn multiplier. */
  markCell([r, row]: Cell, text: string): void {
    if (this.destroyed) return;
    const { cell, gap } = this.opts;
    const size = Math.round(cell * 0.3);
    const badge = new Container();
    badge.label = `cell-mark-${r}-${row}`;
    const label = new Text({ text, style: { fontFamily: "Lilita One, Impact, sans-serif", fontSize: size, fill: 0xfff2a8, stroke: { color: 0x2a0a00, width: Math.max(3, size / 7) } } });
    label.anchor.set(0.5);
    const w = Math.max(label.width + size * 0.5, size * 1.6), ht = size * 1.25;
    const back = new Graphics().roundRect(-w / 2, -ht / 2, w, ht, ht / 2).fill({ color: 0x8a1c00, alpha: 0.92 }).stroke({ width: Math.max(2, size / 10), color: 0xffd34d });
    badge.addChild(back, label);
    badge.scale.y = 1 / this.stretch;
    badge.position.set(r * (cell + gap) + cell / 2, row * cell + cell / 2 + (cell / 2 - ht / 2 - cell * 0.04) / this.stretch); // at the foot of the symbol as drawn
    this.wildMarks.addChild(badge);
    this.changed = true;
  }

  /** Reel `r` filled by a wild: every row shows `symbol`, the reel framed in gold with a
   * badge (`text`, "x3") at its top, until the next spin or landing. */
  expandReel(r: number, symbol: string, text: string): void {
    const model = this.models[r];
    if (this.destroyed || !model) return;
    const { cell, gap, rows } = this.opts;
    model.show(Array.from({ length: rows }, () => symbol));
    this.draw();
    const x = r * (cell + gap);
    const frame = new Graphics().roundRect(x - 3, -3, cell + 6, rows * cell + 6, 16)
      .fill({ color: 0xffd34d, alpha: 0.12 }).stroke({ width: Math.max(4, cell / 22), color: 0xffd34d });
    frame.label = `reel-frame-${r}`;
    const size = Math.round(cell * 0.34);
    const badge = new Container();
    badge.label = `reel-mark-${r}`;
    const label = new Text({ text, style: { fontFamily: "Lilita One, Impact, sans-serif", fontSize: size, fill: 0xfff2a8, stroke: { color: 0x2a0a00, width: Math.max(3, size / 7) } } });
    label.anchor.set(0.5);
    const w = Math.max(label.width + size * 0.6, size * 1.8), ht = size * 1.3;
    const back = new Graphics().roundRect(-w / 2, -ht / 2, w, ht, ht / 2).fill({ color: 0x8a1c00, alpha: 0.95 }).stroke({ width: Math.max(2, size / 9), color: 0xffd34d });
    badge.addChild(back, label);
    badge.position.set(x + cell / 2, ht / 2 + cell * 0.06); // at the reel's top, clear of the win words
    this.wildMarks.addChild(frame, badge);
    this.changed = true;
  }

  /** Hold-and-win: `coins` drawn still over their cells, each with its words (its value), the
   * reels spinning only under the others; `landed` (cell keys "r,row") pop as they appear.
   * Null or empty: none held. */
  holdCoins(coins: readonly HeldLook[] | null, landed: ReadonlySet<string> = new Set()): void {
    if (this.destroyed) return;
    this.held.removeChildren().forEach((c) => c.destroy({ children: true }));
    this.heldCoins = new Map((coins ?? []).map((c) => [`${c.cell[0]},${c.cell[1]}`, c]));
    this.heldPops = [];
    const { cell, gap } = this.opts;
    for (const [key, look] of this.heldCoins) {
      const [r, w] = look.cell;
      // the cell's own ground under the coin: what spins beneath does not show through
      const ground = new Graphics().rect(r * (cell + gap), w * cell, cell, cell).fill({ color: HELD_GROUND });
      const coin = this.coinOf(look);
      coin.position.set(r * (cell + gap) + cell / 2, w * cell + cell / 2);
      coin.label = `held-${r}-${w}`;
      this.held.addChild(ground, coin);
      if (landed.has(key) && this.profile.glow) this.heldPops.push({ coin, age: 0 });
    }
    this.changed = true;
  }

  /** The cells held now, "r,row" (for the tests). */
  heldCells(): string[] {
    return [...this.heldCoins.keys()];
  }

  /** What the reels show spinning by: `strips` (one per reel; hold-and-win's respins spin
   * empty cells and coins), or null: the game's own. */
  setSpinStrips(strips: readonly (readonly string[])[] | null): void {
    this.models.forEach((m, r) => { m.strip = strips?.[r] ?? this.opts.strips[r] ?? this.opts.strips[0] ?? m.strip; });
  }

  private heldPops: { coin: Container; age: number }[] = [];

  /** A held coin drawn centred on 0,0: the prize symbol's art, a plate with its words over it. */
  private coinOf(look: HeldLook): Container {
    const { cell } = this.opts;
    const box = new Container();
    const art = new Sprite(this.textures.get(look.symbol));
    art.anchor.set(0.5);
    art.width = art.height = cell;
    box.addChild(art);
    const [main, sub] = look.lines;
    const plate = new Graphics();
    box.addChild(plate);
    const big = Math.round(cell * (look.jackpot ? 0.24 : 0.3));
    const top = new Text({ text: main ?? "", style: { fontFamily: "Lilita One, Impact, sans-serif", fontSize: big, fill: look.jackpot ? 0xffe066 : 0xffffff, stroke: { color: 0x2a1400, width: Math.max(3, big / 6), join: "round" } } });
    top.anchor.set(0.5);
    top.scale.set(Math.min(1, (cell * 0.84) / Math.max(1, top.width)));
    const small = Math.round(cell * 0.2);
    const bottom = new Text({ text: sub ?? "", style: { fontFamily: "Lilita One, Impact, sans-serif", fontSize: small, fill: 0xfff2c0, stroke: { color: 0x2a1400, width: Math.max(2, small / 5), join: "round" } } });
    bottom.anchor.set(0.5);
    bottom.scale.set(Math.min(1, (cell * 0.84) / Math.max(1, bottom.width)));
    const h = top.height + (sub ? bottom.height : 0);
    top.position.set(0, -h / 2 + top.height / 2);
    bottom.position.set(0, h / 2 - bottom.height / 2);
    const w = Math.min(cell * 0.94, Math.max(top.width, bottom.width) + cell * 0.12);
    plate.roundRect(-w / 2, -h / 2 - cell * 0.03, w, h + cell * 0.06, cell * 0.1).fill({ color: look.jackpot ? 0x6a0d0d : 0x3a2200, alpha: 0.82 }).stroke({ width: Math.max(2, cell / 50), color: 0xffd34d, alpha: 0.9 });
    box.addChild(top);
    if (sub) box.addChild(bottom);
    return box;
  }

  /** Every cell's mark goes (a spin, a new window). */
  clearMarks(): void {
    if (this.destroyed || !this.wildMarks.children.length) return;
    this.wildMarks.removeChildren().forEach((c) => c.destroy());
    this.changed = true;
  }

  clearHighlight(): void {
    if (this.destroyed) return;
    if (this.badges.length) { this.badges = []; this.emit("badges", this.badges); }
    this.highlighted = [];
    this.winners = [];
    for (const m of this.markers) m.lit.visible = false;
    this.overlay.removeChildren().forEach((c) => c.destroy());
    this.sparks.removeChildren().forEach((c) => c.destroy());
    this.overlay.alpha = 1;
    this.changed = true;
  }

  private burst(cells: readonly Cell[], colour: number): void {
    const n = this.profile.particles;
    if (!n || !cells.length) return;
    const { cell, gap } = this.opts;
    for (let i = 0; i < n; i++) {
      const [r, w] = cells[i % cells.length] as Cell;
      const g = new Graphics().circle(0, 0, 3 + (i % 3)).fill(colour);
      g.position.set(r * (cell + gap) + cell / 2, w * cell + cell / 2);
      const a = (i / n) * Math.PI * 2;
      (g as Graphics & { v: [number, number] }).v = [Math.cos(a) * (80 + (i % 5) * 30), Math.sin(a) * (80 + (i % 7) * 20)];
      this.sparks.addChild(g);
    }
  }

  private tick(): void {
    // wall-clock seconds since the last frame, uncapped below MAX_FRAME_MS (the ticker's
    // deltaMS stops at 100 ms: at 2 fps the reels turned at a fifth of their speed)
    const now = this.clock();
    const dt = frameDelta(now, this.last) / 1000;
    this.last = now;
    let landed = 0;
    this.models.forEach((m, r) => {
      if (m.update(dt)) {
        landed++;
        const column = this.columns[r];
        if (column) column.filters = [];
        this.emit("reelstop", r);
      }
    });
    if (this.spinning || landed) {
      // LOW draws a spinning reel every frameStep-th 60 Hz frame at most (by time, so a slow
      // machine's every frame is drawn)
      if (!this.spinning || landed || now - this.drawnAt >= (this.profile.frameStep * 1000) / 60 - 1) {
        this.drawnAt = now;
        this.draw();
      }
    }
    if (this.pending && landed) {
      this.pending.left -= landed;
      if (this.pending.left <= 0 || !this.spinning) {
        const p = this.pending;
        this.pending = null;
        p.resolve();
      }
    }
    if (this.highlighted.length && this.profile.glow) {
      this.pulse += dt * 5;
      const k = 1 + WIN_PULSE * Math.max(0, Math.sin(this.pulse));
      for (const w of this.winners) w.sprite.scale.set(w.base * k);
    }
    this.drawAnticipation(dt);
    for (const p of this.heldPops) {
      p.age += dt;
      const k = Math.min(1, p.age / MARK_POP_S);
      p.coin.scale.set(1 + 0.25 * Math.sin(Math.PI * k));
    }
    this.heldPops = this.heldPops.filter((p) => p.age < MARK_POP_S);
    for (const p of this.popping) {
      p.age += dt;
      const k = Math.min(1, p.age / MARK_POP_S);
      p.badge.scale.set(1 + 0.5 * Math.sin(Math.PI * k));
    }
    this.popping = this.popping.filter((p) => p.age < MARK_POP_S);
    for (const s of this.sparks.children) {
      const g = s as Graphics & { v: [number, number] };
      g.x += g.v[0] * dt;
      g.y += g.v[1] * dt;
      g.alpha -= dt * 1.2;
    }
    for (const s of [...this.sparks.children]) if (s.alpha <= 0) s.destroy();
  }

  /** A pulsing glow around each reel spinning on in anticipation, from when the reels before the
   * first of them have landed. */
  private drawAnticipation(dt: number): void {
    const first = this.anticipating.indexOf(true);
    const on = first > 0 && this.models[first - 1]?.state === "idle" && this.anticipating.some((a, r) => a && this.models[r]?.state !== "idle");
    if (!on && !this.antGlow.visible) return;
    this.antGlow.clear();
    this.antGlow.visible = on;
    if (!on) return;
    this.pulse += dt * 6;
    const { cell, gap, rows } = this.opts;
    const a = this.profile.glow ? 0.55 + 0.35 * Math.sin(this.pulse) : 0.8;
    this.anticipating.forEach((ant, r) => {
      if (!ant || this.models[r]?.state === "idle") return;
      const x = r * (cell + gap);
      this.antGlow.roundRect(x - 10, -10, cell + 20, rows * cell + 20, 20).stroke({ width: 10, color: GLOW, alpha: 0.3 * a });
      this.antGlow.roundRect(x - 3, -3, cell + 6, rows * cell + 6, 14).fill({ color: GLOW, alpha: 0.14 * a }).stroke({ width: 6, color: 0xfff2a8, alpha: a });
    });
  }

  /** The symbols drawn again from their textures (a screen changed their look). */
  redraw(): void {
    this.draw();
  }

  private draw(): void {
    if (this.destroyed) return;
    this.changed = true;
    const { cell, rows } = this.opts;
    this.models.forEach((m, r) => {
      const base = Math.floor(m.offset);
      const frac = m.offset - base;
      const list = this.sprites[r] ?? [];
      for (let j = -1; j < rows; j++) {
        const sprite = list[j + 1];
        if (!sprite) continue;
        sprite.texture = this.textures.get(m.symbolAt(base - j));
        sprite.width = sprite.height = cell;
        sprite.y = (frac + j) * cell;
      }
    });
  }

  override destroy(): void {
    this.ticker.remove(this.tick, this);
    this.pending?.resolve();
    // The motion blur's filter is the reels' own: taken off the columns and destroyed before
    // anything else, so no shader still holds a texture the renderer then destroys (PixiJS
    // warned "textureSource destroyed while still bound" on leaving a game after a spin).
    for (const c of this.columns) c.filters = [];
    this.blur.destroy();
    super.destroy({ children: true });
  }
}
