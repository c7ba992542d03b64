// A reel's spin state, apart from its drawing (render/reels.ts draws it each frame): where the
// reel is, how fast it moves, and the symbols it must land on. No Pixi here: unit-tested alone.
//
// Symbols are numbered n = 0, 1, 2 ... in the order they enter at the top. At scroll `offset`
// o, symbol n is drawn (o - n) cells below the top row: the window shows n = floor(o) - row.
// Landing on a window W means stopping at an integer target T with symbol T - row = W[row].

export type ReelState = "idle" | "spinning" | "landing";

function mod(a: number, m: number): number {
  return ((a % m) + m) % m;
}

export class ReelModel {
  offset = 0;
  speed = 0; // cells per second
  state: ReelState = "idle";
  target = 0;
  private overrides = new Map<number, string>();

  constructor(public strip: readonly string[], readonly rows: number) {
    if (strip.length === 0) throw new Error("a reel needs at least one symbol on its strip");
  }

  symbolAt(n: number): string {
    return this.overrides.get(n) ?? this.strip[mod(-n, this.strip.length)] ?? "";
  }

  /** What the window shows now, top to bottom (whole cells). */
  visible(): string[] {
    const base = Math.floor(this.offset);
    return Array.from({ length: this.rows }, (_, r) => this.symbolAt(base - r));
  }

  /** Show `window` at once (a resumed round, a replay), without spinning. */
  show(window: readonly string[]): void {
    this.state = "idle";
    this.speed = 0;
    this.offset = Math.ceil(this.offset);
    this.target = this.offset;
    this.overrides = new Map();
    window.forEach((s, r) => this.overrides.set(this.offset - r, s));
  }

  start(speed: number): void {
    const keep = new Map<number, string>();
    const base = Math.floor(this.offset);
    for (let j = -1; j <= this.rows; j++) keep.set(base - j, this.symbolAt(base - j));
    this.overrides = keep;
    this.speed = speed;
    this.state = "spinning";
  }

  /** Stop `runup` whole cells from now, on `window` (top to bottom). */
  land(window: readonly string[], runup: number): void {
    if (window.length !== this.rows) throw new Error(`land: ${window.length} symbols for a reel of ${this.rows} rows`);
    if (this.state === "idle") this.start(this.speed || 20);
    this.target = Math.ceil(this.offset) + Math.max(1, Math.round(runup)) + this.rows;
    window.forEach((s, r) => this.overrides.set(this.target - r, s));
    this.state = "landing";
  }

  /** Advance by `dt` seconds; true when the reel has just landed. */
  update(dt: number): boolean {
    if (this.state === "idle") return false;
    this.offset += this.speed * dt;
    if (this.state === "landing" && this.offset >= this.target) {
      this.offset = this.target;
      this.state = "idle";
      this.speed = 0;
      return true;
    }
    return false;
  }
}
