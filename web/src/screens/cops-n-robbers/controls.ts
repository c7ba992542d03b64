// Cops n Robbers' bet controls: the STAKE selector (the server's stakes, 10 lines x 1..50 per
// line, with arrows) and the Fortune Spins switch (the alternative base game at the price the
// server's mode gives). Only what the server offers can be chosen; the price shown is the
// bet option's `cost_minor` for the mode.
import { formatMoney } from "../../core/money";
import type { GameView } from "../../net/types";
import { h } from "../../ui/dom";
import type { BetControls } from "../game/registry";

export function copsBetControls(controls: BetControls, game: GameView): HTMLElement {
  const fortune = controls.modes.find((m) => m.name !== "base");
  const stake = h("select", { "aria-label": "Stake", "data-testid": "stake" });
  controls.bets.forEach((b, i) => stake.append(h("option", { value: String(i) }, formatMoney(b.stake_credits * game.denomination, game.currency))));
  const minus = h("button", { "aria-label": "Lower stake", "data-testid": "stake-minus" }, "−");
  const plus = h("button", { "aria-label": "Raise stake", "data-testid": "stake-plus" }, "+");
  const index = () => controls.bets.indexOf(controls.selected());
  const pick = (i: number) => { const b = controls.bets[i]; if (b) controls.select(b); };
  stake.addEventListener("change", () => pick(Number(stake.value)));
  minus.addEventListener("click", () => pick(index() - 1));
  plus.addEventListener("click", () => pick(index() + 1));
  const toggle = fortune ? h("button", { role: "switch", "aria-checked": "false", "data-testid": "fortune-switch", class: "fortune-switch", title: `${fortune.title}: x${fortune.price} stake` }, "") : null;
  toggle?.addEventListener("click", () => { controls.selectMode(controls.mode() === "base" ? (fortune?.name ?? "base") : "base"); });
  const update = () => {
    const i = index();
    stake.value = String(i);
    stake.disabled = !controls.enabled();
    minus.disabled = !controls.enabled() || i <= 0;
    plus.disabled = !controls.enabled() || i >= controls.bets.length - 1;
    if (toggle && fortune) {
      const on = controls.mode() === fortune.name;
      toggle.setAttribute("aria-checked", String(on));
      toggle.disabled = !controls.enabled();
      const cost = controls.selected().cost_minor[fortune.name];
      toggle.textContent = `FORTUNE SPINS ${on ? "ON" : "OFF"}${cost !== undefined ? ` (${formatMoney(cost, game.currency)})` : ""}`;
    }
  };
  controls.onChange(update);
  update();
  return h("div", { class: "cops-bet", role: "group", "aria-label": "Stake and Fortune Spins" },
    h("div", { class: "field" }, h("span", { class: "label" }, "STAKE"), h("span", {}, minus, " ", stake, " ", plus)),
    toggle ? h("div", { class: "field" }, h("span", { class: "label" }, "FORTUNE SPINS"), toggle) : "");
}
