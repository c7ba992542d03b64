// Cluedo's red/black gamble, its own choice screen (GameModule.choices), opened from the offer
// after a win (game/gamble-offer.ts: GAMBLE or COLLECT) or by a step already taken: one large
// card over the reels (the deck's equal red and black aces, face down; reveal.ts) between RED
// and BLACK, turned to the server's card; under the reels TAKE HALF, COLLECT, the amount at
// stake and banked, the 5-win and 3000-credit limits and the
// history of the last fourteen cards. Everything shown is the server's: the offer (amount,
// limits), `choice.state` (amount, banked, wins, history, last card) and `choice.choices`
// (what may be pressed); a step's result is the server's card.
import { creditsOf, formatCredits } from "../../core/money";
import { sleep } from "../../core/timing";
import type { GameView, RoundView, StepChoice } from "../../net/types";
import { h } from "../../ui/dom";
import { reducedMotion } from "../../ui/moment";
import type { ChoiceScreen } from "../game/registry";
import { miniCardSvg, suitIconSvg } from "./card";
import { offerFirst } from "../game/gamble-offer";
import { isGuess, OFFER_WORDS, TAKE_WIN } from "./offer";
import { gambleTable, revealShow, turnCard, type RevealShow } from "./reveal";

export interface GambleState { amount: number; banked: number; wins: number; half_taken: boolean; history: string[]; finished: boolean; last_card: string | null; paid: number }

export const BUTTONS = [
  { choice: "red", label: "RED" },
  { choice: "black", label: "BLACK" },
  { choice: "half", label: "TAKE HALF" },
  { choice: "collect", label: TAKE_WIN },
] as const;

export interface GambleModel {
  amount: number;
  banked: number;
  wins: number;
  maxWins: number | null;
  limit: number | null;
  historyLength: number;
  /** Oldest first, as the server keeps it. */
  history: string[];
  lastCard: string | null;
  buttons: { choice: string; label: string; enabled: boolean }[];
  /** True before the first step: the history shown is the one this screen last saw. */
  carried: boolean;
}

/** The last card history the server sent, per game: before the first step of a new gamble
 * the server's state is null (it carries the history over but shows it with the first card),
 * so the screen keeps showing the cards it last saw. Display only. */
const seenHistory = new Map<string, string[]>();

export function rememberHistory(game: string, history: string[] | undefined): void {
  if (history) seenHistory.set(game, [...history]);
}

/** What the gamble screen draws for `round`, from the server's offer, state and choices. */
export function gambleModel(round: Pick<RoundView, "offers" | "choice" | "pending_win_credits" | "game">): GambleModel {
  const offer = round.offers.find((o) => o.kind === "gamble");
  const state = (round.choice?.state ?? null) as GambleState | null;
  const allowed = new Set((round.choice?.choices.gamble ?? []).map(String));
  const num = (x: unknown) => (typeof x === "number" ? x : null);
  const historyLength = num(offer?.limits.history_length) ?? 14;
  const history = state ? state.history : (seenHistory.get(round.game) ?? []);
  return {
    amount: state ? state.amount : (offer?.amount ?? round.pending_win_credits),
    banked: state?.banked ?? 0,
    wins: state?.wins ?? 0,
    maxWins: num(offer?.limits.max_wins),
    limit: num(offer?.limits.limit_credits),
    historyLength,
    history: history.slice(-historyLength),
    lastCard: state?.last_card ?? null,
    buttons: BUTTONS.map((b) => ({ ...b, enabled: allowed.has(b.choice) })),
    carried: !state,
  };
}

export interface Reveal {
  card: string | null;
  /** The guess doubled the amount (the server's state: the amount is not 0). */
  won: boolean;
  amount: number;
  banked: number;
  finished: boolean;
  paid: number | null;
  /** Why the server ended the gamble after a won guess, if it did. */
  ended: "max_wins" | "limit" | null;
  history: string[];
  /** Guesses won in a row (the server's). */
  wins: number;
  text: string;
}

/** The newest step's result in `next`, as the screen tells it. */
export function revealOf(next: Pick<RoundView, "steps" | "offers">, limits: Pick<GambleModel, "maxWins" | "limit">): Reveal | null {
  const last = next.steps.reduce<(typeof next.steps)[number] | undefined>((a, s) => (!a || s.index > a.index ? s : a), undefined);
  if (!last || last.kind !== "gamble") return null;
  const s = last.result.state as GambleState | undefined;
  if (!s) return null;
  const paid = typeof last.result.paid_credits === "number" ? last.result.paid_credits : null;
  const guessed = last.choice === "red" || last.choice === "black";
  const won = guessed && s.amount > 0;
  let ended: Reveal["ended"] = null;
  if (won && s.finished) ended = limits.maxWins !== null && s.wins >= limits.maxWins ? "max_wins" : "limit";
  let text: string;
  // TAKE HALF credits the banked half to the balance at once (the server's step does), so TAKE
  // WIN then pays what is at stake; the round's whole win is the server's paid_credits.
  if (last.choice === "half") text = `Half banked: ${formatCredits(s.banked)} credits paid to your balance`;
  else if (!guessed) text = s.banked ? `Win taken: ${formatCredits(s.amount)} credits (${formatCredits(paid ?? s.paid)} in all with the ${formatCredits(s.banked)} banked)` : `Win taken: ${formatCredits(paid ?? s.paid)} credits`;
  else if (!won) text = `${(s.last_card ?? "").toUpperCase()} ACE: the gamble is lost${s.banked ? ` (${formatCredits(s.banked)} banked stays paid)` : ""}`;
  else if (ended === "max_wins") text = `${(s.last_card ?? "").toUpperCase()} ACE: ${formatCredits(s.amount)} credits. ${s.wins} wins in a row: the gamble ends`;
  else if (ended === "limit") text = `${(s.last_card ?? "").toUpperCase()} ACE: ${formatCredits(s.amount)} credits reach the ${formatCredits(limits.limit ?? 0)} limit: the gamble ends`;
  else text = `${(s.last_card ?? "").toUpperCase()} ACE: doubled to ${formatCredits(s.amount)} credits`;
  return { card: guessed ? s.last_card : null, won, amount: s.amount, banked: s.banked, finished: s.finished, paid, ended, history: s.history, wins: s.wins, text };
}

/** What the round's end says when a guess ended the gamble (the server's last step and the
 * round's win): a lost guess, or a won one that reached the 5-win or 3000-credit limit; null
 * for a COLLECT (the shell's "The round paid ..." says it). The playtest with TURBO on saw only
 * "The round paid 50 credits" after a lost guess (50 was the half banked before it). */
export function gambleSummary(next: Pick<RoundView, "steps" | "offers" | "win_minor" | "denomination">, limits: Pick<GambleModel, "maxWins" | "limit">): string | null {
  const r = revealOf(next, limits);
  if (!r?.card || next.win_minor === null) return null;
  const paid = creditsOf(next.win_minor, next.denomination);
  const ace = `${r.card.toUpperCase()} ACE`;
  // one line of a phone's notice row (SUMMARY_MAX): two lines pushed the reels up as the
  // panel closed (the playtest: "Gamble lost (RED ACE): the round pays 0 credits." wrapped)
  if (!r.won) return paid > 0 ? `Lost on the ${ace}: ${formatCredits(paid)} banked is paid` : `Lost on the ${ace}: the round pays 0`;
  const why = r.ended === "max_wins" ? `${limits.maxWins ?? ""} in a row` : "the limit";
  return `Won on the ${ace}: ${why}, pays ${formatCredits(paid)}`;
}

/** The most characters gambleSummary says: one line of the notice row on a 390 px phone. */
export const SUMMARY_MAX = 44;

/** The panel's title and its history's label, in full and as a phone shows them (cluedo.css:
 * the playtest on a phone saw fourteen boxes with nothing saying what they were). */
export const TITLE = { wide: "GAMBLE: DOUBLE OR NOTHING", narrow: "DOUBLE OR NOTHING" };
export function historyLabel(n: number): { wide: string; narrow: string } {
  return { wide: `HISTORY (last ${n})`, narrow: `LAST ${n} CARDS` };
}

/** What the table still says of the last step while the gamble goes on: a won guess's card and
 * new amount ("RED ACE: doubled to 40 credits"), the server's last step in `round`; "" before
 * the first step, after TAKE HALF (the banked line says it) or once the gamble has ended. The playtest on a phone: WON and the new
 * amount flashed by, the next step's panel drawn at once with nothing saying what had happened;
 * the words now stay until the next choice is pressed. */
export function carriedSaid(round: Pick<RoundView, "steps" | "offers" | "choice">, limits: Pick<GambleModel, "maxWins" | "limit">): string {
  if (!round.choice?.state) return "";
  const r = revealOf(round, limits);
  return r && r.won && !r.finished ? r.text : "";
}

/** How long the table keeps the turned card and what it did once the card over the reels has
 * gone, before a guess that ended the gamble closes its panel (the playtest on a phone: the panel closed
 * at once after a lost guess, the loss seen only in the notice after it). */
export function tableHold(o: { fast: boolean; finished: boolean }): number {
  return o.finished ? (o.fast ? 1000 : 1600) : 0;
}

/** Both forms of a label: the wide one, and the narrow one a phone shows instead (cluedo.css). */
function twoWays(words: { wide: string; narrow: string }): HTMLElement[] {
  return [h("span", { class: "wide" }, words.wide), h("span", { class: "narrow" }, words.narrow)];
}

/** The cards turned so far, oldest first, each a small ace (card.ts's art), the newest ringed;
 * none yet: the deck's back and a line saying so (the gallery's reviewer read fourteen empty
 * boxes before any card as a broken row). The grid keeps its fourteen columns, so the panel
 * does not change width as cards come. */
function historyEl(m: Pick<GambleModel, "history" | "historyLength">): HTMLElement {
  const el = h("div", { class: "gamble-history", "data-testid": "gamble-history", "data-cards": m.history.join(","), "aria-label": `Last ${m.historyLength} cards, oldest first` });
  el.style.setProperty("--cl-history", String(m.historyLength));
  if (!m.history.length) {
    const back = h("span", { class: "hcard back" });
    back.innerHTML = miniCardSvg(null); // our own drawing, never request data
    el.append(h("span", { class: "hcard-none", "data-testid": "gamble-history-none" }, back, HISTORY_NONE));
    return el;
  }
  m.history.forEach((c, i) => {
    const face = c === "red" ? "red" : "black";
    const card = h("span", { class: `hcard ${face}${i === m.history.length - 1 ? " newest" : ""}`, title: `${face} ace`, "data-colour": face });
    card.innerHTML = miniCardSvg(face);
    el.append(card);
  });
  return el;
}

/** The history's heading, only once a card has been turned: before, "LAST 14 CARDS" over "No
 * cards turned yet" read as a contradiction (a new player's playtest on a phone). */
function historyLabelEl(m: Pick<GambleModel, "history" | "historyLength">): HTMLElement {
  const el = h("span", { class: "label", "data-testid": "gamble-history-label" }, ...twoWays(historyLabel(m.historyLength)));
  el.hidden = !m.history.length;
  return el;
}

/** A suit's picture on RED or BLACK (card.ts's art). */
function suitEl(colour: "red" | "black"): HTMLElement {
  const el = h("span", { class: "suit-icon", "aria-hidden": "true" });
  el.innerHTML = suitIconSvg(colour); // our own drawing, never request data
  return el;
}

/** What the history says before any card has been turned. */
export const HISTORY_NONE = "No cards turned yet";

export function redBlackGamble(host: HTMLElement, round: RoundView, send: (kind: string, choice: StepChoice) => void, game: GameView, setWin: (credits: number) => void = () => {}): ChoiceScreen {
  const m = gambleModel(round);
  rememberHistory(round.game, round.choice?.state ? m.history : undefined);
  let pressed: string | null = null;
  const said = h("div", { class: "gamble-said", "data-testid": "gamble-result", role: "status" }, carriedSaid(round, m));
  const amountEl = h("span", { "data-testid": "gamble-amount", "data-amount": String(m.amount) }, atStake(m.amount, false));
  const buttons = m.buttons.map((b) => h("button", {
    class: `gamble-${b.choice}`, "data-testid": `gamble-${b.choice}`, "data-kind": "gamble", "data-choice": JSON.stringify(b.choice),
    disabled: !b.enabled,
    onclick: () => {
      pressed = b.choice;
      delete host.dataset.gambleResult;
      buttons.forEach((x) => ((x as HTMLButtonElement).disabled = true));
      send("gamble", b.choice);
    },
  }, ...(b.choice === "red" || b.choice === "black" ? [suitEl(b.choice)] : []), b.label));
  // RED and BLACK either side of the large card over the reels; the takes stay in the panel
  const overlay = host.closest("section.game")?.querySelector<HTMLElement>(".stage-overlay") ?? host;
  const table = gambleTable(overlay, buttons.slice(0, 2), "RED OR BLACK?");
  const buttonRow = h("div", { class: "gamble-buttons", "data-testid": "gamble-buttons" }, ...buttons.slice(2));
  const history = historyEl(m);
  const limitsSaid = (wins: number) => [
    m.maxWins !== null ? `WINS ${wins} of ${m.maxWins}` : "",
    m.limit !== null ? `ENDS AT ${formatCredits(m.limit)} CREDITS` : "",
  ].filter(Boolean).join(" · ");
  const limitsEl = h("span", { "data-testid": "gamble-limits" }, limitsSaid(m.wins));
  const panel = h("div", { class: "gamble", "data-testid": "gamble" },
    h("div", { class: "gamble-top" },
      h("div", { class: "gamble-table" },
        h("div", { class: "gamble-figures" },
          h("strong", { class: "gamble-title", "data-testid": "gamble-title" }, ...twoWays(TITLE)),
          amountEl,
          h("span", { class: "gamble-banked", "data-testid": "gamble-banked", "data-banked": String(m.banked), title: bankedSaid(m.banked) }, ...(m.banked ? twoWays({ wide: bankedSaid(m.banked), narrow: bankedShort(m.banked) }) : [])),
          limitsEl,
          said)),
      buttonRow),
    h("div", { class: "gamble-history-row" }, historyLabelEl(m), history));
  host.append(panel);
  // the table over the reels goes with the panel (the shell clears the panel for the next step
  // and when the gamble ends)
  const gone = new MutationObserver(() => { if (!panel.isConnected) { table.remove(); gone.disconnect(); } });
  gone.observe(host, { childList: true });
  (buttons.find((b) => !b.disabled) as HTMLButtonElement | undefined)?.focus();
  return {
    async answered(next) {
      const r = revealOf(next, m);
      if (!r || !pressed) return;
      const fast = game.jurisdiction.turbo && !!document.querySelector<HTMLInputElement>("[data-testid=turbo]")?.checked;
      host.dataset.gambleResult = r.card ? `${r.card}:${r.won ? "won" : "lost"}` : String(pressed);
      rememberHistory(round.game, r.history);
      const show = revealShow(r, m.amount, m);
      // the table says the result as the card over the reels says it (the playtest read the old
      // amount and the buttons under LOST): the figure at stake, the words, no buttons once over
      const after = tableAfter(r, show);
      const settle = () => {
        said.textContent = after.said;
        amountEl.dataset.amount = String(after.amount);
        amountEl.textContent = after.stake;
        limitsEl.textContent = limitsSaid(r.wins);
        // (kept in the layout: the panel keeps its height, the reels above it still)
        if (after.over) buttonRow.dataset.over = "";
      };
      if (show) {
        // the large card turns over the reels; the panel says it with the result (the WIN meter
        // takes the step's amount, the server's state, then too)
        const still = reducedMotion();
        await turnCard(table, show, { fast, still, onResult: () => { setWin(r.amount); settle(); } });
      }
      settle();
      // a gamble that ended closes its panel next: the table shows its card and words first
      const hold = show ? tableHold({ fast, finished: r.finished }) : 0;
      if (hold) await sleep(hold);
      else if (!show) await sleep(fast ? 350 : 600);
    },
    summary: (next) => gambleSummary(next, m),
  };
}

/** What the table says once a step's result shows (`show`: the card turned over the reels, null
 * for TAKE HALF or COLLECT): the words (a lost card says what it took), the credits at stake
 * (the server's: none after a lost or ended gamble) and whether the gamble is over (its buttons
 * go: nothing is left to press). */
export function tableAfter(r: Reveal, show: RevealShow | null): { said: string; amount: number; stake: string; over: boolean } {
  return {
    said: show && !show.won ? `${show.card.toUpperCase()} ACE: ${formatCredits(show.amount)} credits lost` : r.text,
    amount: r.amount,
    stake: atStake(r.amount, r.finished),
    over: r.finished,
  };
}

/** The table's figure: the credits at stake and what a right guess makes of them, said as the
 * sheet's double or nothing ("GAMBLE 10 TO WIN 20"; the playtest read "WIN 10 at stake" as
 * odd), or nothing once the gamble has ended. The staked credits are the WIN meter's; the
 * banked half (bankedSaid) is apart from both, in the balance already (the playtest after TAKE HALF: WIN 200, "200 credits at stake" and "200
 * banked" side by side, nothing saying which was which). */
export function atStake(amount: number, finished: boolean): string {
  return finished || amount <= 0 ? "Nothing left at stake" : `GAMBLE ${formatCredits(amount)} TO WIN ${formatCredits(amount * 2)}`;
}

/** The banked half as a phone says it, on the title's row: the panel keeps its height at TAKE
 * HALF (the playtest at 390x844: a line more, the feature plaques gone and the words jumped). */
export function bankedShort(banked: number): string {
  return banked ? `+${formatCredits(banked)} BANKED` : "";
}

/** The banked half: paid to the balance at TAKE HALF, not in WIN and not at stake. */
export function bankedSaid(banked: number): string {
  return banked ? `+ ${formatCredits(banked)} banked: already paid to your balance` : "";
}

/** The module's choice screen: the offer (GAMBLE, COLLECT; game/gamble-offer.ts) until the
 * player gambles or a step has been taken, then the red/black cards. */
export function cluedoChoices(host: HTMLElement, round: RoundView, send: (kind: string, choice: StepChoice) => void, game: GameView, setWin: (credits: number) => void = () => {}): ChoiceScreen | void {
  const active = round.choice?.active ?? Object.keys(round.choice?.choices ?? {})[0];
  if (active !== "gamble") return;
  return offerFirst(host, round, "gamble", isGuess, OFFER_WORDS, send, () => redBlackGamble(host, round, send, game, setWin));
}
