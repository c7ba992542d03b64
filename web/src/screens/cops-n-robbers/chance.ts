// Spin Chance (the rule sheet's SPIN CHANCE): a round has left the balance above zero but under
// the price of a spin, and the player may stake what is left on one spin at the current bet.
// A feature moment, not a form: what it is in a sentence, the chance in words and on the
// gamble's candy-cane wheel (green the credit's share of the price, the ratio the server draws
// with), one PLAY and one NO THANKS. The pointer stops where the server's draw fell.
import { formatCredits, formatMoney } from "../../core/money";
import { reducedMotion, showMoment } from "../../ui/moment";
import { h } from "../../ui/dom";
import type { GameView, RoundView, StepChoice } from "../../net/types";
import type { ChoiceScreen } from "../game/registry";
import { chanceWords, lastResult, segmentWords, skipper, Wheel } from "./wheel";
import { SPIN_MS } from "./wheel-spin";

/** What the Spin Chance panel says, in the rule sheet's terms: `credit` is what is left, `price`
 * the price of a spin at the current bet (credits); `money` shows credits in the currency. */
export function spinChanceText(credit: number, price: number, money: (credits: number) => string): { lead: string; ask: string; green: string; red: string; odds: string; exact: string; keep: string } {
  if (!(credit > 0 && price > credit)) throw new Error(`Spin Chance: the credit left (${credit}) must lie between 0 and the price of a spin (${price})`);
  const c = `${formatCredits(credit)} credits (${money(credit)})`;
  const odds = chanceWords(credit / price);
  return {
    lead: `${c} left: not enough for a spin at your bet of ${formatCredits(price)} credits (${money(price)}).`,
    ask: `Stake them on the wheel for one spin at your bet?`,
    green: "Green: the spin plays at once",
    red: `Red: the ${formatCredits(credit)} credits are lost`,
    odds: `${odds.words} chance of green`,
    exact: `${odds.exact} chance of green: ${formatCredits(credit)} of ${formatCredits(price)}`,
    keep: `NO THANKS keeps your ${formatCredits(credit)} credits`,
  };
}

/** The result's moment: WIN and the spin that plays, or LOSE, what went and what is left. */
export function spinChanceResult(won: boolean, credit: number, price: number, balance: string): { title: string; lines: string[] } {
  if (won) return { title: "WIN", lines: [`A spin at ${formatCredits(price)} credits`, "It plays now"] };
  return { title: "LOSE", lines: [`−${formatCredits(credit)} credits`, `Balance ${balance}`] };
}

export function spinChance(host: HTMLElement, round: RoundView, send: (kind: string, choice: StepChoice) => void, game: GameView): ChoiceScreen {
  const offer = round.offers.find((o) => o.kind === "spin_chance");
  if (!offer) throw new Error(`round ${round.round_id}: a Spin Chance choice without its offer`);
  const credit = offer.amount, price = offer.stake;
  const money = (credits: number) => formatMoney(credits * offer.denomination, game.currency);
  const say = spinChanceText(credit, price, money);
  const share = credit / price;
  const wheel = new Wheel("spin-chance-meter", `Spin Chance wheel: ${say.exact}`);
  wheel.draw(share, segmentWords("chance", 0)); // its data-share: the exact ratio, before the floor a thin arc is drawn with
  const choices = (round.choice?.choices.spin_chance ?? []) as string[];
  let played = false;
  const buttons = choices.map((c) => h("button", {
    class: c === "play" ? "chance-play" : "chance-decline", "data-kind": "spin_chance", "data-choice": JSON.stringify(c), "data-testid": `spin-chance-${c}`,
    title: c === "play" ? `Spin the wheel: ${say.odds}` : say.keep,
    onclick: () => { played = c === "play"; delete host.dataset.meterResult; buttons.forEach((b) => (b.disabled = true)); send("spin_chance", c); },
  }, c === "play" ? "PLAY" : c === "decline" ? "NO THANKS" : c.toUpperCase()));
  const legend = h("div", { class: "chance-legend" },
    h("span", { class: "green" }, say.green), h("span", { class: "red" }, say.red),
    h("strong", { "data-testid": "spin-chance-odds", title: say.exact }, say.odds));
  const panel = h("div", { class: "spin-chance", "data-testid": "spin-chance" },
    h("strong", { class: "chance-title" }, "SPIN CHANCE"),
    h("p", { class: "chance-lead", "data-testid": "spin-chance-lead" }, say.lead, " ", h("b", {}, say.ask)),
    wheel.el, legend,
    h("div", { class: "chance-actions" }, ...buttons));
  host.append(panel);
  return {
    async answered(next) {
      if (!played) return;
      const s = lastResult(next)?.state as { draw: number | null; stake: number; won: boolean } | undefined;
      if (!s || s.draw === null) return;
      host.dataset.meterResult = s.won ? "green" : "red";
      panel.classList.add("spinning");
      const fast = game.jurisdiction.turbo && !!document.querySelector<HTMLInputElement>("[data-testid=turbo]")?.checked;
      const { skip, stop } = skipper(host);
      try {
        await wheel.spin(s.won, reducedMotion() ? 0 : fast ? SPIN_MS.fast : SPIN_MS.normal, skip);
      } finally {
        stop();
      }
      panel.classList.add(s.won ? "won" : "lost");
      const result = spinChanceResult(s.won, credit, price, formatMoney(next.balance_minor, game.currency));
      const overlay = host.closest("section.game")?.querySelector<HTMLElement>(".stage-overlay") ?? host;
      await showMoment(overlay, { title: result.title, lines: result.lines, kind: `gamble-result ${s.won ? "won" : "lost"}`, ms: 2200, fast });
    },
  };
}
