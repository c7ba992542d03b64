// A moment over the reels: a feature's intro or outro, a win celebration, a jackpot. A DOM
// card in the stage's overlay, themed by the game's CSS (.theme-<key> .moment), that resolves
// after `ms`, or at once on a tap, a click or Space when it is skippable; `fast` (replays,
// turbo) shortens it. Only the text a handler passes is shown: the amounts come from the
// outcome, never from the client's own arithmetic.
import { sleep } from "../core/timing";
import { h } from "./dom";

export interface MomentOptions {
  /** The heading ("FREE SPINS", "BIG WIN"). */
  title: string;
  /** Lines under it ("15 free spins", "All wins x3"). */
  lines?: string[];
  /** An amount counted up from 0 to `to` over the moment's first part, shown by `format`. */
  count?: { to: number; format: (n: number) => string };
  /** A class for the game's CSS to style the kind of moment (tier-big, fs-intro, jackpot). */
  kind?: string;
  ms?: number;
  fast?: boolean;
  /** Default true: a tap, a click or Space ends it early. */
  skippable?: boolean;
}

/** Shows the moment in `overlay` until it ends; resolves then (the card is removed). */
export async function showMoment(overlay: HTMLElement, o: MomentOptions): Promise<void> {
  const ms = o.fast ? Math.min(o.ms ?? 2200, 300) : o.ms ?? 2200;
  const amount = o.count ? h("div", { class: "moment-amount", "data-testid": "moment-amount" }, o.count.format(0)) : null;
  const card = h("div", { class: `moment ${o.kind ?? ""}`.trim(), role: "status", "data-testid": "moment", "data-layout": "over-reels" },
    h("div", { class: "moment-title" }, o.title),
    amount,
    ...(o.lines ?? []).map((l) => h("div", { class: "moment-line" }, l)));
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
  const started = performance.now();
  const countMs = ms * 0.6;
  const tick = () => {
    if (ended || !amount || !o.count) return;
    const k = Math.min(1, (performance.now() - started) / Math.max(1, countMs));
    amount.textContent = o.count.format(Math.round(o.count.to * (1 - (1 - k) ** 3)));
    if (k < 1) requestAnimationFrame(tick);
  };
  if (amount) requestAnimationFrame(tick);
  await Promise.race([sleep(ms), done]);
  ended = true;
  if (amount && o.count) amount.textContent = o.count.format(o.count.to);
  document.removeEventListener("keydown", skip, true);
  card.remove();
}
