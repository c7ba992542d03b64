// The information page of a game, generated from its game file as the server describes it:
// RTP and maximum win, the paytable in credits at the chosen bet, paylines, scatter, wilds,
// free games, the jackpot rule. Game modules may add their own rules text later.
import { formatCredits, formatMoney, formatPercent } from "../../core/money";
import type { GameView } from "../../net/types";
import { clear, h } from "../../ui/dom";
import type { AppContext, Screen } from "../context";
import { recallBet } from "./current-bet";

/** A pay as credits at a bet: line pays x bet per line, cluster pays x coin value. */
export function paysAt(game: GameView, pay: number, bet: { lines: number; bet_per_line: number }): number {
  return pay * bet.bet_per_line;
}

export async function mountInfo(host: HTMLElement, app: AppContext, key: string): Promise<Screen> {
  const game = (await app.games()).find((g) => g.key === key);
  clear(host);
  if (!game) {
    host.append(h("p", { class: "page" }, `No game ${key}.`));
    return { destroy() {} };
  }
  const bets = [...game.bets].sort((a, b) => a.stake_credits - b.stake_credits);
  const betSelect = h("select", { "aria-label": "Bet for the paytable", "data-testid": "info-bet" });
  bets.forEach((b, i) => betSelect.append(h("option", { value: String(i) }, `${b.stake_credits} credits (${b.lines} x ${b.bet_per_line})`)));
  // the bet selected in this tab's game screen (the current bet), else the game's default
  const chosen = recallBet(sessionStorage, key);
  const at = (w: { lines: number; bet_per_line: number } | null) => (w ? bets.findIndex((b) => b.lines === w.lines && b.bet_per_line === w.bet_per_line) : -1);
  const current = at(chosen);
  betSelect.value = String(current >= 0 ? current : Math.max(0, at(game.default_bet)));
  const tableHost = h("div", { "data-testid": "paytable" });
  const names = Object.fromEntries(game.info.symbols.map((s) => [s.id, s.name]));
  const draw = () => {
    const b = bets[Number(betSelect.value)] ?? bets[0];
    clear(tableHost);
    if (!b) return;
    const counts = [...new Set(game.info.pays.table.flatMap((r) => r.pays.map(([c]) => c)))].sort((x, y) => x - y);
    tableHost.append(h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Symbol"), ...counts.map((c) => h("th", {}, game.info.pays.unit === "coin" ? `${c}+` : `${c}x`)))),
      h("tbody", {}, ...game.info.pays.table.map((row) => h("tr", {}, h("td", {}, names[row.symbol] ?? row.symbol),
        ...counts.map((c) => { const p = row.pays.find(([n]) => n === c); return h("td", {}, p ? formatCredits(paysAt(game, p[1], b)) : ""); }))))));
    for (const m of game.info.pays.mixed ?? []) tableHost.append(h("p", {}, `${m.name} (${m.symbols.map((s) => names[s] ?? s).join(", ")}, any mix): `, m.pays.map(([c, p]) => `${c}x = ${formatCredits(paysAt(game, p, b))}`).join(", ")));
    for (const s of game.info.scatters ?? []) if (s.pays.length) tableHost.append(h("p", {}, `${names[s.symbol] ?? s.symbol} (scatter, by ${s.counting}): `, s.pays.map(([c, p]) => `${c} = ${formatCredits(p * b.stake_credits)}`).join(", ")));
    if (game.info.pays.unit === "coin") tableHost.append(h("p", {}, `A cluster of n pays the column of the largest size listed up to n (coins x the coin value of ${b.bet_per_line}).`));
    tableHost.append(h("p", { "data-testid": "paytable-bet" }, `Pays in credits at a bet of ${formatCredits(b.stake_credits)} credits (${formatMoney(b.stake_credits * game.denomination, game.currency)}).`));
  };
  betSelect.addEventListener("change", draw);
  const i = game.info;
  const rules: string[] = [];
  const rtpOf = (mode: string) => game.rtp.find((r) => r.mode === mode);
  if (i.paylines) rules.push(`${i.paylines.length} paylines, paying left to right.`);
  if (i.min_cluster) rules.push(`Clusters of ${i.min_cluster} or more symbols connected horizontally or vertically pay.`);
  for (const w of i.wilds ?? []) rules.push(`${names[w.symbol] ?? w.symbol} is wild, substituting for all symbols except ${w.substitutes_all_but.map((s) => names[s] ?? s).join(", ")}${w.multiplier > 1 ? `, and multiplies the line win by ${w.multiplier}` : ""}.`);
  if (i.free_games) {
    const trigger = names[i.free_games.trigger] ?? i.free_games.trigger;
    const award = i.free_games.award.map(([c, n]) => `${c} ${trigger}: ${n} free spins`).join("; ");
    rules.push(`Free spins: ${award}; free-spin wins x${i.free_games.multiplier}, at most ${i.free_games.max_total_spins} free spins in a round.`);
  }
  if (i.progressive_jackpot) rules.push(`${i.progressive_jackpot.count} ${names[i.progressive_jackpot.symbol] ?? i.progressive_jackpot.symbol} on line ${i.progressive_jackpot.line}${i.progressive_jackpot.requires_max_bet ? " at the maximum bet" : ""} win the progressive jackpot.`);
  if (game.modes.length > 1) for (const m of game.modes) rules.push(`${m.title}: the stake costs x${m.price}, RTP ${formatPercent(rtpOf(m.name)?.value ?? NaN)}.`);
  if (i.max_win_x) rules.push(`A round wins at most ${i.max_win_x.toLocaleString("en")}x the stake.`);
  if (game.win_cap_minor) rules.push(`A round pays at most ${formatMoney(game.win_cap_minor, game.currency)}.`);
  host.append(h("section", { class: "page", "data-testid": "info" }, h("h1", {}, `${game.title}: information`),
    h("p", {}, i.description),
    h("p", {}, "RTP: ", game.rtp.map((r) => `${formatPercent(r.value)} (${r.mode}, ${r.source}${r.ci95 ? ` ±${formatPercent(r.ci95, 3)}` : ""})`).join(", ")),
    h("p", {}, `Maximum win: ${formatCredits(game.max_win.credits)} credits, ${game.max_win.x.toLocaleString("en")}x the stake (${game.max_win.enforced}).`),
    h("h2", {}, "Rules"), h("ul", {}, ...rules.map((r) => h("li", {}, r))),
    h("h2", {}, "Paytable"), h("p", {}, h("label", {}, "Bet ", betSelect)), tableHost,
    h("p", {}, h("a", { href: `#/game/${key}` }, `Play ${game.title}`))));
  draw();
  return { destroy() {} };
}
