// Candy Jar Clusters' screen: the 7x7 CandyGrid on the canvas, and over it (DOM, so it reads
// and scales with the page) the three jars with their modifiers, the jackpot ladder, the
// free / super spin counter, the EXTRA meter, the random multiplier, the win line, the bonus
// total and the win cap notice. Every text shown is a value handed in by the handlers.
import { maxWinSaid, maxWinTimes } from "../../core/max-win";
import { creditsAndMoney, creditsMoney, formatCredits, formatMoney } from "../../core/money";
import { sleep } from "../../core/timing";
import type { BetOption } from "../../net/types";
import { HUD_SHARE, type DesignSize, type Rect } from "../../render/app";
import { SymbolTextures } from "../../render/symbols";
import { h } from "../../ui/dom";
import { showMoment } from "../../ui/moment";
import type { ViewDeps } from "../game/registry";
import "./candy.css";
import { CandyGrid } from "./grid";
import { idleBoard } from "./idle";
import { extraLine, extraMeter, JAR_BOX, jarFill, jarRules, pileSlots, superSpinEvery, triggerLine, type JarRules, type PileSlot } from "./jars";
import jarBack from "./art/jar-back.svg?raw";
import jarFront from "./art/jar-front.svg?raw";
import { jackpotCollects, jackpotMoment, jackpotMultiples, ladderAmounts } from "./ladder";
import { dropMultiplier } from "./mult-drop";
import { MODIFIER_ART, modifierWords, type ModifierWords } from "./modifiers";
import { JACKPOTS, JAR_CANDY, JAR_NAMES, JARS, type CandyView as CandyViewApi, type FreeSpinCounter, type Jar } from "./handlers";
import { CANDY_SYMBOLS, JAR_COLOURS } from "./symbols";
import { candyWinCycle, cycleLine } from "./wins";
import { WIN_CYCLE_MS } from "../../core/win-cycle";
import type { Cell, Outcome } from "../../core/outcome";

const CELL = 88;
/** The grid grows past CELL on a large screen (1920x1080 draws it about 1.26 CSS px per design
 * px): its candies are rasterised this much finer, so that they stay sharp there. */
const OVERSAMPLE = 1.5;
/** Design px between the stage's top and the grid's frame on a desktop: the cabinets' cornice
 * rises 12 px over them, its shadow under it. */
const CORNICE_ROOM = 26;
/** The frame's CSS px the cabinets' sizes were drawn for (1440x900, candy.css): they are scaled
 * by the frame's size over it (--candy-k), so that they end level with it at every size. */
const CABINET_FRAME_PX = 614;
/** The candies that fill a jar where the pages give no trigger. */
const JAR_CAPACITY = 3;
/** CSS px kept free under the grid: the win line; on a phone also the jars and the ladder. */
const UNDER_LANDSCAPE = 46;
const UNDER_PORTRAIT = 200;
/** The least font size (CSS px) of the win line: a player must read it. */
const WINLINE_MIN_PX = 12;
const JACKPOT_COLOURS: Record<string, string> = { MINI: "#5ec8f0", MINOR: "#63e08a", MAJOR: "#ff9a52", MAXI: "#c77dff", GRAND: "#ff3d6e" }; // the coins' colours (art/jackpot-*.svg)
const css = (n: number) => `#${n.toString(16).padStart(6, "0")}`;

function hold(ms: number, fast?: boolean): Promise<void> {
  return sleep(fast ? Math.min(ms, 120) : ms);
}

/** One wall of a jar's glass, inline so its lid takes the jar's colour (--jar); its gradients'
 * ids made the jar's own (`prefix`), the page holding three jars. */
function glass(svg: string, prefix: string, wall: string): HTMLElement {
  const el = h("span", { class: `glass ${wall}`, "aria-hidden": "true" });
  el.innerHTML = svg.replace(/id="(\w+)"/g, `id="${prefix}-$1"`).replace(/url\(#(\w+)\)/g, `url(#${prefix}-$1)`);
  return el;
}

/** A modifier's picture (art/mod-*.svg), inline with its ids made its own (`prefix`): the intro
 * card and the phone's legend may show the same one at once. */
function modifierArt(j: Jar, prefix: string): HTMLElement {
  return inlineArt(MODIFIER_ART[j], prefix, `modifier-art-${j}`);
}

/** A picture inline (so the page's fonts and colours reach it), its ids made its own (`prefix`). */
function inlineArt(svg: string, prefix: string, testid: string): HTMLElement {
  const el = h("span", { class: "mod-art", "data-testid": testid, "aria-hidden": "true" });
  el.innerHTML = svg.replace(/id="(\w+)"/g, `id="${prefix}-$1"`).replace(/url\(#(\w+)\)/g, `url(#${prefix}-$1)`);
  return el;
}

/** A symbol's picture (its authored SVG), inline with its ids made its own (`prefix`). */
function candyArt(symbol: string, prefix: string): HTMLElement {
  return inlineArt(CANDY_SYMBOLS[symbol]?.svg ?? "", prefix, `art-${symbol}`);
}

/** A candy in a jar at its slot (percent of the jar's box, which keeps the art's proportions);
 * `order`: its place among those dropping in together (they fall one after another). */
function candyPiece(slot: PileSlot, order: number): HTMLElement {
  const pc = (v: number, of: number) => `${(v / of * 100).toFixed(2)}%`;
  return h("i", { style: `left:${pc(slot.x - slot.d / 2, JAR_BOX.width)};top:${pc(slot.y - slot.d / 2, JAR_BOX.height)};width:${pc(slot.d, JAR_BOX.width)};height:${pc(slot.d, JAR_BOX.height)};--tilt:${slot.tilt}deg;--delay:${order * 90}ms` });
}

export class CandyJarView implements CandyViewApi {
  readonly grid: CandyGrid;
  /** showCap plays the capped round's MAX WIN moment (the shell's tier would repeat it). */
  readonly celebratesCap = true;
  private readonly textures: SymbolTextures;
  private readonly root: HTMLElement;
  private readonly jarEls = new Map<Jar, { jar: HTMLElement; count: HTMLElement; dots: HTMLElement }>();
  private readonly modEls = new Map<Jar, HTMLElement>();
  private readonly jackpotEls = new Map<string, { el: HTMLElement; amount: HTMLElement; win: HTMLElement }>();
  private readonly multiples: ReadonlyMap<string, number>;
  private readonly ladder: HTMLElement;
  private readonly legend: HTMLElement;
  private readonly legendRows = new Map<Jar, HTMLElement>();
  private readonly counter: HTMLElement;
  private readonly extra: HTMLElement;
  private readonly mult: HTMLElement;
  private readonly winLine: HTMLElement;
  private readonly bannerEl: HTMLElement;
  private readonly totalEl: HTMLElement;
  private readonly capEl: HTMLElement;
  private readonly unsubscribe: () => void;
  private readonly unsubQuality: () => void;
  private readonly stopAnimating: () => void;

  constructor(private readonly deps: ViewDeps) {
    const { stage, game } = deps;
    const { reels: cols, rows } = game.info.window;
    this.textures = new SymbolTextures(stage.app.renderer, deps.symbols, CELL, stage.app.renderer.resolution * OVERSAMPLE);
    const wilds = deps.game.info.symbols.filter((s) => s.role === "wild").map((s) => s.id);
    this.grid = new CandyGrid(this.textures, { cols, rows, cell: CELL, wilds }, stage.profile, stage.app.ticker);
    stage.root.addChild(this.grid);
    // the idle board until the first spin lands (or a recovered round's grid is shown)
    this.grid.show(idleBoard(game.info));
    this.stopAnimating = stage.animate(() => this.grid.needsFrame());
    // the quality option changes the grid's particles and glow at once
    this.unsubQuality = (() => {
      let last = stage.profile;
      const id = setInterval(() => { if (stage.profile !== last) { last = stage.profile; this.grid.setProfile(last); } }, 500);
      return () => clearInterval(id);
    })();

    // --- the panels -----------------------------------------------------------------------
    const jars = h("div", { class: "jars", "data-testid": "candy-jars" });
    const rules = jarRules(game.info);
    this.jarRules = rules;
    this.pile = pileSlots(rules.trigger ?? JAR_CAPACITY);
    this.superEvery = superSpinEvery(game.info);
    this.modWords = modifierWords(game.info);
    const modifiers = h("div", { class: "modifiers", "data-testid": "candy-modifiers" });
    for (const j of JARS) {
      const colour = css(JAR_COLOURS[j]);
      const count = h("output", { class: "count", "data-testid": `jar-${j}-count` }, "0");
      const dots = h("div", { class: "dots" });
      const said = rules.captions.get(j);
      const explained = said ? `${JAR_NAMES[j]} jar: ${said.candy}, for ${said.gives}` : `${JAR_NAMES[j]} jar`;
      // a glass jar (art/jar-*.svg): its far wall, the candies collected this spin, its near
      // wall with the gloss and the lid in the jar's colour, the jar's name on the lid
      const jar = h("div", { class: "jar", style: `--jar:${colour}`, "data-testid": `jar-${j}`, "data-count": "0", "data-lit": "false", "data-full": "false", role: "button", tabindex: "0", "aria-label": explained, "aria-haspopup": "true" },
        glass(jarBack, `${j}-back`, "back"), dots, glass(jarFront, `${j}-front`, "front"), h("span", { class: "name" }, JAR_NAMES[j]), count);
      jar.addEventListener("click", (ev) => { ev.stopPropagation(); this.toggleTip(j, jar); });
      jar.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); this.toggleTip(j, jar); } });
      // what it collects and what it is for, beside it where there is room (a desktop); a tap
      // on a jar says it anywhere (a phone has room for the jars only)
      // a desktop's label is a picture, not a paragraph (a reviewer: "the side panels are
      // paragraphs of rules"): the jar's candy, an arrow, the modifier it gives, and its gist in a
      // few words (the jar's lid names it); the sentence stays for assistive tools, the jar's
      // note and the info pages
      const caption = h("span", { class: "jar-caption", "data-testid": `jar-${j}-caption`, style: `--jar:${colour}`, role: "img", "aria-label": said ? `${said.candy}: ${said.gives}` : JAR_NAMES[j] },
        h("span", { class: "cap-pics", "aria-hidden": "true" }, candyArt(JAR_CANDY[j], `cap-${j}`), h("i", { class: "arrow" }, "➜"), modifierArt(j, `cap-${j}`)),
        h("span", { class: "gist", "aria-hidden": "true" }, this.modWords.get(j)?.gist ?? ""));
      jars.append(h("div", { class: "jar-row" }, jar, caption));
      this.jarEls.set(j, { jar, count, dots });
      const mod = h("span", { class: "modifier", style: `--jar:${colour}`, "data-testid": `modifier-${j}`, "data-lit": "false" }, JAR_NAMES[j]);
      modifiers.append(mod);
      this.modEls.set(j, mod);
    }
    // what the jars need, and how far this spin's candies took them: the rule is the three jars'
    // candies together in one spin (RULES.md: 3 or more start Free Spins, the jars empty after
    // every spin), so the target is theirs together, not one jar's
    this.progress = rules.trigger === null ? null : h("div", { class: "jar-progress", "data-testid": "jar-progress", role: "img" });
    const fills = rules.trigger === null ? null : h("div", { class: "jar-rule", "data-testid": "jar-rule" }, this.progress ?? "", h("span", { class: "words" }, triggerLine(rules)), h("span", { class: "short" }, triggerLine(rules, true)),
      // a desktop's rule as symbols: the three candies, "3+ in one spin", FREE SPINS
      h("span", { class: "rule-pics", "data-testid": "jar-rule-pics", "aria-hidden": "true" },
        h("span", { class: "candies" }, ...JARS.map((j) => candyArt(JAR_CANDY[j], `rule-${j}`))),
        h("b", { class: "need" }, `${rules.trigger}+`), h("small", {}, "IN ONE SPIN"), h("b", { class: "gives" }, "FREE SPINS")));
    this.showProgress({ wild: 0, free_spins: 0, jackpots: 0 });
    this.tip = h("div", { class: "jar-tip", role: "tooltip", "data-testid": "jar-tip", "data-layout": "over-reels", hidden: true });
    this.ladder = h("div", { class: "ladder", "data-testid": "candy-jackpots", "aria-label": "Jackpots" });
    this.multiples = jackpotMultiples(game.info);
    const collects = jackpotCollects(game.info);
    // a desktop's ladder is the cabinet's board: its title, then each jackpot's coin, its name,
    // how many of its coins win it (the pages') and its amount, GRAND at the top
    this.ladder.append(h("b", { class: "ladder-title", "aria-hidden": "true" }, "JACKPOTS"));
    for (const name of JACKPOTS) {
      const amount = h("output", { class: "amount", "data-testid": `jackpot-${name}-amount` }, "");
      const win = h("output", { class: "won", "data-testid": `jackpot-${name}-win` }, "");
      const coin = deps.symbols[name]?.svg;
      const need = collects.get(name);
      const el = h("div", { class: "jackpot", style: `--jp:${JACKPOT_COLOURS[name] ?? "#fff"}`, "data-testid": `jackpot-${name}`, "data-active": "false", "data-won": "false" },
        ...(coin ? [inlineArt(coin, `rung-${name}`, `jackpot-${name}-coin`)] : []),
        h("span", { class: "rung-name" }, h("span", {}, name), ...(need ? [h("small", { class: "rung-need", "data-testid": `jackpot-${name}-need` }, `COLLECT ${need}`)] : [])), amount, win);
      this.ladder.append(el);
      this.jackpotEls.set(name, { el, amount, win });
    }
    // a phone's shelf under the ladder: each modifier pictured (the intro's art) with what it
    // brings, lit while it plays (landscape: the jars' captions say it, candy.css hides this)
    this.legend = h("div", { class: "mod-legend", "data-testid": "candy-mod-legend", "data-layout": "decoration", "aria-label": "Free Spins modifiers" },
      ...JARS.map((j) => {
        const row = h("div", { class: "mod-row", "data-testid": `mod-legend-${j}`, "data-lit": "false", style: `--jar:${css(JAR_COLOURS[j])}` },
          modifierArt(j, `legend-${j}`), h("span", { class: "mod-words" }, h("b", {}, JAR_NAMES[j]), h("span", {}, this.modWords.get(j)?.gist ?? "")));
        this.legendRows.set(j, row);
        return row;
      }));
    this.counter = h("output", { class: "counter", "data-testid": "candy-counter", hidden: true });
    this.extra = h("output", { class: "extra", "data-testid": "candy-extra", hidden: true });
    this.mult = h("output", { class: "mult", "data-testid": "candy-multiplier", hidden: true });
    this.winLine = h("output", { class: "winline", "data-testid": "candy-winline", "data-layout": "decoration", "aria-live": "polite" });
    // the banner is a moment over the grid, by design; the bonus total and the MAX WIN plaque
    // stay after their moments beside the free-spin counter, off the grid (a plaque on the
    // grid's middle hid the final grid the win was made on)
    this.bannerEl = h("div", { class: "banner", role: "status", "data-testid": "candy-banner", "data-layout": "over-reels", hidden: true, style: "white-space:pre-line" });
    this.totalEl = h("output", { class: "total", "data-testid": "candy-total", hidden: true, style: "white-space:pre-line" });
    this.capEl = h("div", { class: "cap", role: "alert", "data-testid": "candy-cap", hidden: true });
    // data-board: "idle" while the idle board shows, "round" once a round's grid replaced it
    this.root = h("div", { class: "candy", "data-testid": "candy-screen", "data-board": "idle" },
      h("div", { class: "side left", "data-layout": "decoration" }, jars, modifiers, fills),
      // landscape: under the ladder, the shop's display shelf fills the cabinet (candy.css)
      h("div", { class: "side right", "data-layout": "decoration" }, this.counter, this.totalEl, this.capEl, this.mult, this.extra, this.ladder, this.legend, this.superCard()),
      this.winLine, this.bannerEl, this.tip);
    deps.overlay.appendChild(this.root);
    // a tap anywhere but on a jar (which toggles its own note) closes the note
    this.closeTip = (ev: Event) => { if (!(ev.target instanceof Element && ev.target.closest(".jar"))) this.toggleTip(null); };
    document.addEventListener("pointerdown", this.closeTip);

    this.unsubscribe = stage.onLayout((design) => this.layout(design));
  }

  /** The right cabinet's foot (a desktop): what a SUPER SPIN takes, as symbols ("5 x [EXTRA] =
   * SUPER SPIN", the pages' count); nothing where the pages do not say. */
  private superCard(): HTMLElement {
    const every = this.superEvery;
    if (!every) return h("div", { class: "super-card", hidden: true });
    return h("div", { class: "super-card", "data-testid": "candy-super-card", role: "img", "aria-label": `Every ${every.every} ${every.symbol} symbols collected award a SUPER SPIN` },
      h("span", { class: "pics", "aria-hidden": "true" }, h("b", {}, `${every.every}×`), candyArt("EXTRA", "super-card")),
      h("span", { class: "gives", "aria-hidden": "true" }, h("b", {}, "SUPER SPIN"), h("small", {}, "IN FREE SPINS")));
  }

  private readonly jarRules: JarRules;
  /** What a SUPER SPIN takes, as the information pages say (null: they do not). */
  private readonly superEvery: { every: number; symbol: string } | null;
  /** The jars' candies of this spin toward the trigger: a pip per candy needed, lit in the
   * colour of the jar it went to, and "2 / 3" (null: the pages give no trigger). */
  private readonly progress: HTMLElement | null;

  private showProgress(counts: Record<Jar, number>): void {
    const need = this.jarRules.trigger;
    if (!this.progress || need === null) return;
    const colours = JARS.flatMap((j) => Array.from({ length: counts[j] }, () => css(JAR_COLOURS[j])));
    const total = colours.length;
    this.progress.dataset.total = String(total);
    this.progress.dataset.need = String(need);
    this.progress.dataset.met = String(total >= need);
    this.progress.setAttribute("aria-label", `${total} of ${need} candies this spin`);
    this.progress.replaceChildren(
      ...Array.from({ length: Math.max(need, total) }, (_, k) => h("i", k < total ? { style: `--jar:${colours[k]}`, "data-lit": "" } : {})),
      // met: the count and a tick ("4 / 3" read as a fraction over its whole)
      h("b", {}, total >= need ? `${total} ✓` : `${total} / ${need}`));
  }
  private readonly tip: HTMLElement;
  private readonly closeTip: (ev: Event) => void;
  private tipTimer: ReturnType<typeof setTimeout> | undefined;

  /** A jar's note over the screen, by the jar tapped: what it collects, what it is for and
   * when the jars start Free Spins (the information pages' words); a second tap, a tap
   * elsewhere or 6 s close it. */
  private toggleTip(jar: Jar | null, el?: HTMLElement): void {
    clearTimeout(this.tipTimer);
    if (jar === null || this.tip.dataset.jar === jar) {
      this.tip.hidden = true;
      delete this.tip.dataset.jar;
      return;
    }
    const said = this.jarRules.captions.get(jar);
    this.tip.replaceChildren(h("strong", {}, `${JAR_NAMES[jar]} JAR`),
      h("span", {}, said ? `${said.candy}: ${said.gives}.` : ""),
      this.jarRules.trigger === null ? "" : h("span", {}, `${this.jarRules.trigger} or more candies in one spin start Free Spins, with the modifier of every jar that received one.`));
    this.tip.dataset.jar = jar;
    this.tip.style.setProperty("--jar", css(JAR_COLOURS[jar]));
    this.tip.hidden = false;
    if (el) {
      const host = this.root.getBoundingClientRect(), r = el.getBoundingClientRect();
      const width = Math.min(260, host.width - 16);
      const left = Math.max(8, Math.min(host.width - width - 8, r.left - host.left + r.width / 2 - width / 2));
      this.tip.style.width = `${width}px`;
      this.tip.style.left = `${left}px`;
      // above the jar where it fits (a phone's jars are under the grid), else below it
      const above = r.top - host.top >= this.tip.offsetHeight + 8;
      this.tip.style.top = above ? "" : `${r.bottom - host.top + 8}px`;
      this.tip.style.bottom = above ? `${host.bottom - r.top + 8}px` : "";
    }
    this.tipTimer = setTimeout(() => this.toggleTip(null), 6000);
  }

  /** CSS px the console (and an open choice) cover at the stage's bottom, and the title takes
   * at its top; null until the shell has measured them. */
  private cover: number | null = null;
  private titlePx: number | null = null;

  fitAbove(px: number, top?: number): void {
    this.cover = px;
    this.titlePx = top ?? null;
    this.layout(this.deps.stage.placement().design);
  }

  /** The grid under the title and above what covers the stage, leaving under it the room of
   * the win line (and, on a phone, of the jars and ladder strip, which follow the grid's
   * bottom through the shell's --reels-* variables: candy.css). Landscape: as the generic
   * reels do (Cluedo's, Cops'), the grid takes the whole height the stage leaves it at any
   * screen size, under the cabinets' cornice, and the cabinets beside it are scaled with its
   * frame (--candy-k); it keeps the middle of the design. A phone's grid is as wide as the
   * design, never past its own size. */
  private layout(design: DesignSize): void {
    this.root.dataset.orientation = design.name;
    const { scale: root, y: rootY, hostHeight } = this.deps.stage.placement();
    const portrait = design.name === "portrait";
    const { cols, rows, cell } = this.grid;
    const w = cols * cell + 36, hgt = rows * cell + 36;
    const top = this.titlePx === null ? (portrait ? 30 : 56) : Math.max(8, (this.titlePx + 6 - rootY) / root) + (portrait ? 0 : CORNICE_ROOM);
    const below = (portrait ? UNDER_PORTRAIT : UNDER_LANDSCAPE) / root;
    const floor = this.cover === null
      ? design.height * (1 - HUD_SHARE[design.name])
      : Math.min(design.height, (hostHeight - this.cover - rootY) / root);
    const free = Math.max(60, floor - top - below);
    const width = portrait ? design.width - 24 : design.width * 0.56;
    const scale = Math.min(width / w, free / hgt, portrait ? 1 : Infinity);
    this.grid.scale.set(scale);
    // the frame reaches 18 cells' px beyond the cells on each side
    this.grid.position.set((design.width - cols * cell * scale) / 2, top + 18 * scale + (free - hgt * scale) / 2);
    this.root.style.setProperty("--candy-k", (hgt * scale * root / CABINET_FRAME_PX).toFixed(4));
    this.deps.stage.invalidate();
  }

  /** The grid's window (its frame) in CSS px of the stage's host. */
  windowRect(): Rect {
    const { scale, x, y } = this.deps.stage.placement();
    const k = this.grid.scale.x * scale;
    const { cols, rows, cell } = this.grid;
    return { x: x + this.grid.x * scale - 18 * k, y: y + this.grid.y * scale - 18 * k, width: (cols * cell + 36) * k, height: (rows * cell + 36) * k };
  }

  // --- SlotView ------------------------------------------------------------------------
  /** After the round, until the next spin: each cluster (and jackpot) of its last spin lit on
   * the grid it was paid on, with its amount, in turn (wins.ts), the line under the grid naming
   * it and the round's total; `still` (reduced motion): the first, held. The grid left on show
   * comes back when the cycle stops. */
  showWins(_cycle: unknown, still = false, outcome?: Pick<Outcome, "spins"> & Partial<Pick<Outcome, "total_win">>): void {
    this.stopWins();
    const cycle = outcome ? candyWinCycle(outcome, this.deps.game.info) : null;
    if (!cycle) return;
    const final = this.grid.current().map((col) => [...col]);
    const same = (a: string[][], b: string[][]) => a.length === b.length && a.every((col, c) => col.every((s, r) => s === b[c]?.[r]));
    let shown = final;
    let i = 0;
    const next = () => {
      const k = i++ % cycle.wins.length;
      const w = cycle.wins[k]!;
      if (!same(shown, w.grid)) { this.grid.show(w.grid); shown = w.grid; }
      this.grid.highlight(w.cells, w.amount, undefined, [], true);
      this.root.dataset.cycle = String(k + 1);
      this.setWinLine(cycleLine(cycle, k, (c) => this.money(c)), cycle.total);
      this.deps.stage.invalidate();
    };
    this.cycle = { final, shown: () => shown };
    next();
    if (!still && cycle.wins.length > 1) this.cycleTimer = setInterval(next, WIN_CYCLE_MS);
  }
  private cycle: { final: string[][]; shown: () => string[][] } | null = null;
  private cycleTimer: ReturnType<typeof setInterval> | undefined;

  /** The cycle stops: the grid the round ended on is back, unlit. */
  private stopWins(): void {
    clearInterval(this.cycleTimer);
    this.cycleTimer = undefined;
    const c = this.cycle;
    this.cycle = null;
    if (!c) return;
    delete this.root.dataset.cycle;
    if (c.shown() !== c.final) this.grid.show(c.final);
    this.grid.clearHighlight();
    this.setWinLine("");
  }

  spinStart(): void {
    this.stopWins();
    this.hideNotices();
    this.outlinesGone();
    void this.grid.clearOut();
    this.deps.sound("spin");
  }
  async land(symbols: string[][], options: { fast?: boolean } = {}): Promise<void> {
    this.stopWins();
    this.root.dataset.board = "round";
    this.outlinesGone();
    await this.grid.land(symbols, options.fast);
    this.deps.sound("stop");
  }
  tumble(symbols: string[][], options: { fast?: boolean } = {}): Promise<void> {
    return this.grid.tumble(symbols, [], options.fast);
  }
  async tumbleCandies(symbols: string[][], removed: Cell[], options: { fast?: boolean } = {}): Promise<void> {
    await this.grid.tumble(symbols, removed, options.fast);
    this.outlinesGone();
  }
  private outlinesGone(): void {
    delete this.root.dataset.outlined;
    delete this.root.dataset.outlineCells;
  }
  show(symbols: string[][]): void {
    this.stopWins();
    this.root.dataset.board = "round";
    this.grid.show(symbols);
  }
  current(): string[][] {
    return this.grid.current();
  }
  async highlight(cells: Cell[], label: string, options: { fast?: boolean } = {}): Promise<void> {
    this.grid.highlight(cells, label);
    await hold(label ? 850 : 450, options.fast);
  }
  clearHighlight(): void {
    this.grid.clearHighlight();
    this.outlinesGone();
  }
  async outlineCluster(cells: Cell[], earlier: Cell[][], label: string, options: { fast?: boolean; brief?: boolean } = {}): Promise<void> {
    this.grid.highlight(cells, label, undefined, earlier);
    // what the canvas outlines, readable by tests and assistive tools: clusters, newest's cells
    this.root.dataset.outlined = String(earlier.length + 1);
    this.root.dataset.outlineCells = cells.map(([c, r]) => `${c},${r}`).join(" ");
    await hold(options.brief ? 450 : 850, options.fast);
  }
  /** The console's WIN meter counts up to a new total (the shell marks it .counting while it
   * does): resolves when it has stopped, or after 1.5 s (turbo: 0.4 s) whatever it shows. */
  async meterSettled(options: { fast?: boolean } = {}): Promise<void> {
    const meter = this.deps.overlay.closest("section.game")?.querySelector("[data-testid=win]");
    const until = performance.now() + (options.fast ? 400 : 1500);
    while (meter?.classList.contains("counting") && performance.now() < until) await sleep(30);
  }
  async banner(text: string, options: { ms?: number; fast?: boolean; moment?: string; modifiers?: readonly Jar[] } = {}): Promise<void> {
    if (options.moment) {
      await this.moment(text, options.moment, options.ms ?? 2200, options.fast, options.modifiers);
      return;
    }
    this.bannerEl.textContent = text;
    this.bannerEl.hidden = false;
    await hold(options.ms ?? 1000, options.fast);
    this.bannerEl.hidden = true;
  }
  /** A moment (ui/moment.ts) of the handlers' text: its first line the title, the rest under it,
   * then the `modifiers` pictured, each with its line from the pages. */
  private moment(text: string, kind: string, ms: number, fast?: boolean, modifiers: readonly Jar[] = []): Promise<void> {
    const [title = "", ...lines] = text.split("\n");
    const items = modifiers.map((j) => ({ key: j, name: `${JAR_NAMES[j]} modifier`, line: this.modWords.get(j)?.line ?? "", art: modifierArt(j, `intro-${j}`) }));
    return showMoment(this.deps.overlay, { title, lines, kind: `candy-moment ${kind}`, ms, fast, items });
  }
  /** What each modifier does, from the information pages (modifiers.ts). */
  private readonly modWords: Map<Jar, ModifierWords>;
  setWin(credits: number): void {
    this.deps.setWin(credits);
  }
  setSpinInfo(text: string): void {
    this.deps.setSpinInfo(text);
  }
  sound(effect: Parameters<CandyViewApi["sound"]>[0]): void {
    this.deps.sound(effect);
  }

  // --- Candy Jar -----------------------------------------------------------------------
  markWilds(cells: Cell[], golden: boolean): void {
    this.grid.mark(cells, golden ? 0xffd60a : 0xffffff);
  }
  async setMultiplier(value: number | null, options: { fast?: boolean } = {}): Promise<void> {
    if (value === null) {
      this.mult.hidden = true;
      return;
    }
    this.mult.textContent = `x${value}`;
    this.mult.dataset.value = String(value);
    // the badge lands on the grid first; the panel's keeps it for the rest of the spin
    await dropMultiplier(this.root, value, { ms: 1400, fast: options.fast });
    this.mult.hidden = false;
  }
  async fillJars(counts: Record<Jar, number>, lit: readonly Jar[], options: { fast?: boolean } = {}): Promise<void> {
    this.showJars(counts, lit);
    if (counts.wild + counts.free_spins + counts.jackpots > 0) await hold(lit.length ? 900 : 500, options.fast);
  }
  showJars(counts: Record<Jar, number>, lit: readonly Jar[]): void {
    for (const j of JARS) {
      const el = this.jarEls.get(j);
      if (!el) continue;
      const n = counts[j];
      el.jar.dataset.count = String(n);
      el.count.textContent = String(n);
      this.fillJar(el, n);
      el.jar.dataset.lit = String(lit.includes(j));
    }
    this.showProgress(counts);
    if (lit.length) this.setModifiers(lit);
  }
  /** The jar's glass holds a candy per candy it received this spin, up to the trigger the pages
   * state (JAR_CAPACITY where they state none), piled from the bottom; from the trigger on it
   * is full (data-full: it glows). The pieces already in it stay put; new ones drop in. */
  private fillJar(el: { jar: HTMLElement; dots: HTMLElement }, n: number): void {
    const { pieces, full } = jarFill(n, this.pile.length);
    el.jar.dataset.full = String(full);
    const have = el.dots.children.length;
    if (pieces < have) el.dots.replaceChildren(...[...el.dots.children].slice(0, pieces));
    for (let k = have; k < pieces; k++) el.dots.append(candyPiece(this.pile[k]!, k - have));
  }
  /** Where a jar's candies lie, its trigger's count of them filling it. */
  private readonly pile: PileSlot[];

  setModifiers(active: readonly Jar[]): void {
    for (const [j, el] of this.modEls) el.dataset.lit = String(active.includes(j));
    for (const [j, el] of this.legendRows) el.dataset.lit = String(active.includes(j));
    for (const [j, el] of this.jarEls) if (active.includes(j)) el.jar.dataset.lit = "true";
    this.root.dataset.modifiers = active.join(" ");
  }
  setCounter(counter: FreeSpinCounter | null): void {
    this.counter.hidden = !counter;
    if (!counter) return;
    this.counter.dataset.kind = counter.kind;
    this.counter.dataset.spin = String(counter.spin);
    this.counter.dataset.of = String(counter.of);
    this.counter.textContent = counter.kind === "super" ? `SUPER SPIN ${counter.spin}` : `FREE SPIN ${counter.spin} / ${counter.of}`;
  }
  setExtra(toward: number | null): void {
    this.extra.hidden = toward === null;
    if (toward !== null) {
      // a meter (a pip per symbol, lit as collected) under its name; the sentence for assistive tools
      const meter = extraMeter(toward, this.superEvery);
      this.extra.setAttribute("aria-label", extraLine(toward, this.superEvery));
      this.extra.replaceChildren(h("b", {}, "SUPER SPIN"),
        h("span", { class: "pips", "aria-hidden": "true" }, ...Array.from({ length: meter.pips }, (_, k) => h("i", k < meter.lit ? { "data-lit": "" } : {})), h("small", {}, meter.count)));
      this.extra.dataset.toward = String(toward);
    }
  }
  /** The ladder at the bet the console shows: each jackpot's multiple (the server's) x the
   * total bet, in the game's currency. */
  setBet(bet: Pick<BetOption, "stake_credits">): void {
    const { currency, denomination } = this.deps.game;
    const amounts = ladderAmounts(this.multiples, bet, denomination);
    for (const [name, { amount }] of this.jackpotEls) {
      const minor = amounts.get(name);
      amount.textContent = minor === undefined ? "" : formatMoney(minor, currency);
      amount.dataset.minor = minor === undefined ? "" : String(minor);
    }
  }
  setJackpots(active: boolean): void {
    for (const { el } of this.jackpotEls.values()) el.dataset.active = String(active);
  }
  /** A jackpot won, `win` credits (`multiplier` x its amount): its pill in money like the
   * other pills' amounts (credits there read as a different unit, "200" beside "€5.00"); its
   * moment counts the credits, as the win line under the grid says them, then their money. */
  async jackpotWon(name: string, win: number, multiplier: number, options: { fast?: boolean } = {}): Promise<void> {
    const { currency, denomination } = this.deps.game;
    const times = multiplier > 1 ? ` (x${multiplier})` : "";
    const jp = this.jackpotEls.get(name);
    if (jp) {
      jp.el.dataset.won = "true";
      jp.win.textContent = `${formatMoney(win * denomination, currency)}${times}`;
    }
    // its coin, the win counted up in credits, then its money (the ladder's unit) and the
    // multiplier that grew it
    const said = jackpotMoment(name, win, multiplier, { money: formatMoney(win * denomination, currency), multiple: this.multiples.get(name) ?? null });
    const coin = this.deps.symbols[name]?.svg;
    await showMoment(this.deps.overlay, {
      title: said.title, kind: `candy-moment jackpot jp-${name.toLowerCase()}`, ms: 3000, fast: options.fast,
      count: { to: win, format: said.amount, linesAfter: true }, lines: said.lines,
      items: coin ? [{ key: name, name: said.item.name, line: said.item.line, art: inlineArt(coin, `jp-${name}`, `jackpot-art-${name}`) }] : [],
      burst: options.fast ? Math.min(this.deps.stage.profile.particles, 12) : this.deps.stage.profile.particles,
    });
  }
  /** The outro moment, then the total stays beside the counter until the next spin. */
  async showTotal(text: string, options: { fast?: boolean } = {}): Promise<void> {
    this.totalEl.hidden = true;
    if (!text) return;
    await this.moment(text, "fs-outro", 2800, options.fast);
    this.totalEl.textContent = text;
    this.totalEl.hidden = false;
  }
  /** The round reached the game's cap: its MAX WIN moment over the whole stage (the amount in
   * credits, its money and the cap's multiple of the bet; skippable like every moment), then the
   * plaque beside the counter until the next spin. The amount is shown whole: the WIN meter
   * already reads it (core/celebration.ts celebrationCount). */
  async showCap(total: number, forfeited: boolean, options: { fast?: boolean } = {}): Promise<void> {
    const x = this.deps.game.info.max_win_x;
    const cap = `MAX WIN${x ? ` ${maxWinTimes(x)}` : ""}`;
    const money = formatMoney(total * this.deps.game.denomination, this.deps.game.currency);
    await showMoment(this.deps.overlay, {
      title: "MAX WIN", kind: "candy-moment cap max-win", ms: 4200, fast: options.fast,
      count: { to: total, format: (c) => `${formatCredits(c)} credits`, still: true },
      lines: [`${money}${x ? ` · ${maxWinSaid(x)}` : ""}`, ...(forfeited ? ["remaining free spins forfeited"] : [])],
      burst: options.fast ? Math.min(this.deps.stage.profile.particles, 12) : this.deps.stage.profile.particles,
    });
    this.capEl.textContent = `${cap} REACHED: ${formatCredits(total)} credits${forfeited ? " (remaining free spins forfeited)" : ""}`;
    this.capEl.hidden = false;
  }
  money(credits: number): string {
    return creditsAndMoney(credits, creditsMoney(this.deps.game));
  }
  setWinLine(text: string, meter?: number): void {
    // each of its parts ("9 LEMONS pay 35 credits", "cluster 2 of 4", "TOTAL WIN …") whole: where
    // the line is too long for one line (a phone) it breaks between them, on its candy label,
    // rather than shrinking below what a player reads (a reviewer found 9 px)
    // a phone leaves out the running total ("TOTAL WIN …", "WIN …"): the console's WIN meter
    // under it says the same (candy.css)
    const parts = text ? text.split(" · ") : [];
    this.winLine.replaceChildren(...parts.flatMap((p, i) => {
      const tail = i > 0 && /^(TOTAL )?WIN /.test(p) ? " tail" : "";
      return [...(i ? [h("span", { class: `sep${tail}` }, " · ")] : []), h("span", { class: `part${tail}` }, p)];
    }));
    this.winLine.style.fontSize = "";
    const { scrollWidth, clientWidth } = this.winLine;
    if (text && clientWidth > 0 && scrollWidth > clientWidth) {
      const size = parseFloat(getComputedStyle(this.winLine).fontSize);
      this.winLine.style.fontSize = `${Math.max(WINLINE_MIN_PX, Math.floor(size * clientWidth / scrollWidth * 10) / 10)}px`;
    }
    if (meter === undefined) delete this.winLine.dataset.meter;
    else this.winLine.dataset.meter = String(meter);
  }
  resetRound(): void {
    for (const el of this.jarEls.values()) {
      el.jar.dataset.count = "0";
      el.jar.dataset.lit = "false";
      el.count.textContent = "0";
      this.fillJar(el, 0);
    }
    this.showProgress({ wild: 0, free_spins: 0, jackpots: 0 });
    this.setModifiers([]);
    this.setJackpots(false);
    for (const { el, win } of this.jackpotEls.values()) { el.dataset.won = "false"; win.textContent = ""; }
    this.setCounter(null);
    this.setExtra(null);
    this.mult.hidden = true;
    this.hideNotices();
  }
  private hideNotices(): void {
    this.totalEl.hidden = true;
    this.capEl.hidden = true;
    this.bannerEl.hidden = true;
  }

  destroy(): void {
    clearInterval(this.cycleTimer);
    clearTimeout(this.tipTimer);
    document.removeEventListener("pointerdown", this.closeTip);
    this.stopAnimating();
    this.unsubscribe();
    this.unsubQuality();
    this.grid.destroy();
    this.textures.destroy();
    this.root.remove();
  }
}
