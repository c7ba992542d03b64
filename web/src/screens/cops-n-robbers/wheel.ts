// The wheel gamble's two wheels (cash on the left, Big Money Bonus on the right), a choice
// screen of the game's own (choices.ts; Spin Chance, chance.ts, spins the same Wheel). What may
// be chosen is the server's `choice.choices`; what a wheel shows is the server's `choice.odds` (each spin's
// target or price and exact chance, at each amount the arrows reach) and its state (amount
// at stake, banked). The client computes no odds: the server draws with those it sends.
import { creditsMoney, formatCredits } from "../../core/money";
import { timeline } from "../../core/timing";
import { reducedMotion, showMoment } from "../../ui/moment";
import { landingTurn, pointerAngle, pointerStop, shownShare, sliceLabel, SKIP_AFTER_MS, SPIN_MS, wheelSlices, type Slice } from "./wheel-spin";
import type { GameView, RoundView, SpinOdds, StepChoice } from "../../net/types";
import type { ChoiceScreen } from "../game/registry";
import { h } from "../../ui/dom";

export interface WheelState { stake: number; limit: number; amount: number; collected: number; bonus_won: number | null; reached: number; finished: boolean }

/** The server's odds: amount (as a string key) -> the spins offered at it. */
export type WheelOdds = Record<string, SpinOdds[]>;

export { MIN_SHARE } from "./wheel-spin";

/** A spin at `amount` as the server's odds give it: the cash target or the bonus price in
 * credits and the chance of winning (the green share); null where the server offers none. */
export function spinSegment(odds: WheelOdds | null | undefined, amount: number, kind: "cash" | "bonus", arg: number): { target: number | null; price: number | null; chance: number } | null {
  const spin = odds?.[String(amount)]?.find((o) => o.choice[0] === kind && o.choice[1] === arg);
  if (!spin) return null;
  return { target: spin.target, price: spin.price ? spin.price[0] / spin.price[1] : null, chance: spin.chance[0] / spin.chance[1] };
}

/** The amounts the arrows step through, highest (the amount at stake) first: the server's. */
export function arrowAmounts(odds: WheelOdds | null | undefined): number[] {
  return Object.keys(odds ?? {}).map(Number).sort((a, b) => b - a);
}

/** The cash spins' words, as the rule sheet says them (increase the winnings by one third,
 * double, triple): a new player reads what a spin does; "+1/3" or "x2" asked them to know the
 * game. ("+ A THIRD" beside "win 6" read as 6 more.) */
export const CASH_NAMES = ["ADD A THIRD", "DOUBLE", "TRIPLE"];
/** What a cash spin does, in full (the button's accessible name and tooltip). */
export const CASH_TITLES = ["Add a third to the win", "Double the win", "Triple the win"];
/** The one SPIN button's words for the cash prize picked. */
export const CASH_SPIN = ["SPIN FOR A THIRD MORE", "SPIN TO DOUBLE", "SPIN TO TRIPLE"];
/** A won cash spin's words after the amount that was at stake ("5 with a third added"). */
const CASH_HOW = ["with a third added", "doubled", "tripled"];
export const BONUS_NAMES: Record<number, string> = { 1: "BIG MONEY", 2: "SUPER BIG MONEY", 3: "MEGA BIG MONEY" };
/** The bonus buttons' short words (the full name is their accessible name and the wheel's info
 * line), so three fit side by side on a phone without wrapping. */
export const BONUS_SHORT: Record<number, string> = { 1: "BIG", 2: "SUPER", 3: "MEGA" };

const SVG = "http://www.w3.org/2000/svg";
function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** The words on a wheel's segments, as the rule sheet names what each gives ("If the pointer
 * stops on the green segment, the cash value or Free Spins are awarded ... on the red segment,
 * the player loses their winnings"): green the cash wheel's target (the server's, in credits as
 * its prize buttons say it), the bonus wheel's bonus (BIG, SUPER, MEGA), Spin Chance's spin;
 * red LOSE. */
export function segmentWords(wheel: "cash" | "bonus" | "chance", arg: number): { green: string; red: string } {
  const green = wheel === "cash" ? formatCredits(arg) : wheel === "bonus" ? `${BONUS_SHORT[arg] ?? `#${arg}`} BONUS` : "SPIN";
  return { green, red: "LOSE" };
}

/** The slices' colours: green and red, each in two shades (wheelSlices alternates them). */
const SLICE_FILL = { green: ["#2a9d4f", "#1f7f3e"], red: ["#c1121f", "#8f0d18"] } as const;
/** A slice's word at this size or more (of the wheel's 236 units) reads on a phone's wheel. */
const READABLE_LABEL = 12;
/** The rim's bulbs, lit in turn (cops.css). */
const BULBS = 24;

/** A prize wheel: its green and red slices (wheelSlices: the green adds up to the chance the
 * server sends, split into equal slices interleaved with the red), a word on each slice, a rim
 * of bulbs, a gold pointer fixed at the top; the wheel turns under the pointer. */
export class Wheel {
  readonly el: SVGSVGElement;
  /** What turns: the slices and their words. */
  private readonly face = svg("g", { class: "wheel-face", "data-testid": "wheel-face" });
  private readonly slicesEl: SVGElement;
  /** Each slice's word, as the rule sheet names what it gives (segmentWords). */
  private readonly labels = svg("g", { class: "wheel-labels", "data-testid": "wheel-labels", "pointer-events": "none" });
  share = 0;
  /** The slices drawn (wheelSlices of the shown share). */
  slices: Slice[] = [];

  constructor(testid: string, label: string) {
    this.el = svg("svg", { viewBox: "-118 -118 236 236", role: "img", "aria-label": label, "data-testid": testid }) as SVGSVGElement;
    this.slicesEl = svg("g", { class: "wheel-slices", "data-testid": `${testid}-slices` });
    // the rim: dark wood under a gold band, its bulbs round it
    this.el.append(svg("circle", { r: 112, fill: "#3a1e0a", stroke: "#ffd166", "stroke-width": 4 }),
      svg("circle", { r: 101, fill: "#2a0508" }));
    this.face.append(this.slicesEl, this.labels, svg("circle", { r: 100, fill: "none", stroke: "#ffd166", "stroke-width": 2.5 }));
    this.el.append(this.face,
      svg("ellipse", { cx: -30, cy: -40, rx: 58, ry: 38, fill: "#fff", opacity: 0.12, "pointer-events": "none" }));
    const bulbs = svg("g", { class: "wheel-bulbs", "aria-hidden": "true" });
    for (let i = 0; i < BULBS; i++) {
      const a = (i / BULBS) * 2 * Math.PI;
      bulbs.append(svg("circle", { cx: (106.5 * Math.sin(a)).toFixed(1), cy: (-106.5 * Math.cos(a)).toFixed(1), r: 4.2, class: `wheel-bulb ${i % 2 ? "odd" : "even"}`, fill: i % 2 ? "#ffd166" : "#fff3c4", stroke: "#5a3a06", "stroke-width": 1.2 }));
    }
    this.el.append(bulbs);
    // the pointer: a gold flag fixed at the top, its tip in the wheel, a lamp on it (the brief: a
    // form's wheel, small and flat, read as no game's)
    const glow = `${testid}-glow`;
    const defs = svg("defs", {});
    const filter = svg("filter", { id: glow, x: "-50%", y: "-50%", width: "200%", height: "200%" });
    filter.append(svg("feGaussianBlur", { in: "SourceGraphic", stdDeviation: 3, result: "blur" }));
    const merge = svg("feMerge", {});
    merge.append(svg("feMergeNode", { in: "blur" }), svg("feMergeNode", { in: "SourceGraphic" }));
    filter.append(merge);
    defs.append(filter);
    this.el.prepend(defs);
    const pointer = svg("g", { class: "wheel-pointer", "data-testid": `${testid}-pointer` });
    pointer.append(
      svg("path", { d: "M0,-78 L-15,-110 Q0,-122 15,-110 Z", fill: "#ffd166", stroke: "#5a3a06", "stroke-width": 3, "stroke-linejoin": "round", filter: `url(#${glow})` }),
      svg("path", { d: "M0,-84 L-7,-106 Q0,-112 7,-106 Z", fill: "#fff3c4", opacity: 0.8 }),
      svg("circle", { cy: -108, r: 5, fill: "#fffbe6", stroke: "#c1121f", "stroke-width": 2, class: "wheel-lamp" }));
    this.el.append(pointer, svg("circle", { r: 22, fill: "#7a0c14", stroke: "#ffd166", "stroke-width": 3 }),
      svg("polygon", { points: "0,-16 4.5,-5.5 16,-5.5 7,2 10.5,13.5 0,6.5 -10.5,13.5 -7,2 -16,-5.5 -4.5,-5.5", fill: "#ffd166", stroke: "#5a3a06", "stroke-width": 2, "stroke-linejoin": "round" }));
  }

  /** `words`: what the green and the red slices give, written on each. */
  draw(share: number, words?: { green: string; red: string }): void {
    this.share = share;
    this.slices = wheelSlices(shownShare(share));
    this.el.dataset.share = share.toFixed(6);
    this.el.dataset.slices = String(this.slices.length);
    this.slicesEl.replaceChildren(...this.slices.map((s) => svg("path", { d: slicePath(s.from, s.to), fill: SLICE_FILL[s.green ? "green" : "red"][s.shade], stroke: "#ffd166", "stroke-width": 1.2, "data-green": String(s.green), "data-from": s.from.toFixed(6), "data-to": s.to.toFixed(6) })));
    this.labels.replaceChildren();
    for (const s of this.slices) {
      const full = s.green ? words?.green : words?.red;
      if (!full) continue;
      // the whole word where it reads on the slice, else its first word ("SUPER" of SUPER
      // BONUS: the whole, along a phone's slice, was 7 px)
      const fits = [full, full.split(" ")[0]!].map((w) => ({ w, at: sliceLabel(s.from, s.to, w.length) }));
      const best = fits.find((f) => f.at && f.at.size >= READABLE_LABEL) ?? fits.filter((f) => f.at).sort((x, y) => y.at!.size - x.at!.size)[0];
      if (!best?.at) continue;
      const { w: word, at } = best;
      const colour = s.green ? "green" : "red";
      const text = svg("text", { x: at.x.toFixed(1), y: at.y.toFixed(1), transform: `rotate(${at.rotate.toFixed(1)} ${at.x.toFixed(1)} ${at.y.toFixed(1)})`, "font-size": at.size.toFixed(1), "text-anchor": "middle", "dominant-baseline": "central", class: `wheel-label ${colour}`, "data-segment": colour });
      text.textContent = word;
      this.labels.append(text);
    }
  }

  private turn(deg: number): void {
    this.face.setAttribute("transform", `rotate(${deg.toFixed(2)})`);
  }

  /** Spin the wheel and stop it with a green slice under the pointer (won) or a red one, as the
   * server decided: SPIN_TURNS turns slowing into the stop over `ms` of wall-clock time (drawn
   * each frame, so a slow renderer shows fewer frames, not a longer spin). `skip` (a tap,
   * Space) ends the run at its stop; `ms` 0 (reduced motion) places the wheel at once.
   * data-stop: the wheel's angle that rests under the pointer. */
  async spin(won: boolean, ms: number, skip: Promise<void>): Promise<void> {
    const stop = pointerStop(won, this.slices, Math.random());
    const end = landingTurn(stop);
    this.el.dataset.stop = (stop % 360).toFixed(2);
    this.el.dataset.result = won ? "green" : "red";
    let skipped = false;
    void skip.then(() => { skipped = true; });
    const tl = timeline();
    while (!skipped && tl.elapsed() < ms) {
      this.turn(pointerAngle(end, tl.elapsed(), ms));
      // the next frame, or 50 ms where frames are scarce (a starved or hidden page): the run
      // ends on the wall clock either way
      await new Promise<void>((r) => { requestAnimationFrame(() => r()); setTimeout(r, 50); });
    }
    this.turn(end);
  }
}

/** A slice's outline on a wheel of radius 100, `from`..`to` fractions of the turn clockwise
 * from the top. */
function slicePath(from: number, to: number): string {
  const pt = (f: number) => `${(100 * Math.sin(f * 2 * Math.PI)).toFixed(2)},${(-100 * Math.cos(f * 2 * Math.PI)).toFixed(2)}`;
  return `M0,0 L${pt(from)} A100,100 0 ${to - from > 0.5 ? 1 : 0} 1 ${pt(to)} Z`;
}

/** A tap on the panel or Space ends the wheel's run early (as a moment is skipped); the
 * returned `stop` removes the listeners. */
export function skipper(host: HTMLElement): { skip: Promise<void>; stop: () => void } {
  let end: () => void = () => {};
  const skip = new Promise<void>((r) => { end = r; });
  const from = performance.now();
  const fire = () => { if (performance.now() - from >= SKIP_AFTER_MS) end(); };
  const onKey = (e: KeyboardEvent) => {
    if (e.code !== "Space" && e.key !== " ") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    fire();
  };
  const onTap = () => fire();
  document.addEventListener("keydown", onKey, true);
  host.addEventListener("pointerdown", onTap);
  return { skip, stop: () => { document.removeEventListener("keydown", onKey, true); host.removeEventListener("pointerdown", onTap); } };
}

/** The chance of green as a player says it: "1 in 2", "about 3 in 4", "about 1 in 40" (the
 * nearest fraction of a small whole number; a chance under one half as 1 in N), with the exact
 * figure kept for the tooltip (`exact`). */
export function chanceWords(p: number): { words: string; exact: string } {
  const exact = p > 0 && p < 0.0001 ? "under 0.01%" : `${(p * 100).toFixed(2)}%`;
  if (p >= 1) return { words: "certain", exact };
  if (p <= 0) return { words: "no chance", exact };
  let best = { k: 1, n: Math.max(2, Math.round(1 / p)) };
  if (p >= 0.5) {
    let err = Infinity;
    for (let n = 2; n <= 10; n++) {
      const k = Math.round(p * n);
      if (k > 0 && k < n && Math.abs(k / n - p) < err - 1e-12) { err = Math.abs(k / n - p); best = { k, n }; }
    }
  }
  const near = Math.abs(best.k / best.n - p) < 1e-9;
  return { words: `${near ? "" : "about "}${best.k} in ${best.n.toLocaleString("en")}`, exact };
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());
}

/** What green on the cash wheel pays, as the total it leaves at stake (the server's target),
 * never as an amount added: `amount` is at stake now, `kept` what the arrows left out of it. */
export function cashGreenWords(amount: number, target: number, kept: number, money?: (credits: number) => string): string {
  const now = kept > 0 ? `the ${formatCredits(amount)} at stake` : `your win of ${formatCredits(amount)}`;
  return `Green: takes ${now} to ${creditsSaid(target, money)} in total`;
}

/** "125 credits", with the money beside them where `money` is given ("125 credits (€1.25)"):
 * the stake is chosen in money, and the playtest found the gamble's amounts in credits only. */
function creditsSaid(credits: number, money?: (credits: number) => string): string {
  return `${formatCredits(credits)} credits${money ? ` (${money(credits)})` : ""}`;
}

/** What the WIN meter shows once a cash spin's pointer stops: what is at stake after it (the
 * server's pending win, which the shell sets once the step's animation ends), so that the
 * panel's "WON" and the meter never disagree while the result is shown; a lost spin leaves
 * what was kept. A bonus won is played by the shell (null: the meter is left to it). */
export function meterAfterSpin(bonus: boolean, s: WheelState): number | null {
  if (bonus && s.bonus_won !== null) return null;
  return s.amount > 0 ? s.amount : s.collected;
}

/** A cash prize's button words with what it pays: the server's target at `amount` (its odds,
 * the figure the server pays, rounded down as the rules round 4/3), so a new player reads
 * "ADD A THIRD → 6" on a 5-credit win before choosing, not a sum of their own. */
export function cashPrizeWords(index: number, target: number | null | undefined): string {
  const name = CASH_NAMES[index] ?? `#${index}`;
  return target == null ? name : `${name} → ${formatCredits(target)}`;
}

/** Why the bonus wheel offers nothing at `amount` (the arrows' amount; `s` the server's state,
 * `prices` the bonuses' worth in credits from the server's offer), in the rule sheet's terms:
 * "The maximum that can be achieved via the Free Spins gamble is the Mega Big Money Bonus. Once
 * this is reached, the Big Money Bonus wheel is disabled, while the player is still able to
 * gamble on the Cash wheel"; and a bonus is offered only where its worth fits under the
 * gamble's maximum win (gamble.py bonus_offered). The server decides what is offered; this
 * only says why a wheel it closed is closed. */
export function bonusClosedWords(s: Pick<WheelState, "amount" | "collected" | "limit" | "reached" | "finished">, amount: number, prices: Record<number, number>): string[] {
  if (s.finished) return ["CLOSED", "The gamble is over"];
  const bonuses = Object.keys(prices).map(Number).sort((a, b) => a - b);
  const top = bonuses.at(-1);
  const kept = s.collected + s.amount - amount;
  if (top === undefined) return ["CLOSED"];
  if (s.reached >= top || amount >= (prices[top] ?? Infinity)) {
    return ["CLOSED", `Your win is worth more than its top prize, the ${titleCase(BONUS_SHORT[top] ?? "")} Bonus`];
  }
  const next = bonuses.find((b) => b > s.reached && amount < (prices[b] ?? 0));
  if (next !== undefined && kept + (prices[next] ?? 0) > s.limit) {
    return ["CLOSED", `A bonus would take the win past the gamble's maximum of ${formatCredits(s.limit)} credits`];
  }
  return ["CLOSED"];
}

/** The bonuses' worth in credits from the server's offer (`limits.bonus_prices`, exact
 * fractions "n/d" or numbers). */
export function offerPrices(limits: Record<string, unknown> | undefined): Record<number, number> {
  const raw = (limits?.bonus_prices ?? {}) as Record<string, unknown>;
  const out: Record<number, number> = {};
  for (const [k, v] of Object.entries(raw)) {
    const [n, d] = String(v).split("/").map(Number);
    const value = d ? n! / d : Number(n);
    if (Number.isFinite(value)) out[Number(k)] = value;
  }
  return out;
}

/** A wheel's info, a line per entry: what green wins, then its chance. */
function info(el: HTMLElement, lines: string[]): void {
  el.replaceChildren(...lines.map((l) => h("span", {}, l)));
  // a closed wheel's reason is a sign: CLOSED big, the reason under it in balanced lines (cops.css)
  el.classList.toggle("closed", lines[0] === "CLOSED");
}

export function lastResult(next: RoundView): Record<string, unknown> | undefined {
  return next.steps.reduce<(typeof next.steps)[number] | undefined>((a, s) => (!a || s.index > a.index ? s : a), undefined)?.result;
}

/** A spin waiting for the answer to its ("amount", n) step. */
let queued: { round: string; choice: StepChoice } | null = null;
/** The prize picked last in a round, picked again on its next screen (after a won DOUBLE the
 * panel went back to ADD A THIRD): its words then name what it pays on the new amount. */
let lastPick: { round: string; picked: "cash" | "bonus"; cash: number; bonus: number } | null = null;
/** The last spin's result in words, said again on the next screen of the same round. */
let lastSaid: { round: string; won: boolean; text: string } | null = null;

/** The wheel gamble: amount arrows, the cash wheel (a third more, double, triple), the bonus wheel (Big,
 * Super, Mega Big Money), COLLECT. */
export function wheelGamble(host: HTMLElement, round: RoundView, send: (kind: string, choice: StepChoice) => void, game: GameView, setWin?: (credits: number) => void): ChoiceScreen {
  const offer = round.offers.find((o) => o.kind === "wheel_gamble");
  const odds = round.choice?.odds;
  const choices = (round.choice?.choices.wheel_gamble ?? []) as (string | number)[][];
  const has = (kind: string, arg?: number) => choices.some((c) => c[0] === kind && (arg === undefined || c[1] === arg));
  const state: WheelState = (round.choice?.state as WheelState | null) ?? {
    stake: offer?.stake ?? 0, limit: Number(offer?.limits.limit ?? 0), amount: offer?.amount ?? round.pending_win_credits,
    collected: 0, bonus_won: null, reached: 0, finished: false,
  };
  let amount = state.amount;
  const money = creditsMoney(game);
  const amounts = arrowAmounts(odds);
  const cashOffered = [0, 1, 2].filter((i) => has("cash", i));
  const bonusOffered = [1, 2, 3].filter((b) => has("bonus", b));
  const pick = lastPick?.round === round.round_id ? lastPick : null;
  let cashIndex = pick && cashOffered.includes(pick.cash) ? pick.cash : cashOffered[0] ?? -1;
  let bonusWhich = pick && bonusOffered.includes(pick.bonus) ? pick.bonus : bonusOffered[0] ?? -1;
  // One action: the player picks a prize on either wheel (the cash wheel's third more, double
  // or triple; the bonus wheel's Big, Super or Mega), and the one SPIN spins the wheel of the
  // prize picked. The cash wheel is picked first where it is offered (or the wheel picked last
  // in this round).
  let picked: "cash" | "bonus" = cashIndex >= 0 && !(pick?.picked === "bonus" && bonusWhich >= 0) ? "cash" : bonusWhich >= 0 ? "bonus" : "cash";
  const prices = offerPrices(offer?.limits);
  const cashWheel = new Wheel("cash-wheel", "Cash wheel");
  const bonusWheel = new Wheel("bonus-wheel", "Bonus wheel");
  const amountOut = h("output", { "data-testid": "gamble-amount" });
  const bankedOut = h("output", { "data-testid": "gamble-banked" });
  const cashInfo = h("div", { class: "wheel-info", "data-testid": "cash-info" });
  const bonusInfo = h("div", { class: "wheel-info", "data-testid": "bonus-info" });
  // the last spin's result stays said on the panel until the next spin (a moment says it big)
  const lastOut = h("output", { class: "gamble-last", "data-testid": "gamble-last", role: "status" });
  const said = lastSaid?.round === round.round_id ? lastSaid : null;
  if (said) { lastOut.textContent = said.text; lastOut.dataset.result = said.won ? "won" : "lost"; }
  const minus = h("button", { "aria-label": "Gamble less (the rest is kept)", title: "Gamble less: the rest is kept", "data-testid": "amount-minus" }, "◀");
  const plus = h("button", { "aria-label": "Gamble more", title: "Gamble more", "data-testid": "amount-plus" }, "▶");
  const cashButtons = cashOffered.map((i) => h("button", { "data-testid": `cash-${i}`, "aria-pressed": "false", "aria-label": CASH_TITLES[i] ?? `#${i}`, title: CASH_TITLES[i] ?? `#${i}`, onclick: () => { cashIndex = i; picked = "cash"; redraw(); } }, CASH_NAMES[i] ?? `#${i}`));
  const bonusButtons = bonusOffered.map((b) => h("button", { "data-testid": `bonus-${b}`, "aria-pressed": "false", "aria-label": `${BONUS_NAMES[b] ?? `#${b}`} BONUS`, title: `${BONUS_NAMES[b] ?? `#${b}`} BONUS`, onclick: () => { bonusWhich = b; picked = "bonus"; redraw(); } }, BONUS_SHORT[b] ?? `#${b}`));
  const spinButton = h("button", { class: "play spin-one", "data-testid": "spin-cash" }, "SPIN");
  const collect = h("button", { "data-testid": "collect", "data-kind": "wheel_gamble", "data-choice": '["collect"]' }, "COLLECT");
  let spinning: Wheel | null = null;
  let fast = false;
  const bonusName = h("strong", { class: "wheel-name", "data-testid": "bonus-name" }, "BONUS WHEEL");
  const cashCol = h("div", { class: "wheel-col cash" });
  const bonusCol = h("div", { class: "wheel-col bonus" });

  const redraw = () => {
    amountOut.textContent = `${creditsSaid(amount, money)} at stake`;
    bankedOut.textContent = state.collected + state.amount - amount > 0 ? `${creditsSaid(state.collected + state.amount - amount, money)} kept` : "";
    minus.disabled = !has("amount") || !amounts.some((a) => a < amount);
    plus.disabled = amount >= state.amount;
    // each cash prize names what it pays at the amount now at stake (the server's target)
    cashButtons.forEach((el, k) => {
      const i = cashOffered[k]!;
      const target = spinSegment(odds, amount, "cash", i)?.target;
      el.textContent = cashPrizeWords(i, target);
      el.setAttribute("aria-label", target == null ? (CASH_TITLES[i] ?? `#${i}`) : `${CASH_TITLES[i] ?? `#${i}`}: ${formatCredits(target)} credits`);
    });
    const c = cashIndex >= 0 ? spinSegment(odds, amount, "cash", cashIndex) : null;
    cashWheel.draw(c?.chance ?? 0, c ? segmentWords("cash", c.target ?? 0) : undefined);
    const cashOdds = c ? chanceWords(c.chance) : null;
    const kept = state.collected + state.amount - amount;
    // on the panel the chance alone, short; what green pays in full is the prize's button and
    // the tooltip (the brief: the gamble read as a form, a paragraph under each wheel)
    info(cashInfo, c && cashOdds ? [`${cashOdds.words} chance`] : ["Not offered at this amount"]);
    cashInfo.title = c && cashOdds ? `${cashGreenWords(amount, c.target ?? 0, kept, money)} (${cashOdds.exact} chance)` : "";
    const b = bonusWhich >= 0 ? spinSegment(odds, amount, "bonus", bonusWhich) : null;
    bonusWheel.draw(b?.chance ?? 0, b ? segmentWords("bonus", bonusWhich) : undefined);
    bonusWheel.el.classList.toggle("disabled", !b);
    const bonusOdds = b ? chanceWords(b.chance) : null;
    info(bonusInfo, b && bonusOdds ? [`${bonusOdds.words} chance`] : bonusClosedWords(state, amount, prices));
    bonusInfo.title = bonusOdds ? `Green: win the ${titleCase(BONUS_NAMES[bonusWhich] ?? "")} Bonus (${bonusOdds.exact} chance)` : "";
    if (picked === "bonus" && !b && c) picked = "cash";
    if (picked === "cash" && !c && b) picked = "bonus";
    const seg = picked === "cash" ? c : b;
    spinButton.disabled = !seg;
    spinButton.dataset.testid = picked === "cash" ? "spin-cash" : "spin-bonus";
    spinButton.textContent = picked === "cash" ? (CASH_SPIN[cashIndex] ?? "SPIN") : `SPIN FOR ${BONUS_SHORT[bonusWhich] ?? ""} BONUS`;
    spinButton.setAttribute("aria-label", picked === "cash" ? `Spin the cash wheel: ${CASH_TITLES[cashIndex] ?? ""}` : `Spin the bonus wheel for the ${titleCase(BONUS_NAMES[bonusWhich] ?? "")} Bonus`);
    // each wheel, a button, names the spin it makes (the same as SPIN's for its prize)
    cashWheel.el.setAttribute("aria-label", c ? `Spin the cash wheel: ${CASH_TITLES[cashIndex] ?? ""}` : "Cash wheel: not offered at this amount");
    bonusWheel.el.setAttribute("aria-label", b ? `Spin the bonus wheel for the ${titleCase(BONUS_NAMES[bonusWhich] ?? "")} Bonus` : "Bonus wheel: closed at this amount");
    cashWheel.el.setAttribute("aria-disabled", String(!c || !!spinning));
    bonusWheel.el.setAttribute("aria-disabled", String(!b || !!spinning));
    lastPick = { round: round.round_id, picked, cash: cashIndex, bonus: bonusWhich };
    cashCol.classList.toggle("picked", picked === "cash");
    bonusCol.classList.toggle("picked", picked === "bonus");
    cashButtons.forEach((el, k) => el.setAttribute("aria-pressed", String(picked === "cash" && cashOffered[k] === cashIndex)));
    bonusButtons.forEach((el, k) => el.setAttribute("aria-pressed", String(picked === "bonus" && bonusOffered[k] === bonusWhich)));
  };
  // the arrows move between the amounts the server priced (its odds), never past the win
  minus.addEventListener("click", () => { amount = amounts.find((a) => a < amount) ?? amount; redraw(); });
  plus.addEventListener("click", () => { amount = [...amounts].reverse().find((a) => a > amount && a <= state.amount) ?? amount; redraw(); });
  // A lower amount is the server's step ("amount", n): sent first; the screen drawn on its
  // answer (the new state) sends the spin.
  const go = (wheel: Wheel, kind: string, arg: number) => {
    spinning = wheel;
    if (!waiting) delete host.dataset.wheelResult;
    lastOut.textContent = "";
    delete lastOut.dataset.result;
    fast = game.jurisdiction.turbo && !!document.querySelector<HTMLInputElement>("[data-testid=turbo]")?.checked;
    host.querySelectorAll("button").forEach((b) => ((b as HTMLButtonElement).disabled = true));
    [cashWheel, bonusWheel].forEach((w) => w.el.setAttribute("aria-disabled", "true"));
    if (amount < state.amount) { queued = { round: round.round_id, choice: [kind, arg] }; send("wheel_gamble", ["amount", amount]); }
    else send("wheel_gamble", [kind, arg]);
  };
  const waiting = queued;
  if (waiting && waiting.round === round.round_id) {
    queued = null;
    const [kind, arg] = waiting.choice as [string, number];
    if (has(kind, arg)) {
      if (kind === "cash") { cashIndex = arg; picked = "cash"; } else { bonusWhich = arg; picked = "bonus"; }
      setTimeout(() => go(kind === "cash" ? cashWheel : bonusWheel, kind, arg), 0);
    }
  }
  spinButton.addEventListener("click", () => {
    if (picked === "cash") go(cashWheel, "cash", cashIndex);
    else go(bonusWheel, "bonus", bonusWhich);
  });
  // The rule sheet: "Press either wheel during the feature to gamble your winnings and spin
  // the pointer". A tap (click, Enter, Space) on a wheel spins it for its prize picked last,
  // as its SPIN button does (the playtest: tapping a wheel did nothing). A wheel with nothing
  // offered at this amount does nothing.
  const press = (kind: "cash" | "bonus") => {
    if (spinning) return;
    const arg = kind === "cash" ? cashIndex : bonusWhich;
    if (arg < 0 || !spinSegment(odds, amount, kind, arg)) return;
    picked = kind;
    redraw();
    go(kind === "cash" ? cashWheel : bonusWheel, kind, arg);
  };
  const pressable = (wheel: Wheel, kind: "cash" | "bonus") => {
    // a button here (Spin Chance's wheel stays a picture): focusable, Enter or Space spins it
    wheel.el.setAttribute("role", "button");
    wheel.el.setAttribute("tabindex", "0");
    wheel.el.addEventListener("click", () => press(kind));
    wheel.el.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      press(kind);
    });
  };
  pressable(cashWheel, "cash");
  pressable(bonusWheel, "bonus");
  collect.addEventListener("click", () => { spinning = null; send("wheel_gamble", ["collect"]); });

  // The wheels are the screen while the gamble is open (a commercial gamble's own scene, not a
  // form under the reels): over the stage, each wheel large under its name with its prizes
  // under it, the amount, SPIN and COLLECT between them, one line of a sign under all
  // (cops.css). The reels wait behind it: nothing on them is at stake until COLLECT.
  const wheelCol = (col: HTMLElement, name: HTMLElement, wheel: Wheel, buttons: HTMLElement[], info: HTMLElement) => {
    col.append(name, wheel.el, h("div", { class: "wheel-controls" }, h("div", { class: "wheel-options" }, ...buttons), info));
    return col;
  };
  // The rule sheet's "Press either wheel", and what the colours mean, as one short sign.
  const help = h("div", { class: "gamble-help", "data-testid": "gamble-help", title: "Pick a prize, then tap its wheel or SPIN: green wins it, red loses the credits at stake. ◀ ▶ gamble less or more: the rest is kept. COLLECT takes the win." },
    h("span", {}, "TAP A WHEEL TO SPIN"), h("span", { class: "dot", "aria-hidden": "true" }, "·"),
    h("b", { class: "green" }, "GREEN WINS"), h("span", { class: "dot", "aria-hidden": "true" }, "·"), h("b", { class: "red" }, "RED LOSES"));
  host.append(h("div", { class: "wheels", "data-testid": "wheel-gamble", "data-layout": "over-reels" },
    h("strong", { class: "wheels-title", "data-testid": "gamble-title" }, "GAMBLE"),
    wheelCol(cashCol, h("strong", { class: "wheel-name" }, "CASH WHEEL"), cashWheel, cashButtons, cashInfo),
    h("div", { class: "wheel-col gamble" }, h("div", { class: "amount-row" }, minus, amountOut, plus), bankedOut, lastOut, h("div", { class: "gamble-actions" }, spinButton, collect)),
    wheelCol(bonusCol, bonusName, bonusWheel, bonusButtons, bonusInfo), help));
  redraw();
  return {
    async answered(next) {
      if (!spinning || queued) return;
      const s = lastResult(next)?.state as WheelState | undefined;
      if (!s) return;
      const wheel = spinning;
      const bonus = wheel === bonusWheel;
      const won = bonus ? s.bonus_won !== null : s.amount > 0;
      host.dataset.wheelResult = `${wheel.el.dataset.testid}:${won ? "green" : "red"}`;
      const panel = host.querySelector<HTMLElement>("[data-testid=wheel-gamble]");
      const col = wheel.el.closest(".wheel-col");
      panel?.classList.add("spinning");
      col?.classList.add("spinning");
      const still = reducedMotion();
      const { skip, stop } = skipper(host);
      try {
        await wheel.spin(won, still ? 0 : fast ? SPIN_MS.fast : SPIN_MS.normal, skip);
      } finally {
        stop();
      }
      col?.classList.add(won ? "won" : "lost");
      const result = gambleResult(bonus ? { wheel: "bonus", bonus: bonusWhich } : { wheel: "cash", option: cashIndex }, amount, s, money);
      // over the wheels (the stage's overlay, where moments go, lies under the panel)
      const overlay = panel ?? host;
      lastSaid = { round: round.round_id, won, text: result.said };
      const meter = meterAfterSpin(bonus, s);
      if (meter !== null) setWin?.(meter);
      lastOut.textContent = lastSaid.text;
      lastOut.dataset.result = won ? "won" : "lost";
      // a win thrown up in confetti and coins over a gold-rimmed plaque (cops.css), as big as
      // a loss's LOSE (the playtest: a win read as one small green line beside a big LOSE)
      await showMoment(overlay, { title: result.title, lines: [result.amount, ...result.lines], kind: `gamble-result ${won ? "won" : "lost"}`, ms: 2200, fast, burst: won && !still ? WIN_BURST : 0 });
      spinning = null;
    },
  };
}

/** The confetti and coins thrown from a won spin's WIN (ui/moment.ts burst). */
const WIN_BURST = 36;

/** What a gamble spin's result says, big, once the pointer stops: WIN or LOSE, the amount
 * (now at stake, lost, or the bonus won) on the line under it, then what it came from and what
 * happens next, and `said`, the line the panel keeps beside the WIN meter (which shows the same
 * amount: meterAfterSpin). `was` is the amount that was at stake on the spin; `s` the server's state after
 * it. The amount is a line, not a count-up: it reads at once however few frames are drawn.
 * What the arrows kept out of the spin is not said here: the panel's own line under the amount
 * says it (gamble-banked, "200 credits kept"), and the gallery's review read it twice where the
 * result said it again beside it. `money`: the amounts' money beside their credits. */
export function gambleResult(spin: { wheel: "cash"; option: number } | { wheel: "bonus"; bonus: number }, was: number, s: WheelState, money?: (credits: number) => string): { title: string; amount: string; lines: string[]; said: string } {
  const lost = { title: "LOSE", amount: `−${creditsSaid(was, money)}`, lines: [], said: `LOST: −${creditsSaid(was, money)}` };
  if (spin.wheel === "bonus") {
    if (s.bonus_won === null) return lost;
    const bonus = `${BONUS_NAMES[s.bonus_won] ?? "BIG MONEY"} BONUS`;
    return { title: "WIN", amount: bonus, lines: [`for ${creditsSaid(was, money)}`], said: `WON: ${bonus}, for ${creditsSaid(was, money)}` };
  }
  if (s.amount <= 0) return lost;
  const how = CASH_HOW[spin.option] ?? "won on the cash wheel";
  const next = s.finished ? "Maximum gamble win reached: collected" : "Gamble again or COLLECT";
  const now = creditsSaid(s.amount, money);
  // with part of the win kept (the arrows), the meter shows what is at stake: said as such
  if (s.collected > 0) return { title: "WIN", amount: `At stake: ${now}`, lines: [`${formatCredits(was)} ${how}`, next], said: `WON: ${now} at stake now` };
  return { title: "WIN", amount: `Your win: ${now}`, lines: [`${formatCredits(was)} ${how}`, next], said: `WON: your win is now ${now}` };
}
