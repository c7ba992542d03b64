// The gamble's table over the reels: one large card face down between RED and BLACK, turned on
// the pick to show the ace the server drew, then the result big (WON and the doubled amount, or
// LOST). It only shows what the server's step decided (gamble.ts's `revealOf`). A tap, a click
// or Space ends the turn at once, turbo shortens it, and with reduced motion the card shows its
// face without turning.
import { formatCredits } from "../../core/money";
import { timeline } from "../../core/timing";
import { h } from "../../ui/dom";
import { cardBackSvg, cardFaceSvg, type CardColour } from "./card";
import type { GambleModel, Reveal } from "./gamble";

export interface RevealShow {
  card: CardColour;
  won: boolean;
  title: "WON" | "LOST";
  /** Credits shown big: the server's doubled amount, or what was lost. */
  amount: number;
  lines: string[];
}

/** What the turned card says for the server's step `r`, `staked` credits having been at stake
 * when the guess was made; null for a step that turns no card (TAKE HALF, COLLECT). */
export function revealShow(r: Reveal, staked: number, limits: Pick<GambleModel, "maxWins" | "limit">): RevealShow | null {
  if (r.card !== "red" && r.card !== "black") return null;
  const ace = `${r.card.toUpperCase()} ACE`;
  if (!r.won) {
    return {
      card: r.card, won: false, title: "LOST", amount: staked,
      // the ace alone: LOST and the credits stand over it, the table under the reels says the
      // banked half (the playtest at 390x844: "20 banked" said three times, the loss run to both
      // edges of the screen)
      lines: [ace],
    };
  }
  const lines = [`${ace}: ${formatCredits(staked)} doubled`];
  if (r.ended === "max_wins" && limits.maxWins !== null) lines.push(`${limits.maxWins} wins in a row: the gamble ends`);
  if (r.ended === "limit" && limits.limit !== null) lines.push(`The ${formatCredits(limits.limit)} limit is reached: the gamble ends`);
  return { card: r.card, won: true, title: "WON", amount: r.amount, lines };
}

export interface TurnOptions {
  /** Turbo: a shorter turn and hold. */
  fast?: boolean;
  /** Reduced motion: no turn, the face at once. */
  still?: boolean;
  /** Called as the result shows (the WIN meter takes the server's amount then, not after). */
  onResult?: () => void;
}

/** How long the reveal's steps take, ms: the deck's card lifts, turns (cluedo.css: the flip's
 * transition), then the result holds. Turbo shortens the turn, never the result below
 * RESULT_MIN_MS: the playtest with TURBO on saw the panel close with no card and nothing
 * saying LOST (the result held 450 ms, then the round's end replaced it). */
export function revealTimes(o: Pick<TurnOptions, "fast" | "still">): { lift: number; flip: number; hold: number } {
  return {
    lift: o.still ? 0 : o.fast ? 80 : 450,
    flip: o.still ? 0 : o.fast ? 220 : 650,
    hold: o.fast ? RESULT_MIN_MS : o.still ? 1400 : 1500,
  };
}

/** The least time the turned card and WON/LOST stay up, turbo included (a tap skips it). */
export const RESULT_MIN_MS = 1000;

/** The gamble's table over the reels while the cards are open: ONE large card face down (a
 * big part of the reels' height), RED at its left and BLACK at its right, as large; the card
 * turns there on the pick (turnCard) and stays face up with the result until the next card
 * (the gallery's reviewer: "a strip with 45 px cards, not one large card turned").
 * data-state: "waiting" (face down, the buttons live) -> "down" (lifting) -> "up" -> "result".
 * Any table already in `overlay` goes: one card at a time. */
export function gambleTable(overlay: HTMLElement, [left, right]: HTMLElement[], prompt: string): HTMLElement {
  overlay.querySelectorAll(".gamble-reveal").forEach((el) => el.remove());
  const back = h("div", { class: "reveal-side back" });
  back.innerHTML = cardBackSvg(); // our own drawing (card.ts), never data from a request
  const el = h("div", {
    class: "gamble-reveal", "data-testid": "gamble-reveal", "data-layout": "over-reels", "data-state": "waiting",
    "aria-label": "The gamble's card, face down",
  },
  h("div", { class: "reveal-prompt", "data-testid": "gamble-prompt" }, prompt),
  h("div", { class: "reveal-pick left" }, left ?? ""),
  h("div", { class: "reveal-card", "data-testid": "gamble-big-card" }, h("div", { class: "reveal-flipper" }, back, h("div", { class: "reveal-side face" }))),
  h("div", { class: "reveal-pick right" }, right ?? ""),
  h("div", { class: "reveal-result", role: "status", "aria-live": "assertive" }));
  overlay.append(el);
  return el;
}

/** The table's card (gambleTable) turns to the server's ace, then says the result big beside
 * it; resolves once the result has held (a tap, a click or Space ends the wait at once). The
 * card stays face up with its result until the table is replaced or removed. */
export async function turnCard(el: HTMLElement, show: RevealShow, o: TurnOptions = {}): Promise<void> {
  const face = el.querySelector<HTMLElement>(".reveal-side.face");
  if (face) face.innerHTML = cardFaceSvg(show.card); // our own drawing (card.ts)
  el.querySelector(".reveal-result")?.replaceChildren(
    h("strong", { class: "reveal-title", "data-testid": "gamble-reveal-title" }, show.title),
    h("span", { class: "reveal-amount", "data-testid": "gamble-reveal-amount", "data-amount": String(show.amount) }, `${formatCredits(show.amount)} CREDITS`),
    ...show.lines.map((l) => h("span", { class: "reveal-line" }, l)));
  el.classList.add(show.won ? "won" : "lost");
  el.classList.toggle("fast", !!o.fast);
  el.classList.toggle("still", !!o.still);
  Object.assign(el.dataset, { colour: show.card, result: show.won ? "won" : "lost" });
  el.setAttribute("aria-label", `${show.card} ace: ${show.title} ${formatCredits(show.amount)} credits`);
  el.dataset.state = "down";

  let skipped = false;
  let skip: () => void = () => { skipped = true; };
  const skippedNow = new Promise<void>((resolve) => { skip = () => { skipped = true; resolve(); }; });
  const onKey = (e: KeyboardEvent) => {
    if (e.code !== "Space" && e.key !== " ") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    skip();
  };
  const onPointer = (e: Event) => { e.preventDefault(); skip(); };
  el.style.pointerEvents = "auto";
  el.addEventListener("pointerdown", onPointer);
  document.addEventListener("keydown", onKey, true);
  const tl = timeline();
  const until = (ms: number) => Promise.race([tl.at(ms), skippedNow]);
  const { lift, flip, hold } = revealTimes(o);
  try {
    await until(lift);
    el.dataset.state = "up";
    if (!skipped) await until(lift + flip);
    el.dataset.state = "result";
    o.onResult?.();
    // the hold counted from when the result shows, not from the reveal's start: a late frame
    // on a busy phone (the flip's wait resolved ~190 ms late) cut turbo's second to 814 ms
    if (!skipped) await until(tl.elapsed() + hold);
  } finally {
    document.removeEventListener("keydown", onKey, true);
    el.removeEventListener("pointerdown", onPointer);
    el.style.pointerEvents = "";
  }
}
