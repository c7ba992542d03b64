// A moment over the reels: a feature's intro or outro, a win celebration, a jackpot. A DOM
// card in the stage's overlay, themed by the game's CSS (.theme-<key> .moment), that resolves
// after `ms`, or at once on a tap, a click or Space when it is skippable; `fast` (replays,
// turbo) shortens it. Only the text a handler passes is shown: the amounts come from the
// outcome, never from the client's own arithmetic.
import { tierInfo, winTier, type WinTier } from "../core/celebration";
import { timeline } from "../core/timing";
import { h } from "./dom";

export interface MomentOptions {
  /** The heading ("FREE SPINS", "BIG WIN"). */
  title: string;
  /** Lines under it ("15 free spins", "All wins x3"). */
  lines?: string[];
  /** An amount counted up from 0 to `to` over the moment's first part, shown by `format`;
   * `still`: shown whole at once, where the win meter beside it already reads the amount (a
   * count-up under a meter that shows more reads as a second, smaller figure); `linesAfter`:
   * the lines appear once the count ends (a celebration's money line beside a figure still
   * counting read as two amounts, the gallery's "997" over €10.00). */
  count?: { to: number; format: (n: number) => string; still?: boolean; linesAfter?: boolean };
  /** A class for the game's CSS to style the kind of moment (tier-big, fs-intro, jackpot). */
  kind?: string;
  ms?: number;
  fast?: boolean;
  /** Default true: a tap, a click or Space ends it early. */
  skippable?: boolean;
  /** Coins and confetti thrown out from the card: how many (the quality profile's particle
   * budget; 0 or absent: none). */
  burst?: number;
  /** Pictured items under the lines (the modifiers drawn for free spins), appearing one after
   * another (CSS: .moment-item's --i); `fast` brings them in almost at once. */
  items?: MomentItem[];
}

export interface MomentItem {
  /** Its picture (the game's own art), sized by the game's CSS. */
  art: HTMLElement;
  name: string;
  /** What it does, in a line. */
  line: string;
  /** For the game's CSS and the tests (data-item). */
  key: string;
}

function itemsOf(items: MomentItem[]): HTMLElement {
  return h("div", { class: "moment-items" }, ...items.map((it, i) =>
    h("div", { class: "moment-item", "data-testid": "moment-item", "data-item": it.key, style: `--i:${i}` },
      it.art, h("div", { class: "moment-item-words" }, h("b", { class: "moment-item-name" }, it.name), h("span", { class: "moment-item-line" }, it.line)))));
}

const CONFETTI = ["#ffd54a", "#ff5d73", "#4fd1ff", "#7dff8a", "#ffffff", "#c58bff"];

/** The burst's pieces, laid out once: every piece flies on its own CSS variables (direction,
 * distance, spin, delay), so the browser animates them without a frame loop here. */
function burstOf(n: number): HTMLElement {
  const box = h("div", { class: "moment-burst", "aria-hidden": "true" });
  for (let i = 0; i < n; i++) {
    // golden-angle spread: even in every direction without a random source
    const a = i * 2.39996, far = 0.55 + ((i * 37) % 45) / 100;
    const coin = i % 3 === 0;
    const piece = h("i", { class: coin ? "coin" : "confetti" });
    piece.style.cssText = `--dx:${(Math.cos(a) * far).toFixed(3)};--dy:${(Math.sin(a) * far - 0.25).toFixed(3)};--spin:${(i * 97) % 720 - 360}deg;--delay:${(i % 6) * 70}ms;--c:${CONFETTI[i % CONFETTI.length]}`;
    box.append(piece);
  }
  return box;
}

/** Whether the player asks for reduced motion (the OS or browser setting). */
export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Shows the moment in `overlay` until it ends; resolves then (the card is removed). Under
 * reduced motion an amount is shown whole, not counted up (the CSS stills the card's motion). */
export async function showMoment(overlay: HTMLElement, o: MomentOptions): Promise<void> {
  const ms = o.fast ? Math.min(o.ms ?? 2200, 300) : o.ms ?? 2200;
  const still = !!o.count && (o.count.still || reducedMotion());
  // data-to: the amount it ends on, for a test to read while it counts
  const lines = (o.lines ?? []).map((l) => h("div", { class: "moment-line" }, l));
  const waiting = !!o.count?.linesAfter && !still;
  for (const l of lines) if (waiting) l.style.visibility = "hidden";
  const showLines = () => { for (const l of lines) l.style.visibility = ""; };
  const amount = o.count ? h("div", { class: "moment-amount", "data-testid": "moment-amount", "data-to": String(o.count.to) }, o.count.format(still ? o.count.to : 0)) : null;
  const card = h("div", { class: `moment ${o.kind ?? ""}`.trim(), role: "status", "data-testid": "moment", "data-layout": "over-reels" },
    h("div", { class: "moment-title" }, o.title),
    amount,
    ...lines,
    o.items?.length ? itemsOf(o.items) : null,
    o.burst ? burstOf(o.burst) : null);
  if (o.fast) card.classList.add("fast");
  overlay.appendChild(card);
  let ended = false;
  let end: () => void = () => { ended = true; };
  const done = new Promise<void>((resolve) => { end = () => { ended = true; resolve(); }; });
  const skip = (e: Event) => {
    if (e instanceof KeyboardEvent && e.code !== "Space" && e.key !== " ") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    end();
  };
  const skippable = o.skippable ?? true;
  if (skippable) {
    card.style.pointerEvents = "auto";
    card.addEventListener("pointerdown", skip);
    document.addEventListener("keydown", skip, true);
  }
  const tl = timeline();
  const countMs = ms * 0.6;
  const tick = () => {
    if (ended || !amount || !o.count || still) return;
    const k = Math.min(1, tl.elapsed() / Math.max(1, countMs));
    amount.textContent = o.count.format(Math.round(o.count.to * (1 - (1 - k) ** 3)));
    if (k < 1) requestAnimationFrame(tick);
    else showLines();
  };
  if (amount) requestAnimationFrame(tick);
  await Promise.race([tl.at(ms), done]); // its whole time by the page's clock (timeline)
  ended = true;
  if (amount && o.count) amount.textContent = o.count.format(o.count.to);
  showLines();
  document.removeEventListener("keydown", skip, true);
  card.remove();
}

/** A round's win celebration (core/celebration.ts says which tier, or none at or below the
 * cost): the tier's title, the round's total counted up, a burst of `particles` pieces; under
 * turbo or a fast replay about a second. Resolves with the tier shown (null: none). */
export async function celebrate(overlay: HTMLElement, round: { total_win: number; cost: number },
  o: { fast?: boolean; particles: number; format: (credits: number) => string; lines?: string[]; still?: boolean }): Promise<WinTier | null> {
  const tier = winTier(round.total_win, round.cost);
  if (!tier) return null;
  const info = tierInfo(tier);
  await showMoment(overlay, {
    title: info.title, kind: `celebration tier-${tier}${o.fast ? " fast" : ""}`, lines: o.lines,
    count: { to: round.total_win, format: o.format, still: o.still, linesAfter: true },
    ms: o.fast ? 1000 : info.ms,
    burst: o.fast ? Math.min(o.particles, 12) : o.particles,
  });
  return tier;
}
