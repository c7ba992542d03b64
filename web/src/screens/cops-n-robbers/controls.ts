// Cops n Robbers' bet controls: the STAKE selector (the server's stakes, 10 lines x 1..50 per
// line, with arrows) and the Fortune Spins switch (the alternative base game at the price the
// server's mode gives), and TOTAL BET: what a spin debits, the bet option's `cost_minor` for
// the mode, with the stake and the Fortune Spins part under it. Only what the server offers
// can be chosen.
import { formatMoney, formatPercent } from "../../core/money";
import type { BetOption, GameView } from "../../net/types";
import { h } from "../../ui/dom";
import type { BetControls } from "../game/registry";

/** What one spin costs at a stake, in the server's own prices (`cost_minor` per mode, minor
 * units): the total debited, the stake, and the part the mode adds (Fortune Spins: its price
 * is 2 stakes, so it adds one stake). */
export function spinCost(bet: Pick<BetOption, "cost_minor" | "stake_credits" | "lines">, mode: string, denomination: number): { total: number; stake: number; extra: number; lines: number } | null {
  const total = bet.cost_minor[mode], stake = bet.stake_credits * denomination;
  if (total === undefined) return null;
  return { total, stake, extra: total - stake, lines: bet.lines };
}

/** The line under TOTAL BET: where the total comes from. */
export function costLine(cost: { stake: number; extra: number; lines: number }, modeTitle: string, money: (minor: number) => string): string {
  return cost.extra > 0 ? `${money(cost.stake)} stake + ${money(cost.extra)} ${modeTitle}` : `${money(cost.stake)} stake on ${cost.lines} lines`;
}

/** The Fortune Spins switch's tooltip: what a spin costs with them on (`total`, in money;
 * `price`, the mode's price in stakes, the game file's 2) and what they give, in the rule
 * sheet's words (the robber collects the presents' cash). The sheet says nothing of the cost;
 * "+€0.10 a spin" read as a fee on top of an unknown price. */
export function fortuneNote(total: string, price: number | string): string {
  const times = String(price) === "2" ? "twice the stake" : `${price} times the stake`;
  return `Costs ${times}: ${total} a spin\nrobbers collect the presents' cash`;
}

/** What the rule sheet calls the alternative base game. */
export const FORTUNE_SPINS = "Fortune Spins";

export function copsBetControls(controls: BetControls, game: GameView): HTMLElement {
  const fortune = controls.modes.find((m) => m.name !== "base");
  const money = (minor: number) => formatMoney(minor, game.currency);
  const stake = h("select", { "aria-label": "Stake", "data-testid": "stake" });
  controls.bets.forEach((b, i) => stake.append(h("option", { value: String(i) }, money(b.stake_credits * game.denomination))));
  const minus = h("button", { "aria-label": "Lower stake", "data-testid": "stake-minus" }, "−");
  const plus = h("button", { "aria-label": "Raise stake", "data-testid": "stake-plus" }, "+");
  const index = () => controls.bets.indexOf(controls.selected());
  const pick = (i: number) => { const b = controls.bets[i]; if (b) controls.select(b); };
  stake.addEventListener("change", () => pick(Number(stake.value)));
  minus.addEventListener("click", () => pick(index() - 1));
  plus.addEventListener("click", () => pick(index() + 1));
  // the seed's name for the mode (the server's mode title is the game file's short "fortune")
  const fortuneTitle = fortune ? FORTUNE_SPINS : "";
  // One short label in the console (the design review: three lines of its rules sat there): the
  // switch names the mode, its state and its RTP; what it costs and gives is the info page's
  // (help.md, Fortune Spins), the switch's tooltip and its accessible name.
  const fortuneRtp = fortune ? game.rtp.find((r) => r.mode === fortune.name) : undefined;
  const toggle = fortune ? h("button", { role: "switch", "aria-checked": "false", "data-testid": "fortune-switch", class: "fortune-switch", title: `${fortuneTitle}: with them on, a round costs ${fortune.price}x your stake` }, "") : null;
  toggle?.addEventListener("click", () => { controls.selectMode(controls.mode() === "base" ? (fortune?.name ?? "base") : "base"); });
  // The total each spin debits, the one amount to read; under it, the stake and what Fortune
  // Spins add (a new player read the stake beside the switch's price as two prices).
  const total = h("output", { class: "cops-total", "data-testid": "cops-total" });
  const breakdown = h("span", { class: "cops-cost", "data-testid": "cops-cost" });
  const update = () => {
    const i = index();
    stake.value = String(i);
    stake.disabled = !controls.enabled();
    minus.disabled = !controls.enabled() || i <= 0;
    plus.disabled = !controls.enabled() || i >= controls.bets.length - 1;
    const cost = spinCost(controls.selected(), controls.mode(), game.denomination);
    total.textContent = cost ? money(cost.total) : "—";
    breakdown.textContent = cost ? costLine(cost, fortuneTitle, money) : "";
    if (toggle && fortune) {
      const on = controls.mode() === fortune.name;
      toggle.setAttribute("aria-checked", String(on));
      toggle.disabled = !controls.enabled();
      const withFortune = spinCost(controls.selected(), fortune.name, game.denomination);
      const extra = withFortune?.extra;
      // the switch says its state alone; the line under it what being on costs and gives, the
      // same words either way ("OFF €0.10 more when on" in the switch read cramped and cryptic)
      toggle.replaceChildren(h("span", { class: "fortune-name" }, fortuneTitle.toUpperCase()), " ", h("b", { class: "fortune-state" }, on ? "ON" : "OFF"));
      if (withFortune) toggle.title = fortuneNote(money(withFortune.total), fortune.price).replace("\n", "; ");
      toggle.setAttribute("aria-label", `${fortuneTitle} ${on ? "on" : "off"}${fortuneRtp ? `, RTP ${formatPercent(fortuneRtp.value)}` : ""}${extra !== undefined ? `: each spin costs ${money(withFortune?.total ?? 0)}, ${money(extra)} more` : ""}`);
    }
  };
  controls.onChange(update);
  update();
  return h("div", { class: "cops-bet", role: "group", "aria-label": "Stake and Fortune Spins" },
    h("div", { class: "field" }, h("span", { class: "label" }, "STAKE"), h("span", {}, minus, " ", stake, " ", plus)),
    toggle ? h("div", { class: "field fortune-field", "data-testid": "fortune-field" }, toggle,
      ...(fortuneRtp ? [h("small", { class: "fortune-rtp", "data-testid": "fortune-rtp", title: `${fortuneTitle}' return to player` }, `RTP ${formatPercent(fortuneRtp.value)}`)] : [])) : "",
    h("div", { class: "field cops-total-field" }, h("span", { class: "label" }, "TOTAL BET"), total, breakdown));
}
