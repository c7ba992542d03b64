// The gamble's card turning over the reels: the face-down card of the deck, turned to show the
// ace the server drew, then the result big (WON and the doubled amount, or LOST). It only shows
// what the server's step decided (gamble.ts's `revealOf`). A tap, a click or Space ends it at
// once, turbo shortens it, and with reduced motion the card shows its face without turning.
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
      lines: [`${ace}: ${formatCredits(staked)} credits lost`, ...(r.banked ? [`${formatCredits(r.banked)} banked stays paid`] : [])],
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

/** The card turns in `overlay` (over the reels); resolves once it has been shown and removed.
 * data-state goes "down" -> "up" (turned) -> "result" (the result big). */
export async function turnCard(overlay: HTMLElement, show: RevealShow, o: TurnOptions = {}): Promise<void> {
  const side = (cls: string, svg: string) => {
    const el = h("div", { class: `reveal-side ${cls}` });
    el.innerHTML = svg; // our own drawing (card.ts), never data from a request
    return el;
  };
  const result = h("div", { class: "reveal-result" },
    h("strong", { class: "reveal-title", "data-testid": "gamble-reveal-title" }, show.title),
    h("span", { class: "reveal-amount", "data-testid": "gamble-reveal-amount", "data-amount": String(show.amount) }, `${formatCredits(show.amount)} CREDITS`),
    ...show.lines.map((l) => h("span", { class: "reveal-line" }, l)));
  const el = h("div", {
    class: `gamble-reveal ${show.won ? "won" : "lost"}${o.fast ? " fast" : ""}${o.still ? " still" : ""}`,
    "data-testid": "gamble-reveal", "data-layout": "over-reels", role: "status", "aria-live": "assertive",
    "data-state": "down", "data-colour": show.card, "data-result": show.won ? "won" : "lost",
    "aria-label": `${show.card} ace: ${show.title} ${formatCredits(show.amount)} credits`,
  }, h("div", { class: "reveal-card" }, h("div", { class: "reveal-flipper" }, side("back", cardBackSvg()), side("face", cardFaceSvg(show.card)))), result);
  overlay.append(el);

  let skipped = false;
  let skip: () => void = () => { skipped = true; };
  const skippedNow = new Promise<void>((resolve) => { skip = () => { skipped = true; resolve(); }; });
  const onKey = (e: KeyboardEvent) => {
    if (e.code !== "Space" && e.key !== " ") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    skip();
  };
  el.style.pointerEvents = "auto";
  el.addEventListener("pointerdown", (e) => { e.preventDefault(); skip(); });
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
    el.remove();
  }
}
