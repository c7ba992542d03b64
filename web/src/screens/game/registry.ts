// Where each game module plugs in (web/src/screens/<game>/index.ts calls registerGame). The
// generic shell (shell.ts) runs the round; a module says how its outcome events are drawn:
//
//   registerGame({
//     key: "cluedo",                 // the operator's game key (GET /api/v1/games -> key)
//     status: "ready",               // "todo": still the generic rendering
//     symbols: { MJ: { colour: 0xd4af37, shape: "star", label: "MJ" }, ... },
//     handlers: (game) => ({ ...genericHandlers(game), line_win: async (e, ctx) => ... }),
//     hooks: { beforeSpin: (spin, ctx) => ctx.view.setSpinInfo(...) },
//     createView: (deps) => new MyView(deps),   // optional: extends or replaces SlotView
//     replay: (host, round, game) => ...,       // optional: the history page's replay
//   });
//
// Handlers receive (event, ctx) and call ctx.view (a SlotView): never Pixi directly, so a test
// can play real outcome fixtures against a fake view.
import type { Cell, Outcome } from "../../core/outcome";
import type { Handlers, SpinHooks } from "../../core/player";
import type { BetOption, GameView, RoundView, StepChoice } from "../../net/types";
import type { Rect, Stage } from "../../render/app";
import type { Sfx } from "../../render/sound";
import type { SymbolTable } from "../../render/symbols";
import type { FrameArt } from "../../render/reels";
import type { WinCycle } from "../../core/win-cycle";
import type { FeatureMoment } from "./feature-moments";
import type { HeldCoin, HoldMeter } from "./hold-and-win";

/** A game's look beyond its symbols. The game screen carries the class `theme-<key>`, so the
 * module's CSS draws the scene (`.theme-<key> .stage` backgrounds from its own SVG files); the
 * logo is inline SVG in the title (it may use the bundled faces of render/fonts.ts). */
export interface Theme {
  /** SVG markup of the logo, shown as the title (the title's text stays for screen readers). */
  logo?: string;
  /** The frame drawn around the reels' window (default: a gold line on a dark glass). */
  frame?: FrameArt;
  /** SVG markup decoded before the screen draws (art a view rasterises itself). */
  art?: string[];
  /** SVG markup of the lobby tile's picture (a 16:9 scene from the game's own art). */
  tile?: string;
  /** Three of the game's symbols (ids of its symbol table) standing in front of the lobby
   * tile's scene, so every tile shows the game's cast as well as its place. */
  cast?: string[];
}

/** What handlers may do to the screen. Every method that animates resolves when done. */
export interface SlotView {
  /** Reels start spinning (PLAY pressed; the answer is not in yet). */
  spinStart(): void;
  /** Reels (or grid columns) land on `symbols` ([reel][row]); `anticipate: false`: no reel
   * slows for the feature's trigger (a spin of the feature itself). */
  land(symbols: string[][], options?: { fast?: boolean; anticipate?: boolean }): Promise<void>;
  /** A tumble: the grid becomes `symbols` (cells fall in from above). */
  tumble(symbols: string[][], options?: { fast?: boolean }): Promise<void>;
  /** Draw `symbols` at once, no animation (recovery, replay). */
  show(symbols: string[][]): void;
  /** What is on screen now, [reel][row]. */
  current(): string[][];
  /** Highlight cells with a label (the win amount) for a moment. */
  highlight(cells: Cell[], label: string, options?: { fast?: boolean; line?: Cell[] }): Promise<void>;
  clearHighlight(): void;
  /** After the round, until the next spin: its winning lines drawn in turn, or all at once
   * (`still`: reduced motion); null stops the cycle (core/win-cycle.ts). `outcome` is the
   * round's (its spins up to the one on show), for a view that shows more than lines (Candy's
   * clusters, Cops' collections). */
  showWins?(cycle: WinCycle | null, still?: boolean, outcome?: Pick<Outcome, "spins"> & Partial<Pick<Outcome, "total_win">>): void;
  /** A mark drawn on one cell (a wild's multiplier, "x3") until the reels spin or land again. */
  markCell?(cell: Cell, text: string): void;
  /** A reel an expanding wild fills: every row shows `symbol`, the reel framed with its
   * multiplier's badge (`text`, "x3") until the reels spin or land again; `held`: it was wild
   * before this spin. */
  expandReel?(reel: number, symbol: string, text: string, held: boolean): void;
  /** A feature's intro or outro over the reels (ui/moment.ts), skippable by a tap or Space;
   * absent: the handlers say its words in a banner. */
  featureMoment?(moment: FeatureMoment, options?: { fast?: boolean }): Promise<void>;
  /** Hold-and-win: the locked coins drawn still on their cells with their values while only the
   * empty cells spin; `landed`: those that just locked (they pop); null: none held. Resolves
   * once they are on the screen (the frame that draws them), so the meter's total that counts
   * them is shown no earlier than their values. */
  holdCoins?(coins: readonly HeldCoin[] | null, landed?: readonly HeldCoin[]): void | Promise<void>;
  /** Hold-and-win's meter: the respins left and the coins' running total (credits), at the
   * end the trigger spin's win and the round's beside it; null hides it. Absent: the handlers
   * say them in the spin counter line. */
  holdMeter?(state: HoldMeter | null): void;
  /** The view's handlers show a capped round's own MAX WIN moment before the round ends (Candy
   * Jar's): the shell adds no win tier after it. */
  readonly celebratesCap?: boolean;
  /** A message over the reels for a moment (feature triggered, multiplier, jackpot). */
  banner(text: string, options?: { ms?: number; fast?: boolean }): Promise<void>;
  /** A cluster game's grid multipliers on the cells ([reel][row], the outcome's
   * grid_multipliers cells: 0 none, 1 marked by a first win, else the multiplier); null: none
   * (a new round). They stay on their cells through tumbles and free spins. */
  setCellMultipliers?(cells: readonly (readonly number[])[] | null): void;
  /** The win meter, in credits. */
  setWin(credits: number): void;
  /** The free-spin / bonus counter line ("" hides it). */
  setSpinInfo(text: string): void;
  sound(effect: Sfx): void;
  /** Lay the reels out in the stage above the bottom `px` CSS px (the console and an open
   * choice cover them) and below the top `top` CSS px (the game's title); the shell calls it
   * whenever what covers the stage changes size. */
  fitAbove?(px: number, top?: number): void;
  /** The reels' (or grid's) window in CSS px of the stage's host, as laid out now. */
  windowRect?(): Rect;
}

export interface ViewDeps {
  stage: Stage;
  game: GameView;
  symbols: SymbolTable;
  theme?: Theme;
  /** The DOM layer over the canvas (banners). */
  overlay: HTMLElement;
  /** The win meter and spin counter outputs of the console. */
  setWin(credits: number): void;
  setSpinInfo(text: string): void;
  /** An effect; `detail` is the stopping reel's index for "stop" (render/sound.ts). */
  sound(effect: Sfx, detail?: number): void;
}

/** What a module's own bet controls may read and do (the shell keeps the bet). */
export interface BetControls {
  /** The server's bet options for this session, cheapest first. */
  readonly bets: readonly BetOption[];
  selected(): BetOption;
  /** Choose an offered bet; false (and nothing changes) when the server does not offer it. */
  select(bet: { lines: number; bet_per_line: number }): boolean;
  /** The server's modes (name, title, price in stakes); a module drawing its own mode switch
   * (Cops n Robbers' Fortune Spins) replaces the generic mode selector. */
  readonly modes: GameView["modes"];
  mode(): string;
  /** Choose a mode the server offers; false (nothing changes) otherwise or while in play. */
  selectMode(name: string): boolean;
  /** Whole credits the balance buys at the game's denomination. */
  balanceCredits(): number;
  /** False while a round is in play: controls must not change the bet then. */
  enabled(): boolean;
  /** Called after any change of bet, balance or flow: redraw the controls. */
  onChange(listener: () => void): () => void;
}

/** What a module's choice screen may do when the server answers a step. */
export interface ChoiceScreen {
  /** Animate the step's result (a wheel's pointer landing) before the shell goes on; must
   * resolve (the shell gives up after 10 s). */
  answered?(next: RoundView): Promise<void>;
  /** The words for the round's end when this step ended it (what the gamble did), in place of
   * the shell's "The round paid ..."; null: the shell's words. */
  summary?(next: RoundView): string | null;
}

/** One line of a stored round's plain account on the history page, in a player's words: `spin`
 * is the index of the outcome spin it tells of (absent: the round as a whole, a step after it);
 * a `heading` names a spin or a part ("Free spin 3 of 15", "Gamble"). */
export interface AccountLine {
  text: string;
  spin?: number;
  heading?: boolean;
}

export interface GameModule {
  key: string;
  status: "todo" | "ready";
  /** "credits": the game's rules show awards in credits (Cluedo: "Awards are shown in credits,
   * except the Jackpot"), so the console opens with the balance in credits and the WIN meter
   * in credits alone, one unit on the screen (the balance still shows money at a tap). */
  units?: "credits";
  /** The rule sheet's word for taking a held win (Cluedo's "TAKE WIN"): PLAY at a held win
   * reads "<word> & PLAY", as the offer's own button does. Default COLLECT (Cops' sheet). */
  collectWord?: string;
  /** The words on the first-visit intro card's button (ui/intro.ts; default LET'S PLAY):
   * Cluedo's cabinet says PRESS TO START. */
  introStart?: string;
  symbols?: SymbolTable;
  theme?: Theme;
  handlers(game: GameView): Handlers<SlotView>;
  hooks?: SpinHooks<SlotView>;
  createView?(deps: ViewDeps): SlotView & { destroy(): void };
  /** The game's own bet controls, in place of the generic bet selector. */
  betControls?(controls: BetControls, game: GameView): HTMLElement;
  /** The game's own choice screen (wheels, a deck), drawn into `host` in place of the generic
   * buttons each time the round stops at a choice; `send` takes one of `round.choice.choices`;
   * `setWin` puts a step's amount on the WIN meter as its animation shows it (the shell sets the
   * server's `pending_win_credits` again once `answered` resolves). */
  choices?(host: HTMLElement, round: RoundView, send: (kind: string, choice: StepChoice) => void, game: GameView, setWin: (credits: number) => void): ChoiceScreen | void;
  /** Each time the shell has the server's answer for a round (played, stepped, or resumed on
   * entering the game): draw what the round view says beyond the outcome (Cluedo's jackpot
   * claim, the meter bar's bet). Synchronous: nothing is awaited. */
  roundShown?(round: RoundView, view: SlotView): void;
  /** Right after a round's events, before its win is celebrated: a moment that must be told
   * first (Cluedo's MegaJackpot and its notice). True: it was the round's celebration (the
   * tier's count-up is not played over it). */
  roundPlayed?(round: RoundView, view: SlotView): Promise<boolean>;
  /** On every redraw of the console: the bet and mode selected now (Cluedo's meter bar shows
   * the bet from the first screen, Candy Jar's ladder its jackpots at the bet). */
  betShown?(bet: BetOption, mode: string, view: SlotView): void;
  /** The history page's replay of a stored round (default: the generic reel replay). */
  replay?(host: HTMLElement, round: RoundView, game: GameView | undefined, outcome: Outcome): Promise<() => void> | (() => void);
  /** The history page's plain account of a stored round (default: screens/history/account.ts). */
  account?(round: RoundView, game: GameView | undefined): AccountLine[];
  /** What each special symbol does, by symbol id, in a player's words from the game's rules:
   * the paytable's "Special symbols" says it beside the symbol (a wild with pays of its own is
   * listed there too when it has a line here: its pay card does not say it is wild). */
  symbolNotes?: Record<string, string>;
  /** The lobby's info card in a player's words (screens/lobby/tile.ts tileCard): a one-line
   * pitch in the game's own terms and its features, their figures from `game` (its info, modes,
   * gamble setting). Without: the game description's words. */
  card?(game: GameView): CardWords;
}

export interface CardWords {
  pitch: string;
  features: string[];
  /** The game's draw on its lobby tile's plaque, where it has no progressive jackpot (that
   * plaque shows the live pool): a name and a figure from the game's own data. */
  headline?: { label: string; value: string };
}

const modules = new Map<string, GameModule>();

export function registerGame(module: GameModule): void {
  if (modules.has(module.key)) throw new Error(`game module ${module.key} is registered twice`);
  modules.set(module.key, module);
}

export function gameModule(key: string): GameModule | undefined {
  return modules.get(key);
}

/** The module drawing `game`: by its key, else by its game id's prefix (a test-only game file
 * served under another key, e.g. "cluedo-fs" playing game id "cluedo-e2e-fs-v1"). */
export function moduleFor(game: { key: string; game_id: string }): GameModule | undefined {
  return modules.get(game.key) ?? [...modules.values()].find((m) => game.game_id.startsWith(m.key + "-") || game.key.startsWith(m.key + "-"));
}

export function registeredGames(): string[] {
  return [...modules.keys()];
}
