// The Cops n Robbers screen: the generic reels (PixiSlotView) with the presents' values drawn on
// their cells, the trail above the reels (a cop chasing a robber over 24 positions, the
// multiplier marks) and the ID parade (Bert, Sid, Vic; a dapple stopping on the server's pick).
import { Container, Graphics, Text } from "pixi.js";
import { sleep, timeline } from "../../core/timing";
import { h } from "../../ui/dom";
import { showMoment } from "../../ui/moment";
import { creditsMoney, formatCredits } from "../../core/money";
import type { Cell } from "../../core/outcome";
import { FONTS } from "../../render/fonts";
import { PixiSlotView } from "../game/generic";
import type { ViewDeps } from "../game/registry";
import { copsWinSummary, labelsWithMoney } from "./summary";
import { copsSigns, FORTUNE_SIGN, type Sign } from "./signs";
import { withCurrency } from "./symbols";
import { BONUS_TITLES, collectionCells, collectionLabel, copsMomentMs, PARADE, TRAIL, trailMultiplier, type CopsMoment, type CopsView, type PresentValue } from "./handlers";
import { type WinCycle, type WinShow } from "../../core/win-cycle";
import { wheelSlices } from "./wheel-spin";
import type { Outcome } from "../../core/outcome";

/** The trail's height in CSS px per orientation: the reels are laid out that much (and a gap)
 * lower, so the trail sits between the game's title and the reels, never over either. */
/** On a phone a band a player reads, its robber and cop drawn large (the playtest saw a thin
 * strip of 28 px): the reels are fitted in what is left under it. */
export const TRAIL_PX = { landscape: 40, portrait: 46 } as const;
const TRAIL_GAP = 4; // CSS px between the trail and the top of the frame's garland
/** How far (design px of the reels) the frame's snow ridge and holly reach over the window
 * (theme.ts frame: the holly's leaves at the corners to 42, the snow's drifts to 33). */
const FRAME_TOP = 42;
/** The room kept under the reels for the wheel gamble's panel on a desktop (withChoiceRoom):
 * the wheels' one row and the help line under it fit in it (cops.css, min-width 601px). */
export const CHOICE_ROOM_PX = 176;
/** CSS px under the reels' window that the frame and the win's words take (a phone). */
const UNDER_REELS_PX = 46;
/** The least room (CSS px) the band of signs under the reels is shown in, in full; in its
 * compact form (each sign's title and short line). */
const BAND_MIN_PX = 96;
const BAND_COMPACT_PX = 60;
/** On a phone: the most the signs' short form under the reels grows to (the reels stand at the
 * top of their room, roomUnder, and the rest is under them), the least it is shown in, and the
 * air kept over the console. */
const BAND_PHONE_MAX_PX = 156; // the room under the reels at the offer, less no more than 64 px bare
// in less, the signs' words were cut ("Each robber collects the" over the wheels)
const BAND_PHONE_MIN_PX = 104;
const BAND_PHONE_GAP = 8;
/** Design px across a phone kept beside the reels' window, for the frame's wood either side. */
const PHONE_SIDE_PX = 14;

/** Each suspect's outcome, as the rule sheet gives it. */
const PARADE_RESULTS: Record<string, string> = {
  bert: "BERT: it's him! The bonus ends",
  sid: "SID: wrong man! The cop falls back 2",
  vic: "VIC: wrong man! The robber runs to the next multiplier",
};

export class CopsPixiView extends PixiSlotView implements CopsView {
  private readonly values = new Container();
  private readonly trailEl: HTMLElement;
  private readonly lightsEl: HTMLElement;
  private readonly cells: HTMLElement[] = [];
  private readonly copEl = h("span", { class: "trail-token cop", role: "img", "aria-label": "Cop" });
  private readonly robberEl = h("span", { class: "trail-token robber", role: "img", "aria-label": "Robber" });
  private readonly paradeEl: HTMLElement;
  /** What the suspect picked means for the chase, in words, once the dapple stops. */
  private readonly paradeResult = h("div", { class: "parade-result", "data-testid": "parade-result", role: "status" });
  private readonly valuesEl = h("div", { class: "present-values", "data-testid": "present-values", "data-values": "", hidden: true });
  private readonly stage: ViewDeps["stage"];
  private readonly game: ViewDeps["game"];
  private destroyed = false;
  private readonly drawn = { postrender: () => this.markDrawn() };
  private readonly overlay: HTMLElement;
  /** The game's signs in the room the reels keep under them for the wheel gamble's panel (a
   * desktop): bare snow there read as dead space. The panel takes the room back as it opens. */
  private readonly bandEl: HTMLElement;
  /** The chase as it stands, on the bonus's sign (the phone playtest: a large sign "mostly
   * empty" through the bonus): where the robber is, how far behind the cop is, the multiplier
   * the robber's last collection was paid at (the server's), what he has collected so far. */
  private readonly chase = { robber: 0, cop: 0, multiplier: 1, collected: 0 };
  private readonly chaseEl = h("div", { class: "band-chase", "data-testid": "bonus-chase", role: "status" });
  /** In the bonus the three signs give way to the bonus's own (cops.css): its name between a
   * patrol car's red and blue lamps, what it does, what ends it, the chase's state. */
  private readonly bonusTitle = h("strong", {}, BONUS_TITLES[1] ?? "");
  private readonly bonusSign = h("div", { class: "band-sign band-bonus", "data-testid": "bonus-sign", title: "Every robber collects the presents' cash, times the trail's multiplier; bonus spins until the cop catches the robber" },
    h("span", { class: "band-lamp red", "aria-hidden": "true" }),
    h("div", { class: "band-words" }, this.bonusTitle,
      h("span", { class: "band-until" }, "UNTIL THE COP CATCHES THE ROBBER"),
      this.chaseEl),
    h("span", { class: "band-lamp blue", "aria-hidden": "true" }));
  /** What the presents on the reels hold now, on the presents' sign. */
  private readonly bandPresents = h("span", { class: "band-now", "data-testid": "band-presents-now" });
  /** Falling snow behind the canvas (cops.css): two layers of flakes, far and near. */
  private readonly snow = [h("div", { class: "cops-snow far", "aria-hidden": "true" }), h("div", { class: "cops-snow near", "aria-hidden": "true" })];
  /** The bonus's own scene behind the canvas (cops.css, shown while the stage's data-scene is
   * "bonus"): a patrol car's red and blue lights sweeping the night street from either corner. */
  private readonly sceneEl = h("div", { class: "cops-bonus-scene", "aria-hidden": "true" }, h("i", { class: "beam red" }), h("i", { class: "beam blue" }));
  /** The reels' frame lit red and blue in the bonus, round the frame's outer edge. */
  private readonly glowEl = h("div", { class: "cops-bonus-glow", "aria-hidden": "true" });

  constructor(deps: ViewDeps) {
    // a win's words in the strip under the reels, never over the symbols they name
    super({ ...deps, symbols: withCurrency(deps.symbols, deps.game.currency) }, { winLabelsUnder: true });
    this.stage = deps.stage;
    this.game = deps.game;
    this.overlay = deps.overlay;
    this.reels.addChild(this.values);
    const row = h("div", { class: "trail-row" });
    for (let i = 0; i < TRAIL.length; i++) {
      const mark = TRAIL.marks[i];
      const cell = h("span", { class: `trail-cell${mark ? " mark" : ""}`, "data-pos": String(i) }, mark ? `${mark}x` : "");
      this.cells.push(cell);
      row.append(cell);
    }
    // the multipliers' cobbles wider than the rest, so that their figures read on a phone
    row.style.gridTemplateColumns = this.cells.map((c) => (c.classList.contains("mark") ? "minmax(0, 2.2fr)" : "minmax(0, 1fr)")).join(" ");
    this.trailEl = h("div", { class: "trail", "data-testid": "trail", "data-layout": "decoration", hidden: true, "aria-label": "Big Money trail" }, h("span", { class: "trail-start", "data-testid": "trail-start" }), row);
    // the trail's room in the base game: a string of lights across the street (cops.css), not a
    // bare band of sky (the design review); the trail takes its place in the bonus
    this.lightsEl = h("div", { class: "cops-lights", "data-testid": "cops-lights", "data-layout": "decoration", "aria-hidden": "true" });
    // the parade is a moment over the reels (the spin is over; nothing under it is at stake)
    this.paradeEl = h("div", { class: "parade", "data-testid": "parade", "data-layout": "over-reels", hidden: true, "aria-label": "ID parade" },
      h("div", { class: "parade-title" }, "ID PARADE"),
      h("div", { class: "line-up" }, ...PARADE.map((name, i) => h("div", { class: "suspect", "data-name": name }, h("span", { class: "suspect-figure" }), h("strong", {}, `${i + 1} ${name.toUpperCase()}`)))),
      this.paradeResult);
    // each sign its icon, its name and a few words; what it promises in full is its
    // accessible name and tooltip (Fortune Spins' sign, in the presents' place while they are
    // on, is not one of the three)
    const sign = ({ kind, title, short, full }: Sign) => h("div", { class: `band-sign band-${kind}`, "data-testid": kind === "fortune" ? "fortune-sign" : `band-${kind}`, title: full, role: "note", "aria-label": `${title}: ${full}` },
      signIcon(kind), h("div", { class: "band-words" }, h("strong", {}, title),
        h("span", { class: "band-short" }, short),
        ...(kind === "presents" ? [this.bandPresents] : [])));
    this.bandEl = h("div", { class: "cops-band", "data-testid": "cops-band", "data-layout": "decoration", hidden: true, "aria-label": "How Cops n Robbers pays" },
      ...copsSigns(Object.values(TRAIL.marks)).map(sign), sign(FORTUNE_SIGN), this.bonusSign);
    deps.overlay.prepend(this.glowEl);
    deps.overlay.append(this.trailEl, this.lightsEl, this.paradeEl, this.valuesEl, this.bandEl);
    deps.stage.app.renderer.runners.postrender.add(this.drawn);
    deps.overlay.parentElement?.prepend(this.sceneEl, ...this.snow);
  }

  /** The win cycle after the round takes in the robbers' collections too, each named ("Robber
   * collects 12x stake: 6,000") with the robbers and presents lit, so the lines and the
   * collections it names add up to the WIN meter. */
  override showWins(cycle: WinCycle | null, still = false, outcome?: Pick<Outcome, "spins">): void {
    const spin = outcome?.spins.at(-1);
    const money = creditsMoney(this.game);
    const collections: (WinShow & { money?: number })[] = [];
    const paid = new Map<number, number>();
    let total = 0, lines = 0;
    for (const e of spin?.events ?? []) {
      if (e.type === "line_win") { total += e.win; lines++; paid.set(e.line, e.win); }
      if (e.type === "collection" && spin) {
        total += e.win;
        collections.push({ cells: collectionCells(spin), path: [], line: 0, label: collectionLabel(e, undefined, spin), money: e.win });
      }
    }
    if (!cycle && !collections.length) { super.showWins(null, still); return; }
    // what the spins before the last paid (a bonus's): the meter shows the round's total
    const earlier = (outcome?.spins.slice(0, -1) ?? []).reduce((sum, s) => sum + s.win, 0);
    const first = outcome?.spins[0];
    const summary = copsWinSummary(lines, collections.length, total, earlier, !(first?.kind === "base" && first.win > 0)) ?? cycle?.summary ?? null;
    // each win named alone with its money beside it: the stake is chosen in money
    const wins = labelsWithMoney([...(cycle?.wins ?? []).map((win) => ({ win, credits: paid.get(win.line) })), ...collections.map(({ money: credits, ...win }) => ({ win, credits }))], summary, money);
    // after a bonus the summary ("Last spin: ... · the spins before: ...") and a named win beside
    // it take two lines on a desktop, down onto the signs under the reels (the e2e layout check
    // after the bonus wheel, 2 runs in 4): the signs give way until the next spin
    super.showWins({ ...cycle, wins, summary }, still); // (stops the last cycle first: stopWins)
    if (earlier > 0) this.bandEl.dataset.words = "after-bonus";
    // the total's line set big over its parts (cops.css)
    const banner = this.overlay.querySelector<HTMLElement>("[data-testid=win-cycle]");
    if (banner && earlier > 0) banner.dataset.copsTotal = "bonus";
  }

  override stopWins(): void {
    delete this.bandEl.dataset.words;
    const banner = this.overlay.querySelector<HTMLElement>("[data-testid=win-cycle]");
    if (banner) delete banner.dataset.copsTotal;
    super.stopWins();
  }

  /** The room for the trail is kept in every mode (the reels do not jump when a bonus starts):
   * the shell's title line is handed on lower by the trail's height. */
  override fitAbove(px: number, top?: number): void {
    const trail = TRAIL_PX[this.stage.placement().design.name];
    this.trailEl.style.setProperty("--trail-h", `${trail}px`);
    const wheels = this.wheelsOpen();
    // the wheels' panel lies over the stage, down to the console (cops.css): as tall as the
    // stage less what the console covers now
    this.overlay.closest<HTMLElement>("section.game")?.style.setProperty("--cops-gamble-h", `${Math.max(0, Math.round(this.stage.placement().hostHeight - px))}px`);
    // behind the wheels the reels wait where they stood with no panel open
    const covered = wheels ? (this.calm.get(this.stage.placement().design.name) ?? this.withChoiceRoom(px, CHOICE_ROOM_PX, "--cops-choice-room")) : this.withChoiceRoom(px, CHOICE_ROOM_PX, "--cops-choice-room");
    // the trail stands clear of the frame's snow and holly over the window (the reviewer saw it
    // over the garland at 1440x900): their reach in CSS px depends on the reels' scale, which
    // depends on the room the trail leaves; the last layout's reach, refitted once if it moved
    const { reels, cell, gap } = this.reels.opts;
    const across = () => this.windowRect().width / Math.max(1, reels * (cell + gap) - gap);
    super.fitAbove(covered, (top ?? 0) + trail + this.garland);
    const garland = Math.round(FRAME_TOP * across()) + TRAIL_GAP;
    if (Math.abs(garland - this.garland) > 1) { this.garland = garland; super.fitAbove(covered, (top ?? 0) + trail + garland); }
    this.overlay.style.setProperty("--cops-garland", `${this.garland}px`);
    if (!wheels) this.holdStill(covered, (top ?? 0) + trail + this.garland);
    this.placeBand(px, covered);
    // the frame's reach beyond the window in CSS px (theme.ts frame: 26 design px of wood), for
    // the bonus's glow round it
    this.overlay.style.setProperty("--cops-frame", `${Math.round(28 * across())}px`);
    // Drawn now, not on the next tick: the shell calls this from its ResizeObserver (after
    // layout, before paint) when the gamble's wheels open under the reels, and the canvas
    // drawn a frame later left the panel over the bottom row until then (a slow renderer's
    // frame lasts long enough to see it).
    if (!this.destroyed) this.stage.app.render();
  }

  /** On a phone the reels take the screen's width less their frame's wood (the reviewer: the
   * reels a quarter of the phone's height; five square reels are as tall as the width lets
   * them be, and the default kept 20 px of bare street either side besides the frame). */
  protected override reelsAcross(placement: Parameters<PixiSlotView["reelsAcross"]>[0]): number {
    return placement.design.name === "portrait" ? placement.design.width - PHONE_SIDE_PX : super.reelsAcross(placement);
  }

  /** On a phone the reels stand at the top of their room, under the trail's (the design review:
   * centred, they left a bare navy band over them), and what the height leaves goes under them,
   * to the signs' room (a desktop keeps its layout). */
  protected override roomUnder(placement: Parameters<PixiSlotView["roomUnder"]>[0]): number {
    return placement.design.name === "portrait" ? placement.hostHeight : 0;
  }

  /** The signs: on a desktop in the room kept under the reels (none while the panel fills it;
   * less while a message over the console takes some); on a phone, in their short form, in the
   * same room, between the win's words under the reels and the console (the playtest found no
   * sign at all on a phone; then a bare band of snow between the reels and the console, the
   * reels taking the width and the height left over). Shown only where they fit. */
  private placeBand(px: number, covered: number): void {
    // the wheels cover the room: the signs would show through their panel
    if (this.wheelsOpen()) { this.bandEl.hidden = true; return; }
    if (this.stage.placement().design.name === "portrait") {
      const { top: y, room, height } = this.bandUnderReels(px, { strip: UNDER_REELS_PX, air: BAND_PHONE_GAP, most: BAND_PHONE_MAX_PX });
      this.bandEl.dataset.place = "phone";
      this.bandEl.hidden = room < BAND_PHONE_MIN_PX;
      Object.assign(this.bandEl.style, { top: `${Math.round(y + (room - height) / 2)}px`, bottom: "", height: `${Math.max(0, Math.round(height))}px` });
      return;
    }
    const room = covered - px;
    // in less room (a reload at the gamble's offer: the recovery notice over it took 30 px, and
    // the playtest found the snow under the reels bare) each sign its title and its short line
    if (room < BAND_MIN_PX) this.bandEl.dataset.place = "compact";
    else delete this.bandEl.dataset.place;
    this.bandEl.hidden = room < BAND_COMPACT_PX;
    Object.assign(this.bandEl.style, { top: "", bottom: `${px}px`, height: `${room}px` });
  }

  /** The wheel gamble is open: its panel covers the stage (cops.css), the reels wait behind. */
  private wheelsOpen(): boolean {
    const choice = this.overlay.closest("section.game")?.querySelector<HTMLElement>("[data-testid=choice]");
    return !!choice && !choice.hidden && !!choice.querySelector("[data-testid=wheel-gamble]");
  }

  /** CSS px from the window's top to the trail's foot (fitAbove): the frame's garland and a gap. */
  private garland = 16;

  /** The cover with no panel open, per orientation: where the reels stand (holdStill). */
  private readonly calm = new Map<string, number>();

  /** On a phone the reels keep still as the wheels open under them (the playtest saw them jump
   * up, re-centred over the smaller room): they stay where they stood above the console alone,
   * and move up only as far as the panel needs to clear them and the win's words under them,
   * never further than the plain fit above it. (A desktop keeps a room for the panel.) */
  private holdStill(covered: number, top: number): void {
    const { design } = this.stage.placement();
    const choice = this.overlay.closest("section.game")?.querySelector<HTMLElement>("[data-testid=choice]");
    if (!choice) return;
    if (choice.hidden) { this.calm.set(design.name, covered); return; }
    if (design.name !== "portrait") return;
    const calm = this.calm.get(design.name);
    if (calm === undefined) return;
    this.keepStill(calm, covered, top, choice, UNDER_REELS_PX);
  }

  /** Where the canvas last drew the reels' window (CSS px, on the overlay as data-drawn-window):
   * the layout tests compare it, not only the layout's own marker, with what lies under the
   * reels at the moment a panel opens. */
  private markDrawn(): void {
    const r = this.windowRect();
    this.overlay.dataset.drawnWindow = [r.x, r.y, r.width, r.height].map((v) => v.toFixed(1)).join(" ");
  }

  /** The presents' values, drawn on their cells (a plaque on the lower part of the present)
   * and listed on a hidden DOM element (`data-testid=present-values`, "reel:row:value ...")
   * as the trail's tokens are, so a test reads what the canvas shows. */
  showValues(values: readonly PresentValue[]): void {
    this.clearValues();
    const { cell, gap } = this.reels.opts;
    for (const { reel, row, value } of values) {
      const tag = new Container();
      const g = new Graphics().roundRect(-cell * 0.3, -cell * 0.13, cell * 0.6, cell * 0.26, cell * 0.08).fill({ color: 0x000000, alpha: 0.78 }).stroke({ width: 3, color: 0xffd166 });
      const text = new Text({ text: `${value}x`, style: { fontFamily: FONTS.display, fontSize: Math.round(cell * 0.22), fill: 0xffd166, stroke: { color: 0x2a0a10, width: 3 } } });
      text.anchor.set(0.5);
      tag.addChild(g, text);
      tag.position.set(reel * (cell + gap) + cell / 2, row * cell + cell * 0.78);
      tag.label = `value-${reel}-${row}`;
      this.values.addChild(tag);
    }
    this.valuesEl.dataset.values = values.map((p) => `${p.reel}:${p.row}:${p.value}`).join(" ");
    const sum = values.reduce((a, p) => a + p.value, 0);
    this.bandPresents.textContent = values.length ? `ON THE REELS: ${sum}x STAKE` : "";
    this.bandPresents.title = values.length ? `${sum}x stake in ${values.length} present${values.length > 1 ? "s" : ""}` : "";
    this.stage.invalidate();
  }

  async collect(label: string, options: { fast?: boolean; cells?: readonly Cell[]; credits?: number; multiplier?: number } = {}): Promise<void> {
    // in the bonus, what the robber has collected so far and at what multiplier (the server's)
    if (!this.trailEl.hidden && options.credits !== undefined) {
      this.chase.collected += options.credits;
      if (options.multiplier) this.chase.multiplier = options.multiplier;
      this.sayChase();
    }
    // the robbers and the presents lit over the dimmed window (each symbol stays itself), then
    // the values flash twice over 90 or 300 ms of wall-clock time (not a count of timer steps:
    // each step waits for a frame on a slow renderer) and stay on their presents
    if (options.cells?.length) this.reels.highlight(options.cells);
    const ms = options.fast ? 90 : 300;
    const tl = timeline();
    for (let p = 0; ; p = Math.min(1, tl.elapsed() / ms)) {
      for (const c of this.values.children) c.alpha = 0.55 + 0.45 * Math.cos(p * 4 * Math.PI);
      this.stage.invalidate();
      if (p >= 1) break;
      await sleep(30);
    }
    await this.banner(label, { ms: 800, fast: options.fast });
    if (options.cells?.length) this.reels.clearHighlight();
  }

  clearValues(): void {
    for (const c of this.values.removeChildren()) c.destroy({ children: true });
    this.valuesEl.dataset.values = "";
    this.bandPresents.textContent = "";
    this.stage.invalidate();
  }

  /** The mode chosen on the console (betShown) or played (a round's reels): in Fortune Spins
   * the presents' sign gives way to Fortune Spins' own, which says what their reels hold (the
   * snowflakes are blanks) and what the player waits for (a robber to collect the presents). */
  modeShown(mode: string): void {
    if (mode === "fortune") this.bandEl.dataset.mode = "fortune";
    else delete this.bandEl.dataset.mode;
  }

  reelSet(name: string): void {
    const strips = this.game.info.reel_sets?.[name];
    if (!strips?.length) return;
    this.reels.models.forEach((m, r) => { const strip = strips[r]; if (strip?.length) m.strip = strip; });
  }

  override spinStart(): void {
    this.clearValues();
    super.spinStart();
  }

  trailShow(startMultiplier: number): void {
    this.trailEl.hidden = false;
    this.trailEl.dataset.start = String(startMultiplier);
    this.startMultiplier = startMultiplier;
    this.bonusTitle.textContent = BONUS_TITLES[startMultiplier] ?? BONUS_TITLES[1] ?? "";
    Object.assign(this.chase, { multiplier: startMultiplier, collected: 0 });
    this.place(3, 0, true);
  }

  /** The chase's state in words on the bonus's sign: four short cells, a figure each. */
  private sayChase(): void {
    const { robber, cop, multiplier, collected } = this.chase;
    const gap = Math.max(0, robber - cop);
    const cell = (label: string, value: string, key: string) => h("span", { class: "chase-cell", "data-chase": key }, h("small", {}, label), h("b", {}, value));
    this.chaseEl.replaceChildren(
      cell("ROBBER", `step ${robber + 1}`, "robber"),
      cell("COP", gap ? `${gap} behind` : "caught", "cop"),
      cell("MULTIPLIER", `x${multiplier}`, "multiplier"),
      cell("COLLECTED", formatCredits(collected), "collected"));
  }

  /** The bonus's starting multiplier (1, 2 or 3: Big, Super, Mega). */
  private startMultiplier = 1;

  private place(robber: number, cop: number, fast: boolean): void {
    this.trailEl.dataset.robber = String(robber);
    this.trailEl.dataset.cop = String(cop);
    // the multiplier the robber collects at from this step, said with the step itself (it was
    // said only at his next collection, the gallery saw x1 beside a robber past the 2x mark):
    // the trail's mark he has reached times the bonus's start (RULES.md; robberMultipliers)
    const now = this.startMultiplier * trailMultiplier(robber);
    const label = this.trailEl.querySelector<HTMLElement>("[data-testid=trail-start]");
    if (label && label.textContent !== `x${now}`) {
      label.textContent = `x${now}`;
      label.classList.remove("up");
      if (!fast && this.chase.multiplier !== now) { void label.offsetWidth; label.classList.add("up"); }
    }
    this.trailEl.dataset.multiplier = String(now);
    this.chase.multiplier = now;
    for (const [el, pos] of [[this.robberEl, robber], [this.copEl, cop]] as const) {
      const target = this.cells[Math.max(0, Math.min(TRAIL.length - 1, pos))];
      if (target === el.parentElement) continue;
      target?.append(el);
      // a hop into the new cell: the chase reads as running, not as a token teleporting
      el.classList.remove("hop");
      if (!fast) { void el.offsetWidth; el.classList.add("hop"); }
    }
    this.trailEl.classList.toggle("caught", robber === cop);
    Object.assign(this.chase, { robber, cop });
    this.sayChase();
    this.cells.forEach((c, i) => c.classList.toggle("passed", i <= robber));
  }

  async trailMove(robber: number, cop: number, options: { fast?: boolean } = {}): Promise<void> {
    this.trailEl.hidden = false;
    this.place(robber, cop, !!options.fast);
    await sleep(options.fast ? 40 : 250);
  }

  trailHide(): void {
    this.trailEl.hidden = true;
    this.paradeEl.hidden = true;
  }

  /** The bonus's own look from its intro to its outro (cops.css: the night street under police
   * lights, the frame glowing red and blue, the trail a light bar under BONUS); off, the base
   * game's snowy street. On the stage, so that the scene behind the canvas and the overlay over
   * it change together. */
  bonusScene(on: boolean): void {
    const stage = this.overlay.parentElement;
    if (!stage) return;
    if (on) stage.dataset.scene = "bonus";
    else delete stage.dataset.scene;
  }

  async moment(m: CopsMoment, options: { fast?: boolean; cells?: readonly Cell[] } = {}): Promise<void> {
    // the outro's total stands still: the win meter under it already reads the round's win
    const count = m.count === undefined ? undefined : { to: m.count, format: formatCredits, still: m.kind === "bonus-outro" };
    // read whole even in turbo (copsMomentMs; a tap ends it sooner): showMoment's own turbo
    // (300 ms) flashed the bonus's intro and total past unseen
    // the symbols that triggered it lit while it shows (the bonus's intro stands under the reels,
    // cops.css: the design review saw it over them)
    if (options.cells?.length) this.reels.highlight(options.cells);
    try {
      await showMoment(this.overlay, { title: m.title, lines: m.lines, count, kind: m.kind, ms: copsMomentMs(m.kind, !!options.fast) });
    } finally {
      if (options.cells?.length) this.reels.clearHighlight();
    }
  }

  async parade(result: string, options: { fast?: boolean } = {}): Promise<void> {
    const suspects = [...this.paradeEl.querySelectorAll<HTMLElement>(".suspect")];
    this.paradeEl.hidden = false;
    delete this.paradeEl.dataset.result;
    this.paradeResult.textContent = "";
    const end = Math.max(0, PARADE.indexOf(result as (typeof PARADE)[number]));
    const hops = (options.fast ? 3 : 9) + end; // the dapple: a few laps, then the server's pick
    // hop i is lit from starts[i] on the wall clock (slowing down); a late timer skips hops, so
    // the dapple takes its time however slowly the page runs
    const starts: number[] = [];
    let total = 0;
    for (let i = 0; i <= hops; i++) {
      starts.push(total);
      total += options.fast ? 40 : 70 + i * 18;
    }
    const tl = timeline();
    for (let t = tl.elapsed(); t < total; t = tl.elapsed()) {
      let i = starts.length - 1;
      while (i > 0 && starts[i]! > t) i--;
      suspects.forEach((s, k) => s.classList.toggle("lit", k === i % suspects.length));
      await tl.at(starts[i + 1] ?? total);
    }
    suspects.forEach((s, k) => s.classList.toggle("lit", k === end));
    this.paradeEl.dataset.result = result;
    this.paradeResult.textContent = PARADE_RESULTS[result] ?? result.toUpperCase();
    await tl.at(total + (options.fast ? 150 : 1300));
    this.paradeEl.hidden = true;
  }

  override destroy(): void {
    this.destroyed = true;
    this.stage.app.renderer.runners.postrender.remove(this.drawn);
    this.trailEl.remove();
    this.lightsEl.remove();
    this.paradeEl.remove();
    this.valuesEl.remove();
    this.bandEl.remove();
    this.sceneEl.remove();
    this.glowEl.remove();
    this.bonusScene(false);
    for (const el of this.snow) el.remove();
    super.destroy();
  }
}

/** A sign's icon: the robber, the BONUS symbol, the snowflake blank (their art, cops.css), or
 * the gamble's prize wheel drawn here. */
function signIcon(kind: Sign["kind"]): HTMLElement {
  const icon = h("span", { class: "band-icon", "aria-hidden": "true" });
  if (kind === "gamble") {
    // the gamble's prize wheel in little (wheel.ts): green and red slices, a gold rim, the pointer
    // at the top
    const pt = (f: number) => `${(43 * Math.sin(f * 2 * Math.PI)).toFixed(1)},${(-43 * Math.cos(f * 2 * Math.PI)).toFixed(1)}`;
    const slices = wheelSlices(0.5).map((s) => `<path d="M0,0 L${pt(s.from)} A43,43 0 0 1 ${pt(s.to)} Z" fill="${s.green ? "#2a9d4f" : "#c1121f"}" stroke="#ffd166" stroke-width="1"/>`).join("");
    icon.innerHTML = `<svg viewBox="-50 -50 100 100"><circle r="47" fill="#3a1e0a" stroke="#ffd166" stroke-width="3"/>${slices}`
      + '<polygon points="0,-30 -9,-49 9,-49" fill="#ffd166" stroke="#5a3a06" stroke-width="2.5" stroke-linejoin="round"/><circle r="9" fill="#7a0c14" stroke="#ffd166" stroke-width="3"/></svg>';
  }
  return icon;
}
