// The handlers' unit tests' stand-in for a screen: a SlotView that draws nothing and records
// what it was asked, one stub for every test file that plays outcomes through the handlers
// (each extends it with its game's own calls). `calls` holds the calls a test names when it
// makes one (`new RecordingView(["land", "highlight"])`): "land", "highlight <label>",
// "banner <text>"..., so that a test comparing the whole list sees only what it is about.
// Whatever it records, it keeps the grid on screen, each land's `anticipate`, the win meter's
// values, the cells highlighted and the spin info lines.
import type { Cell } from "../../src/core/outcome";
import type { SlotView } from "../../src/screens/game/registry";

/** The SlotView calls a RecordingView may record in `calls`. */
export type Recorded = "spinStart" | "land" | "tumble" | "show" | "highlight" | "banner";

export class RecordingView implements SlotView {
  calls: string[] = [];
  grid: string[][] = [];
  /** Each land's `anticipate` option, in order. */
  anticipate: (boolean | undefined)[] = [];
  /** The win meter's values, in order. */
  wins: number[] = [];
  highlights: { cells: Cell[]; label: string; line?: Cell[] }[] = [];
  spinInfo: string[] = [];

  constructor(private readonly recorded: readonly Recorded[] = []) {}

  /** A call of `kind` (with its label or text, `detail`), if this view records that kind. */
  protected record(kind: Recorded, detail?: string): void {
    if (this.recorded.includes(kind)) this.note(kind, detail);
  }

  /** Where a recorded call goes: `calls`, as "kind" or "kind detail". */
  protected note(kind: Recorded, detail?: string): void {
    this.calls.push(detail === undefined ? kind : `${kind} ${detail}`);
  }

  spinStart() { this.record("spinStart"); }
  async land(symbols: string[][], options: { anticipate?: boolean } = {}) { this.record("land"); this.grid = symbols; this.anticipate.push(options.anticipate); }
  async tumble(symbols: string[][]) { this.record("tumble"); this.grid = symbols; }
  show(symbols: string[][]) { this.record("show"); this.grid = symbols; }
  current() { return this.grid; }
  async highlight(cells: Cell[], label: string, options: { line?: Cell[] } = {}) { this.record("highlight", label); this.highlights.push({ cells, label, line: options.line }); }
  clearHighlight() {}
  async banner(text: string) { this.record("banner", text); }
  setWin(credits: number) { this.wins.push(credits); }
  setSpinInfo(text: string) { this.spinInfo.push(text); }
  sound() {}
}
