// The lobby (/): a tile per game this session may play, each game once (the gallery's reviewer
// saw Cluedo twice, as a hero banner and a tile), every tile as rich as the others: its poster
// (the game's scene and cast, poster.ts), its logo under it, a plaque (a progressive jackpot's
// live pool, else the game's headline from its module's card), PLAY and i; behind i the game in
// a player's words with its RTP and maximum win (tile.ts tileCard), over the tile. The tiles
// fill the screen: three columns on a desktop, three rows on a phone (the poster beside the
// logo), all three whole on the first screen. Without a session: the demo operators' launch
// (the server's /demo signs a launch token and sends the browser to /play).
import "./lobby.css";
import { gamePool } from "../../core/jackpot-meter";
import { formatMoney } from "../../core/money";
import { clear, h } from "../../ui/dom";
import type { GameView, MeterView } from "../../net/types";
import type { AppContext, Screen } from "../context";
import { logoTitleBox, pictureNamesGame, tileCard, type TileCard } from "./tile";
import { posterOf } from "./poster";
import { moduleFor } from "../game/registry";

export const DEMO_OPERATORS = [
  { id: "demo", label: "Demo (no restrictions, EUR)" },
  { id: "demo-gb", label: "Demo, GB licence (GBP)" },
  { id: "demo-de", label: "Demo, DE licence (EUR)" },
  { id: "demo-lab", label: "Game lab: the format's example games (EUR)" },
];

export function mountWelcome(host: HTMLElement): Screen {
  clear(host);
  host.append(h("section", { class: "page", "data-testid": "welcome" }, h("h1", {}, "reelforge"),
    h("p", {}, "No session in this tab. Start a demo player:"),
    h("ul", {}, ...DEMO_OPERATORS.map((o) => h("li", {}, h("a", { href: `/demo?operator=${o.id}`, "data-testid": `demo-${o.id}` }, o.label))))));
  return { destroy() {} };
}

/** How often the lobby reads the live jackpots again (the game screen's meter: 20 s). */
export const LOBBY_JACKPOT_MS = 20000;

/** The pool of `game`'s progressive jackpot among the server's meters (the game screen's
 * rule, core/jackpot-meter gamePool: its exact name, title and currency), or undefined. */
export function poolOf(game: Pick<GameView, "title" | "currency" | "jackpot">, meters: readonly MeterView[]): MeterView | undefined {
  return game.jackpot ? gamePool(game, meters) : undefined;
}

/** The plaque under a tile's logo: a progressive jackpot's live pool (shown by the returned
 * `show`, from the lobby's reads), else the module's headline; none for a game with neither. */
function plaqueOf(g: GameView, card: TileCard): { el: HTMLElement | null; show?: (pool: MeterView) => void } {
  if (g.jackpot) {
    const amount = h("output", { class: "plaque-value", "data-testid": "lobby-jackpot" });
    return {
      el: h("p", { class: "tile-plaque jackpot", "data-testid": "lobby-plaque" }, h("span", { class: "plaque-label" }, "Progressive jackpot"), amount),
      show: (pool) => { amount.textContent = formatMoney(pool.amount_minor, pool.currency); },
    };
  }
  const line = card.headline;
  return { el: line ? h("p", { class: "tile-plaque", "data-testid": "lobby-plaque" }, h("span", { class: "plaque-label" }, line.label), h("strong", { class: "plaque-value" }, line.value)) : null };
}

/** The info card over the tile, toggled by the tile's i: the pitch, then RTP and max win (on a
 * phone's short tile they show before any scrolling), then the features. */
function factsOf(g: GameView, card: TileCard): HTMLElement {
  return h("div", { class: "tile-facts", id: `facts-${g.key}`, "data-testid": "tile-facts", hidden: true },
    h("p", { class: "tile-pitch", "data-testid": "lobby-pitch" }, card.pitch),
    h("p", { class: "tile-figure" }, "RTP: ", h("strong", { "data-testid": "lobby-rtp" }, card.rtp), h("span", { class: "tile-figure-note" }, " return to player")),
    h("p", { class: "tile-figure" }, "Max win: ", h("strong", { "data-testid": "lobby-maxwin" }, card.maxWin.x), h("span", { class: "tile-figure-note" }, ` (${card.maxWin.detail})`)),
    ...(card.jackpot ? [h("p", { class: "tile-figure tile-jackpot-apart", "data-testid": "lobby-jackpot-apart" }, card.jackpot)] : []),
    ...(card.features.length ? [h("ul", { class: "tile-features", "data-testid": "lobby-features" }, ...card.features.map((f) => h("li", {}, f)))] : []),
    h("p", {}, h("a", { href: `#/info/${g.key}` }, "Rules, paytable and RTP")));
}

/** A game's tile: its poster, its logo under it (beside it on a phone), the plaque, PLAY and i.
 * Without a logo the picture names the game (a generic tile always does) and the heading keeps
 * the name for screen readers only. */
function tileOf(g: GameView): { el: HTMLElement; show?: (pool: MeterView) => void } {
  const module = moduleFor(g);
  const card = tileCard(g, module?.card?.(g));
  const picture = posterOf(g, module);
  const logo = module?.theme?.tile ? module.theme.logo : undefined;
  const named = !logo && (!module?.theme?.tile || pictureNamesGame([...picture.querySelectorAll("text")].map((t) => t.textContent ?? ""), g.title));
  const title = h("h2", { class: logo ? "has-logo" : named ? "named" : "" }, h("span", { class: "tile-title" }, g.title));
  if (logo) {
    // on a phone the logo's subtitle is cropped off (logoTitleBox): too small there to read
    const box = logoTitleBox(logo);
    const mark = h("span", { class: "logo", "aria-hidden": "true", ...(box ? { "data-crop": "subtitle", style: `--logo-w:${box.width};--logo-title:${box.title}` } : {}) });
    mark.innerHTML = logo;
    title.append(mark);
  }
  const facts = factsOf(g, card);
  const info = h("button", { class: "tile-info", type: "button", "aria-expanded": "false", "aria-controls": facts.id, "aria-label": `About ${g.title}: RTP and max win`, "data-testid": "tile-info" }, "i");
  const open = (on: boolean) => {
    facts.hidden = !on;
    info.setAttribute("aria-expanded", String(on));
  };
  info.addEventListener("click", () => open(facts.hidden));
  // the card covers the whole tile on a phone, its i too: it closes itself
  const close = h("button", { class: "tile-facts-close", type: "button", "aria-label": `Close the card about ${g.title}`, "data-testid": "tile-facts-close" }, "×");
  close.addEventListener("click", () => { open(false); info.focus(); });
  facts.prepend(close);
  const plaque = plaqueOf(g, card);
  const el = h("article", { class: "tile", "data-testid": `lobby-${g.key}` },
    h("a", { href: `#/game/${g.key}`, class: "tile-picture", tabindex: "-1", "aria-hidden": "true" }, picture),
    h("div", { class: "tile-body" }, title, ...(plaque.el ? [plaque.el] : []),
      h("div", { class: "tile-actions" },
        h("a", { href: `#/game/${g.key}`, class: "launch", "data-testid": `launch-${g.key}`, "aria-label": `Play ${g.title}` }, "PLAY"),
        info)),
    facts);
  return { el, ...(plaque.show ? { show: plaque.show } : {}) };
}

export async function mountLobby(host: HTMLElement, app: AppContext): Promise<Screen> {
  host.append(h("p", { class: "page", role: "status" }, "Loading the games…"));
  const games = await app.games();
  const s = app.session.state;
  clear(host);
  const list = h("div", { class: "lobby", "data-testid": "lobby", "data-count": String(games.length) });
  // each live jackpot shown: its game and how a read of its pool is shown (its tile's plaque)
  const meters: { game: GameView; show: (pool: MeterView) => void }[] = [];
  for (const g of games) {
    const tile = tileOf(g);
    list.append(tile.el);
    if (tile.show) meters.push({ game: g, show: tile.show });
  }
  host.append(h("section", { class: "page lobby-page" }, h("div", { class: "lobby-head" }, h("h1", {}, "Lobby"),
    h("p", {}, "Balance: ", h("strong", { class: "balance", "data-testid": "lobby-balance" }, s ? formatMoney(s.balanceMinor, s.currency) : "—"))), list));
  // The live jackpots, read on entering and every LOBBY_JACKPOT_MS while the lobby is up (a
  // tile without a pool shows none; a failed read keeps the last amount shown).
  let timer: ReturnType<typeof setInterval> | undefined;
  if (meters.length) {
    const read = () => app.api.jackpots().then(({ jackpots }) => {
      for (const { game, show } of meters) {
        const pool = poolOf(game, jackpots);
        if (pool) show(pool);
      }
    }).catch(() => { /* the next read retries */ });
    void read();
    timer = setInterval(() => void read(), LOBBY_JACKPOT_MS);
  }
  return { destroy() { clearInterval(timer); } };
}
