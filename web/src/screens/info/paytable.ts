// The paytable at a bet the player picks: one card per paying symbol (its own art, each count's
// award in credits and in the game's currency), the mixed pays, the scatter pays and the special
// symbols. The awards are the description's pays times the bet (line pays x bet per line,
// cluster pays x coin value, scatter pays x the total bet): nothing else is computed here.
import { formatCredits, formatMoney } from "../../core/money";
import type { BetOption, GameView } from "../../net/types";
import { clear, h } from "../../ui/dom";

export interface PaytableBet { lines: number; bet_per_line: number }

/** A pay as credits at a bet: line and cluster pays x the bet per line (coin value); scatter
 * pays x the total bet. */
export function payCredits(pay: number, unit: "line" | "stake", bet: BetOption): number {
  return unit === "stake" ? pay * bet.stake_credits : pay * bet.bet_per_line;
}

/** The labels of a cluster table's columns: a size pays up to the next listed size; the last
 * up to the whole grid. */
export function clusterLabels(sizes: readonly number[], cells: number): string[] {
  return sizes.map((s, i) => {
    const next = sizes[i + 1];
    const top = next === undefined ? cells : next - 1;
    return top > s ? `${s}–${top}` : String(s);
  });
}

const unique = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);

/** The compact bet picker (lines, when the game lets them vary, and the bet per line or coin
 * value) over the server's bets, and the cards drawn at the bet picked. */
/** The paytable in the words of the game's console: `credits` where its own bet controls show
 * the bet in credits and money only (Candy Jar's: a new player read "coins" and "coin value"
 * here and credits everywhere else), so the picker offers the bet in credits and the caption
 * names no coins; the generic console's bet list names a coin game's coins (bet-words.ts), and
 * so does its paytable. */
export function paytable(game: GameView, images: Map<string, string>, initial: PaytableBet | null, notes: Record<string, string> = {}, words: "coins" | "credits" = "coins"): HTMLElement {
  const bets = [...game.bets].sort((a, b) => a.stake_credits - b.stake_credits);
  const coin = game.info.pays.unit === "coin";
  const credits = coin && words === "credits" && new Set(bets.map((b) => b.lines)).size === 1;
  const perWay = game.info.pays.per === "way";
  const perCount = game.info.pays.per === "count"; // pays anywhere: a count of cells anywhere
  const money = (credits: number) => formatMoney(credits * game.denomination, game.currency);
  const offered = (lines: number, perLine: number) => bets.find((b) => b.lines === lines && b.bet_per_line === perLine);
  const lineValues = unique(bets.map((b) => b.lines));
  const perLineValues = unique(bets.map((b) => b.bet_per_line));
  let bet = (initial && offered(initial.lines, initial.bet_per_line)) ?? (game.default_bet && offered(game.default_bet.lines, game.default_bet.bet_per_line)) ?? bets[0];

  const linesSelect = h("select", { "data-testid": "info-lines", id: "info-lines" });
  for (const l of lineValues) linesSelect.append(h("option", { value: String(l) }, String(l)));
  const perLineSelect = h("select", { "data-testid": "info-bet-per-line", id: "info-bet-per-line" });
  // in credits: each coin value as the bet it makes (the one number of coins times it)
  for (const v of perLineValues) perLineSelect.append(h("option", { value: String(v) }, credits ? `${formatCredits(v * (lineValues[0] ?? 1))} credits` : String(v)));
  const caption = h("p", { class: "info-bet-caption", "data-testid": "paytable-bet", "aria-live": "polite" });
  const picker = h("div", { class: "info-bet", role: "group", "aria-label": "Bet for the paytable", "data-testid": "info-bet" },
    lineValues.length > 1 ? h("label", { for: "info-lines" }, "Lines ", linesSelect) : null,
    h("label", { for: "info-bet-per-line" }, credits ? "Bet " : coin ? "Coin value " : "Bet per line ", perLineSelect),
    caption);
  const cards = h("div", { class: "info-pays" });
  const host = h("div", { class: "info-paytable", "data-testid": "paytable" }, picker, cards);
  if (!bet) {
    host.replaceChildren(h("p", {}, "No bet is offered to you in this game."));
    return host;
  }

  const names = Object.fromEntries(game.info.symbols.map((s) => [s.id, s.name]));
  const picture = (id: string) => {
    const src = images.get(id);
    return src ? h("img", { class: "info-symbol", src, alt: names[id] ?? id, width: 56, height: 56, "data-symbol": id }) : h("span", { class: "info-symbol info-symbol-missing", "data-symbol": id }, names[id] ?? id);
  };
  const rows = (entries: { label: string; credits: number }[], head?: [string, string]) =>
    h("table", { class: "info-pay-rows" }, head ? h("thead", {}, h("tr", {}, h("th", { scope: "col" }, head[0]), h("th", { scope: "col" }, head[1]))) : null, h("tbody", {}, ...entries.map((e) =>
      h("tr", { "data-count": e.label, "data-credits": String(e.credits) }, h("th", { scope: "row" }, e.label),
        h("td", {}, h("span", { class: "credits" }, formatCredits(e.credits)), h("span", { class: "money" }, money(e.credits)))))));
  const card = (testid: string, symbols: string[], title: string, body: HTMLElement, note?: string) =>
    h("li", { class: "info-pay", "data-testid": testid, "data-symbol": symbols.join(" ") },
      h("div", { class: "info-pay-head" }, h("span", { class: "info-pay-symbols" }, ...symbols.map(picture)), h("strong", {}, title)),
      note ? h("p", { class: "info-pay-note" }, note) : null, body);

  const draw = () => {
    const b = bet as BetOption;
    linesSelect.value = String(b.lines);
    perLineSelect.value = String(b.bet_per_line);
    for (const o of perLineSelect.options) o.disabled = !offered(b.lines, Number(o.value));
    caption.textContent = `Pays at a bet of ${formatCredits(b.stake_credits)} credits (${money(b.stake_credits)})` +
      (credits ? "." : coin ? `: ${b.lines} coins of ${formatCredits(b.bet_per_line)} credit${b.bet_per_line === 1 ? "" : "s"}.` : `: ${formatCredits(b.bet_per_line)} per line on ${b.lines} line${b.lines === 1 ? "" : "s"}.`);
    const list = h("ul", { class: "info-pay-list" });
    const cells = game.info.window.reels * game.info.window.rows;
    for (const row of game.info.pays.table) {
      const counts = row.pays.map(([c]) => c);
      const labels = perWay ? counts.map((c) => `${c} reels`) : coin ? clusterLabels(counts, cells) : counts.map((c) => `${c} of a kind`);
      const entries = row.pays.map(([, p], i) => ({ label: labels[i] ?? "", credits: payCredits(p, "line", b) }));
      list.append(card("pay", [row.symbol], names[row.symbol] ?? row.symbol,
        perWay ? rows(entries.reverse(), ["From reel 1", "Pays per way"]) : coin ? rows(entries, [perCount ? "Anywhere" : "Cluster of", "Pays"]) : rows(entries.reverse())));
    }
    for (const m of game.info.pays.mixed ?? []) {
      const entries = m.pays.map(([c, p]) => ({ label: `${c} mixed`, credits: payCredits(p, "line", b) })).reverse();
      list.append(card("pay-mixed", m.symbols, `${m.symbols.map((s) => names[s] ?? s).join(", ")}, in any mix`, rows(entries)));
    }
    for (const s of game.info.scatters ?? []) {
      if (!s.pays.length) continue;
      const entries = s.pays.map(([c, p]) => ({ label: `${c} ${s.counting === "reels" ? "reels" : "anywhere"}`, credits: payCredits(p, "stake", b) })).reverse();
      list.append(card("pay-scatter", [s.symbol], `${names[s.symbol] ?? s.symbol}, anywhere`, rows(entries), "Pays in multiples of the total bet, on any lines."));
    }
    clear(cards);
    cards.append(list);
    // The symbols without a pay of their own (wilds, scatters and bonus symbols), to know them by,
    // and a special one with pays where the game says what it does (notes): a wild's pay card
    // above does not say it is wild.
    const shown = new Set([...game.info.pays.table.map((r) => r.symbol), ...(game.info.pays.mixed ?? []).flatMap((m) => m.symbols), ...(game.info.scatters ?? []).filter((s) => s.pays.length).map((s) => s.symbol)]);
    const special = game.info.symbols.filter((s) => s.role !== "regular" && (!shown.has(s.id) || notes[s.id]));
    if (special.length)
      cards.append(h("h3", {}, "Special symbols"), h("ul", { class: `info-special${special.some((s) => notes[s.id]) ? " with-notes" : ""}`, "data-testid": "special-symbols" },
        ...special.map((s) => h("li", { "data-symbol": s.id }, picture(s.id),
          notes[s.id] ? h("span", {}, h("strong", {}, s.name), h("span", { class: "info-special-note", "data-testid": "special-note" }, notes[s.id])) : h("span", {}, s.name)))));
  };
  const choose = (lines: number, perLine: number) => {
    const exact = offered(lines, perLine);
    const near = bets.filter((x) => x.lines === lines).sort((x, y) => Math.abs(x.bet_per_line - perLine) - Math.abs(y.bet_per_line - perLine))[0];
    bet = exact ?? near ?? bet;
    draw();
  };
  linesSelect.addEventListener("change", () => choose(Number(linesSelect.value), (bet as BetOption).bet_per_line));
  perLineSelect.addEventListener("change", () => choose((bet as BetOption).lines, Number(perLineSelect.value)));
  draw();
  return host;
}
