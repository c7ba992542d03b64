// The lobby (/): the games this session may play, named, with RTP and maximum win as the
// server reports them, the balance, and the launch into each game. Without a session: the demo
// operators' launch (the server's /demo signs a launch token and sends the browser to /play).
import { formatCredits, formatMoney, formatPercent } from "../../core/money";
import { clear, h } from "../../ui/dom";
import type { AppContext, Screen } from "../context";

export const DEMO_OPERATORS = [
  { id: "demo", label: "Demo (no restrictions, EUR)" },
  { id: "demo-gb", label: "Demo, GB licence (GBP)" },
  { id: "demo-de", label: "Demo, DE licence (EUR)" },
];

export function mountWelcome(host: HTMLElement): Screen {
  clear(host);
  host.append(h("section", { class: "page", "data-testid": "welcome" }, h("h1", {}, "reelforge"),
    h("p", {}, "No session in this tab. Start a demo player:"),
    h("ul", {}, ...DEMO_OPERATORS.map((o) => h("li", {}, h("a", { href: `/demo?operator=${o.id}`, "data-testid": `demo-${o.id}` }, o.label))))));
  return { destroy() {} };
}

export async function mountLobby(host: HTMLElement, app: AppContext): Promise<Screen> {
  host.append(h("p", { class: "page", role: "status" }, "Loading the games…"));
  const games = await app.games();
  const s = app.session.state;
  clear(host);
  const list = h("div", { class: "lobby", "data-testid": "lobby" });
  for (const g of games) {
    const rtp = g.rtp.map((r) => `${formatPercent(r.value)}${r.mode !== "base" ? ` (${r.mode})` : ""}${r.source === "estimate" ? " est." : ""}`).join(", ");
    const top = g.bets[g.bets.length - 1];
    list.append(h("article", { class: "card", "data-testid": `lobby-${g.key}` },
      h("h2", {}, g.title),
      h("p", {}, g.info.description),
      h("p", {}, "RTP: ", h("strong", { "data-testid": "lobby-rtp" }, rtp || "—")),
      h("p", {}, "Max win: ", h("strong", { "data-testid": "lobby-maxwin" }, `${formatCredits(g.max_win.credits)} credits (${g.max_win.x.toLocaleString("en")}x stake${top ? `, ${formatMoney(g.max_win.credits * g.denomination, g.currency)} at the top bet` : ""})`)),
      h("p", {}, h("a", { href: `#/game/${g.key}`, class: "launch", "data-testid": `launch-${g.key}` }, `Play ${g.title}`), " · ",
        h("a", { href: `#/info/${g.key}` }, "Information"))));
  }
  host.append(h("section", { class: "page" }, h("h1", {}, "Lobby"),
    h("p", {}, "Balance: ", h("strong", { class: "balance", "data-testid": "lobby-balance" }, s ? formatMoney(s.balanceMinor, s.currency) : "—"),
      s ? ` · player ${s.player} · ${s.jurisdiction.name} rules` : "")), list);
  return { destroy() {} };
}
