// Candy Jar's bet controls, as the seed has them: a minus and a plus button change the bet,
// and the bet value opens the bet menu (every stake the server offers, £0.20 to £4.00 in the
// shipped game); the BET label shows the total bet in currency. The balance in credits is the
// console's own CREDITS field (a second CREDIT field beside it read as two different numbers).
// Only offered bets can be chosen, and nothing changes while a round plays.
import { formatCredits, formatMoney } from "../../core/money";
import type { BetOption, GameView } from "../../net/types";
import { h } from "../../ui/dom";
import type { BetControls } from "../game/registry";

export function candyBetControls(controls: BetControls, game: GameView): HTMLElement {
  const bets = controls.bets;
  const cost = (b: BetOption) => b.cost_minor.base ?? Object.values(b.cost_minor)[0] ?? 0;
  const label = (b: BetOption) => formatMoney(cost(b), game.currency);
  const index = () => bets.indexOf(controls.selected());
  const minus = h("button", { "aria-label": "Lower bet", "data-testid": "candy-bet-minus" }, "−");
  const plus = h("button", { "aria-label": "Raise bet", "data-testid": "candy-bet-plus" }, "+");
  const value = h("button", { class: "value", "aria-haspopup": "true", "aria-expanded": "false", "aria-label": "Bet menu", "data-testid": "candy-bet-value" });
  const menu = h("div", { class: "menu", role: "menu", "aria-label": "Bets", "data-testid": "candy-bet-menu", hidden: true });
  const choose = (b: BetOption | undefined) => { if (b) controls.select({ lines: b.lines, bet_per_line: b.bet_per_line }); };
  const close = () => { menu.hidden = true; value.setAttribute("aria-expanded", "false"); };
  const buttons = bets.map((b) => {
    const button = h("button", { role: "menuitemradio", "data-stake": String(b.stake_credits), title: `${formatCredits(b.stake_credits)} credits` }, label(b));
    button.addEventListener("click", () => { choose(b); close(); value.focus(); });
    menu.append(button);
    return button;
  });
  minus.addEventListener("click", () => choose(bets[index() - 1]));
  plus.addEventListener("click", () => choose(bets[index() + 1]));
  value.addEventListener("click", () => {
    menu.hidden = !menu.hidden;
    value.setAttribute("aria-expanded", String(!menu.hidden));
    if (!menu.hidden) (buttons[index()] ?? buttons[0])?.focus();
  });
  menu.addEventListener("keydown", (e) => { if (e.key === "Escape") { close(); value.focus(); } });
  const update = () => {
    const i = index();
    const on = controls.enabled();
    value.textContent = bets[i] ? label(bets[i]) : "—";
    value.disabled = !on;
    minus.disabled = !on || i <= 0;
    plus.disabled = !on || i >= bets.length - 1;
    if (!on) close();
    buttons.forEach((b, j) => { b.setAttribute("aria-pressed", String(j === i)); b.disabled = !on; });
  };
  controls.onChange(update);
  update();
  return h("div", { class: "field" }, h("span", { class: "label" }, "Bet"), h("div", { class: "candy-bet", role: "group", "aria-label": "Bet" }, minus, value, plus, menu));
}
