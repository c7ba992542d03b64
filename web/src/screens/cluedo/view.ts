// The Cluedo screen: the generic reels (PixiSlotView) in the mansion's frame, the lights going
// out with strikes of
// lightning when the Mystery Bonus triggers, the golden reels and the free-spin counter of the
// bonus, the feature moments, and the jackpot win: its full-screen moment, then the notice.
import { Graphics } from "pixi.js";
import { formatCredits, formatMoney } from "../../core/money";
import type { Outcome } from "../../core/outcome";
import { timeline } from "../../core/timing";
import type { WinCycle } from "../../core/win-cycle";
import { h } from "../../ui/dom";
import { showMoment, type MomentOptions } from "../../ui/moment";
import { BADGE_STROKE, compactBadgeReach } from "../../render/reels";
import { PixiSlotView } from "../game/generic";
import type { ViewDeps } from "../game/registry";
import { lastFreeSpin, type CluedoView, type JackpotNotice } from "./handlers";
import { cluedoSigns } from "./signs";
import { GOLDEN } from "./symbols";
import { FREE_SPIN_LINE, GOLDEN_FRAME, goldenLight, goldenReelBacks } from "./theme";

const SVG = "http://www.w3.org/2000/svg";
/** CSS px above the reels' window for the free-spin counter (cluedo.css places it there),
 * besides the frame's fan (fanPx): the counter stands over the fan, not on it (the playtest:
 * the counter hid the fan at the top of the frame). */
const COUNTER_ROOM_PX = 22;
/** Design px of the reels that the frame's fan rises above their window (theme.ts: a radius of
 * 40 about a point 12 above it). */
const FAN_RISE = 52;
/** CSS px above the reels' window on a desktop without the counter: the golden frame's top edge
 * and its fan stand higher than the generic frame the layout leaves room for, and lay under the
 * page's header (the playtest: "the top of the reel frame is cut off"). */
const FRAME_TOP_PX = 28;
/** CSS px on a phone between the screen's edge and the reels' window (reelsAcross): the frame's
 * gilt edge (about 10 px there) and a winning line's badge at the window's side, with
 * BADGE_AIR_PX of air (the playtests: the badges cut at both edges of a 390 px screen, then
 * "18" running to the edge with a px and a half to spare). */
export const BADGE_AIR_PX = 6;
/** A winning line's badge on a phone (generic.ts compactBadge): CSS px across, and where its
 * centre lies beyond the window's side in shares of its radius: wholly in the margin, on the
 * frame (the gallery's reviewer at 390x844: the generic 26 px badge, half over the window, hid
 * the edge of the first and last reels' cards). Smaller, so the reels give up only 14 px of
 * the screen's width for it (338 of 390 px). */
export const CLUEDO_BADGE = { px: 18, outset: 1 + BADGE_STROKE / 2 + 0.02 };
export const PHONE_EDGE_PX = Math.max(14, Math.ceil(compactBadgeReach(CLUEDO_BADGE.px, CLUEDO_BADGE.outset)) + BADGE_AIR_PX);
/** The room kept under the reels for the gamble's panel on a desktop (withChoiceRoom): the
 * cards' one row (cluedo.css, min-width 601px) and the offer fit in it. */
const CHOICE_ROOM_PX = 96;
/** On a phone: CSS px kept under the reels' window for the frame and the win's words (two lines
 * of them: a free spin's "Line 3: 2 x Miss Scarlet (WILD x2, FREE SPIN x3) pays 12"), then the
 * room asked for the signs under them (the reels are centred above it), the most they grow to,
 * the least they are shown in, and the air kept over the console. */
const UNDER_REELS_PX = 54;
const SIGNS_PX = 40;
const SIGNS_MAX_PX = 40;
const SIGNS_MIN_PX = 30;
const SIGNS_GAP_PX = 6;
/** On a phone the reels' rows are drawn this many times as tall as wide (ReelSet.setStretch):
 * five square cells across 390 px left the window about 200 px tall under 150 px of signs (the
 * design review: "make the reels the phone screen's hero"); the symbols keep their shape, the
 * signs shrink to one slim row. */
export const PHONE_ROW_STRETCH = 1.55;
/** On a desktop: the least room under the reels (CSS px) the signs are shown in, and the air
 * they keep above the console and below the win's words. */
const DESK_SIGNS_MIN_PX = 56;
const DESK_SIGNS_AIR_PX = 6;

/** A bolt of lightning as a storm draws it: a jagged trunk from the top of the room with forks
 * off it, each a wide blue glow, a pale stroke and a white-hot core (the gallery's review: a
 * filled zig-zag of 3 px outline read as a thin line). `side` places it (cluedo.css): each strike
 * lights another. Points in a 200 x 400 box. */
const BOLT_TRUNK = "104,0 92,50 114,60 80,128 104,138 66,214 92,222 58,300 78,308 46,400";
const BOLT_FORKS = ["92,50 66,74 72,84 44,112", "80,128 50,160 60,170 26,214 30,236", "104,138 136,170 128,180 162,222", "66,214 100,248 92,260 124,300 120,320", "58,300 30,330 36,340 14,372"];
function bolt(side: "a" | "b"): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 200 400");
  svg.setAttribute("class", `bolt bolt-${side}`);
  svg.setAttribute("aria-hidden", "true");
  const line = (points: string, width: number, colour: string, opacity = 1) => {
    const p = document.createElementNS(SVG, "polyline");
    p.setAttribute("points", points);
    const attrs: [string, string][] = [["fill", "none"], ["stroke", colour], ["stroke-width", String(width)], ["stroke-linejoin", "round"], ["stroke-linecap", "round"], ["opacity", String(opacity)]];
    for (const [k, v] of attrs) p.setAttribute(k, v);
    return p;
  };
  // the glow of every stroke first, then the pale strokes, then the cores: a fork never cuts
  // across the trunk's core
  const strokes: [string, number][] = [[BOLT_TRUNK, 1], ...BOLT_FORKS.map((f): [string, number] => [f, 0.55])];
  for (const [points, k] of strokes) svg.append(line(points, 24 * k, "#7fa6ff", 0.45));
  for (const [points, k] of strokes) svg.append(line(points, 11 * k, "#e8f0ff"));
  for (const [points, k] of strokes) svg.append(line(points, 5 * k, "#ffffff"));
  return svg;
}

export class CluedoPixiView extends PixiSlotView implements CluedoView {
  private readonly gold: Graphics;
  /** The free spins' warm light over the symbols (theme.ts goldenLight). */
  private readonly light: Graphics;
  private readonly lights: HTMLElement;
  private readonly counter: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly stageRef: ViewDeps["stage"];
  private readonly host: HTMLElement;
  private readonly gameInfo: ViewDeps["game"]["info"];
  private readonly currency: string;
  /** The signs under the reels on a phone (signs.ts); the gamble's panel takes their room. */
  private readonly band: HTMLElement;
  private readonly jackpotCopy: MutationObserver | null = null;
  /** Hides the won lines' drawing while the gamble's card lies over the reels. */
  private readonly cardWatch: MutationObserver;

  constructor(deps: ViewDeps) {
    // a win's words in the strip under the reels, never over the symbols they name (a
    // playtest: the label hid two rows on a phone, the cycle lay on the bottom row)
    super(deps, { winLabelsUnder: true, compactBadge: CLUEDO_BADGE });
    this.stageRef = deps.stage;
    this.host = deps.overlay;
    this.gameInfo = deps.game.info;
    this.currency = deps.game.currency;
    const { reels, rows, cell, gap } = this.reels.opts;
    // The golden reels: the gilded frame over the mahogany one, behind the symbols (index 1).
    this.gold = new Graphics();
    GOLDEN_FRAME(this.gold, reels * (cell + gap) - gap, rows * cell);
    goldenReelBacks(this.gold, { reels, rows, cell, gap });
    this.gold.visible = false;
    this.reels.addChildAt(this.gold, 1);
    // the light over the symbols, under the wins' highlights: after the frames (2) and the
    // reels' columns (render/reels.ts adds one per reel after its frame)
    this.light = new Graphics();
    goldenLight(this.light, reels * (cell + gap) - gap, rows * cell);
    this.light.blendMode = "add";
    this.light.visible = false;
    this.reels.addChildAt(this.light, 2 + reels);
    this.lights = h("div", { class: "cluedo-lights", "data-testid": "lights", "data-state": "on", "aria-hidden": "true" }, bolt("a"), bolt("b"));
    this.counter = h("div", { class: "cluedo-counter", "data-testid": "free-spins", "data-layout": "decoration", role: "status", hidden: true });
    this.notice = h("div", { class: "cluedo-notice", "data-testid": "jackpot-notice", "data-layout": "over-reels", role: "alertdialog", "aria-label": "Jackpot won", hidden: true });
    deps.overlay.prepend(this.lights); // under the banner: the lights dim the reels, not the messages
    // the MegaJackpot's sign shows the pool as the console's meter has it from the server
    const pool = h("span", { class: "cl-sign-amount", "data-testid": "cluedo-sign-pool" });
    this.band = h("div", { class: "cluedo-band", "data-testid": "cluedo-band", "data-layout": "decoration", hidden: true, "aria-label": "How Cluedo MegaJackpots pays" },
      ...cluedoSigns(deps.game.info).map(({ kind, title, line }) => h("div", { class: `cl-sign cl-sign-${kind}`, "data-testid": `cluedo-sign-${kind}`, title: `${title}: ${line}` },
        ...(kind === "jackpot" ? [h("strong", {}, title), pool] : [h("span", { class: "cl-sign-icon", "aria-hidden": "true" }), h("strong", {}, title)]),
        h("span", { class: "cl-sign-line" }, line))));
    const meter = deps.overlay.closest("section.game")?.querySelector("[data-testid=jackpot]");
    if (meter) {
      const copy = () => { pool.textContent = meter.textContent; };
      this.jackpotCopy = new MutationObserver(copy);
      this.jackpotCopy.observe(meter, { childList: true, characterData: true, subtree: true });
      copy();
    }
    deps.overlay.append(this.counter, this.notice, this.band);
    // the gamble's card over the reels (reveal.ts gambleTable): the won line's highlights and its
    // badges beside the frame go while it is up (the playtest at 390x844: the line's badges and
    // its pill, hidden by cluedo.css, stood around the card table)
    const overlay = deps.overlay;
    this.cardWatch = new MutationObserver(() => {
      const card = !!overlay.querySelector(":scope > [data-testid=gamble-reveal]");
      overlay.dataset.gambleCard = String(card);
      this.reels.setWinsShown(!card);
    });
    this.cardWatch.observe(overlay, { childList: true });
    deps.overlay.classList.add("cluedo-overlay");
  }

  /** What the shell last measured (fitAbove's arguments), to lay out again when the counter
   * comes or goes; `covered`, what the reels stand above (the console and the room kept under
   * them on a desktop). */
  private fit: { px: number; top: number | undefined; covered: number } | null = null;

  /** The reels are laid out above the console, and below the free-spin counter while it
   * shows: it sits outside the reels' window (placed from the shell's --reels-* properties,
   * cluedo.css), so it hides no symbol. */
  override fitAbove(px: number, top?: number): void {
    const covered = this.withChoiceRoom(px, CHOICE_ROOM_PX, "--cl-choice-room");
    this.fit = { px, top, covered };
    super.fitAbove(covered, this.withCounter(top));
  }

  /** On a phone the reels take the screen's whole width but for the frame's edge: the design's
   * 40 px margin, and the letterbox of a screen shorter than the design, left them 332 px of
   * 390 (the playtest: "the reels are small"). Their cards are narrower than their cells, so
   * every px across counts. The height follows; holdStill keeps them still as before. */
  protected override reelsAcross(placement: Parameters<PixiSlotView["reelsAcross"]>[0]): number {
    const { design, scale: root, hostWidth } = placement;
    const plain = super.reelsAcross(placement);
    return design.name === "portrait" ? Math.max(plain, (hostWidth - 2 * PHONE_EDGE_PX) / root) : plain;
  }

  protected override rowStretch(placement: Parameters<PixiSlotView["rowStretch"]>[0]): number {
    return placement.design.name === "portrait" ? PHONE_ROW_STRETCH : 1;
  }

  private withCounter(top: number | undefined): number | undefined {
    if (top === undefined) return undefined;
    if (!this.counter.hidden) return top + COUNTER_ROOM_PX + this.fanRoom();
    return top + (this.stageRef.placement().design.name === "landscape" ? FRAME_TOP_PX : 0);
  }

  /** The console's cover while no choice is open, per orientation: where the reels stand. */
  private readonly calm = new Map<string, number>();
  private holding = false;

  /** CSS px that the frame's fan rises above the reels' window as they are drawn now. */
  private fanPx(): number {
    return FAN_RISE * this.reels.scale.y * this.stageRef.placement().scale;
  }

  /** CSS px kept for the fan over the reels' window: as it is drawn at the largest scale the
   * width allows, so the room does not follow the scale it changes (a layout after the last
   * one would move the reels again). */
  private fanRoom(): number {
    const placement = this.stageRef.placement();
    const { reels, cell, gap } = this.reels.opts;
    return FAN_RISE * Math.min(1, this.reelsAcross(placement) / (reels * (cell + gap) - gap)) * this.rowStretch(placement) * placement.scale;
  }

  /** Every layout (the shell's fit, a resize) ends with the reels held still (holdStill), the
   * signs under them. */
  protected override layout(): void {
    super.layout();
    // (the first layout runs from the base's constructor, before these are set)
    if (this.stageRef) this.host.style.setProperty("--cl-fan", `${Math.round(this.fanPx())}px`);
    if (this.holding || !this.fit) return;
    this.holding = true;
    try { this.holdStill(this.fit.px, this.withCounter(this.fit.top)); } finally { this.holding = false; }
    this.placeBand(this.fit.px, this.fit.covered);
  }

  /** On a phone the reels are centred above the signs' room (a desktop keeps its layout). */
  protected override roomUnder(placement: Parameters<PixiSlotView["roomUnder"]>[0]): number {
    return placement.design.name === "portrait" && this.band?.childElementCount ? SIGNS_PX : 0;
  }

  /** The signs between the win's words under the reels and the console (`px`: what it covers,
   * an open gamble panel included), where they fit. On a desktop they stand in the room kept
   * under the reels for the gamble's panel (`covered` less `px`): a bare band of wood there
   * was the gallery's reviewer's first complaint at 1440x900; the panel takes it back. */
  private placeBand(px: number, covered: number): void {
    const { design } = this.stageRef.placement();
    if (design.name !== "portrait") {
      const room = covered - px;
      this.band.dataset.place = "desk";
      this.band.hidden = room < DESK_SIGNS_MIN_PX;
      Object.assign(this.band.style, { top: "", bottom: `${Math.round(px + DESK_SIGNS_AIR_PX)}px`, height: `${Math.max(0, Math.round(room - 2 * DESK_SIGNS_AIR_PX))}px` });
      return;
    }
    delete this.band.dataset.place;
    this.band.style.bottom = "";
    const { top, room, height } = this.bandUnderReels(px, { strip: UNDER_REELS_PX, air: SIGNS_GAP_PX, most: SIGNS_MAX_PX });
    // (a panel open over the console leaves them too, where they fit: the playtest saw the
    // offer leave the hall bare under the reels)
    this.band.hidden = room < SIGNS_MIN_PX;
    // under the win's words; what the signs leave of a tall room is air over the console
    Object.assign(this.band.style, { top: `${Math.round(top)}px`, height: `${Math.max(0, Math.round(height))}px` });
  }

  /** The reels keep still when the gamble's offer or its cards open under them (the playtest
   * saw the frame jump up): they stay where they stood above the console alone, and move up
   * only as far as the open panel needs, never further than the plain fit above it. */
  private holdStill(px: number, top: number | undefined): void {
    const { design } = this.stageRef.placement();
    const choice = this.host.closest("section.game")?.querySelector<HTMLElement>("[data-testid=choice]");
    if (!choice || choice.hidden) { this.calm.set(design.name, px); return; }
    // on a phone, where the reels jumped twice (offer, cards); a desktop keeps the plain fit
    // (its reels stand still at the offer and move up once for the cards: left as it was,
    // the held position measured short of the cards' panel there)
    if (design.name !== "portrait") return;
    const calm = this.calm.get(design.name);
    // (a panel that takes less room than the bet rows it hides leaves them where they stood too)
    if (calm === undefined) return;
    // the last row stays clear of the panel by a few px (the frame's bottom edge may pass
    // under it: the panel is the table the cards lie on)
    this.keepStill(calm, px, top, choice, 6);
  }

  private showCounter(on: boolean): void {
    if (this.counter.hidden === !on) return;
    this.counter.hidden = !on;
    if (!this.fit) return;
    this.fitAbove(this.fit.px, this.fit.top);
    // the reels moved for the counter's room: the overlay's --reels-* (set by the shell's own
    // layout, which does not run here) follow, or the counter, placed from them, stood where
    // the reels were, under the page's header (the playtest: "FREE SPIN 3 of 15" unreadable)
    const r = this.windowRect();
    const overlay = this.counter.parentElement;
    for (const [name, value] of [["x", r.x], ["y", r.y], ["w", r.width], ["h", r.height]] as const) overlay?.style.setProperty(`--reels-${name}`, `${Math.round(value)}px`);
    // and the shell's marker of the window (what the layout checks measure against)
    const marker = overlay?.querySelector<HTMLElement>("[data-testid=reels-window]");
    if (marker) Object.assign(marker.style, { left: `${r.x}px`, top: `${r.y}px`, width: `${r.width}px`, height: `${r.height}px` });
  }

  /** The seed's METER BAR is the console at the bottom of the screen (denomination, credits
   * won, credits bet; each shown once): the credits bet are the console's output that Cluedo's
   * bet controls (controls.ts) put beside LINE BET and LINES. */
  setBet(credits: number): void {
    const game = this.host.closest("section.game");
    const out = game?.querySelector<HTMLElement>("[data-testid=meter-bet]");
    if (out) out.textContent = formatCredits(credits);
    this.labelJackpot(game);
  }

  /** The rules: "Awards are shown in credits except for the Jackpot, which is shown in
   * currency." The console's meters are in credits, so the jackpot's says its currency in its
   * label (the playtest read credits beside a € jackpot with nothing saying why). */
  private labelJackpot(game: Element | null | undefined): void {
    const label = game?.querySelector("[data-testid=jackpot]")?.parentElement?.querySelector<HTMLElement>(".label");
    const text = `Jackpot in ${this.currency}`;
    if (!label || label.textContent === text) return;
    label.textContent = text;
    label.dataset.testid = "jackpot-label";
    label.title = `The jackpot is paid in money (${this.currency}), not in credits`;
  }

  async lightsOut(options: { fast?: boolean } = {}): Promise<void> {
    const fast = !!options.fast;
    this.lights.dataset.state = "out";
    this.lights.dataset.strikes = String(Number(this.lights.dataset.strikes ?? 0) + 1);
    this.sound("bigwin");
    // each step ends at its time on the wall clock (a chain of sleeps added a frame's delay
    // per step on a slow renderer)
    const tl = timeline();
    let t = fast ? 120 : 500;
    await tl.at(t);
    for (let i = 0; i < (fast ? 1 : 2); i++) {
      this.lights.dataset.flash = i ? "b" : "a";
      this.lights.classList.add("strike");
      await tl.at((t += fast ? 90 : 160));
      this.lights.classList.remove("strike");
      await tl.at((t += fast ? 60 : 220));
    }
    await tl.at(t + (fast ? 60 : 400));
    this.lights.dataset.state = "dim";
  }

  golden(on: boolean): void {
    if (this.gold.visible === on) return;
    this.gold.visible = on;
    this.light.visible = on;
    this.host.dataset.golden = String(on);
    this.reels.paylineLook = on ? FREE_SPIN_LINE : null; // the lines drawn from now on
    // the weapons on gilded plaques (symbols.ts gilded), drawn again at once
    if (this.textures.look(on ? GOLDEN : null)) this.reels.redraw();
    // The strips that spin by: the golden set of the free games, else the base set (the
    // window on screen is kept: a reel model's shown cells do not come from its strip).
    const info = this.gameInfo;
    const strips = info.reel_sets?.[on ? (info.free_games?.reel_set ?? "golden") : (info.base_reel_set ?? "base")];
    this.reels.models.forEach((m, r) => { const strip = strips?.[r]; if (strip?.length) m.strip = strip; });
    if (!on) this.lights.dataset.state = "on";
    this.stageRef.invalidate();
  }

  freeSpins(counter: { index: number; total: number } | null): void {
    delete this.counter.dataset.bonusTotal;
    this.showCounter(!!counter);
    if (!counter) return;
    this.counter.dataset.index = String(counter.index);
    this.counter.dataset.total = String(counter.total);
    this.counter.textContent = `FREE SPIN ${counter.index} of ${counter.total} · ALL WINS x3`;
  }

  bonusTotal(credits: number, trigger = 0): void {
    this.showCounter(true);
    this.counter.dataset.bonusTotal = String(credits);
    // The plaque stays up beside WIN until the next round: where the trigger spin paid too, it
    // says the parts and their sum, WIN's figure (a playtest read "FREE SPINS TOTAL 360" beside
    // WIN 2,380, the trigger's 2,000 scatter pay never named).
    this.counter.textContent = trigger > 0
      ? `FREE SPINS ${formatCredits(credits)} + TRIGGER ${formatCredits(trigger)} = ${formatCredits(credits + trigger)}`
      : `FREE SPINS TOTAL ${formatCredits(credits)} credits`;
  }

  /** After free spins the lines that cycle are the last free spin's: they say so, beside the
   * free spins' total and the round's WIN (the playtest read "6 winning lines pay 336" as a
   * fourth total). */
  override showWins(cycle: WinCycle | null, still?: boolean, outcome?: Pick<Outcome, "spins">): void {
    const last = outcome?.spins.at(-1);
    super.showWins(cycle && last?.kind === "free" ? lastFreeSpin(cycle, last.win) : cycle, still);
  }

  moment(o: MomentOptions): Promise<void> {
    return showMoment(this.host, o);
  }

  /** Set by the jackpot's line: the notice that follows opens with the win's own moment. */
  private celebrate: { fast: boolean } | null = null;

  jackpotWon(options: { fast?: boolean } = {}): void {
    this.celebrate = { fast: !!options.fast };
  }

  async jackpotNotice(n: JackpotNotice): Promise<void> {
    const celebrate = this.celebrate;
    this.celebrate = null;
    if (celebrate) {
      await this.moment({
        kind: "jackpot", title: "MEGAJACKPOT", ms: 3600, fast: celebrate.fast,
        count: { to: n.amountMinor, format: (m) => formatMoney(m, n.currency) },
        lines: ["The case is solved!"],
      });
    }
    this.showNotice(n);
  }

  private showNotice(n: JackpotNotice): void {
    const ok = h("button", { "data-testid": "jackpot-notice-ok" }, "OK");
    // the shell greys PLAY while the notice is up
    const changed = () => this.notice.dispatchEvent(new Event("reelforge:modal", { bubbles: true }));
    ok.addEventListener("click", () => { this.notice.hidden = true; changed(); });
    this.notice.replaceChildren(
      h("strong", { class: "cluedo-notice-title" }, "MEGAJACKPOT WON"),
      h("div", { class: "cluedo-notice-amount", "data-testid": "jackpot-notice-amount" }, n.amount),
      h("div", { "data-testid": "jackpot-notice-status" }, `Status: ${n.status}`),
      ...n.lines.map((l) => h("p", {}, l)),
      ok);
    this.notice.hidden = false;
    changed();
    ok.focus();
  }

  override destroy(): void {
    this.lights.remove();
    this.counter.remove();
    this.notice.remove();
    this.band.remove();
    this.jackpotCopy?.disconnect();
    this.cardWatch.disconnect();
    super.destroy();
  }
}
