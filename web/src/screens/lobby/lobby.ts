// The lobby (/): over the tiles a hero banner for the progressive jackpot game (its art wide, its
// logo, the live pool the tile's badge shows, PLAY; compact on a phone), then a tile per game this session may play, drawn from the game's own art (its
// module's theme.tile and logo; a generic picture without), its live jackpot where it has one,
// behind the tile's info button the game in a player's words with its RTP and maximum win (tile.ts tileCard), the balance,
// and the launch into each game. Every tile: its art, the logo under it, PLAY and i; on a phone the
// tiles lie flat (picture beside the logo, which fills that side), so
// all three show without scrolling. Without a session: the demo
// operators' launch (the server's /demo signs a launch token and sends the browser to /play).
import { formatMoney } from "../../core/money";
import { clear, h } from "../../ui/dom";
import type { GameView, MeterView } from "../../net/types";
import type { AppContext, Screen } from "../context";
import { pictureNamesGame, prefixIds, tileCard, withoutFrame, withoutName } from "./tile";
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
 * rule: its currency, named after the game), or undefined. */
export function poolOf(game: Pick<GameView, "title" | "currency" | "jackpot">, meters: readonly MeterView[]): MeterView | undefined {
  return game.jackpot ? meters.find((j) => j.currency === game.currency && j.pool.startsWith(game.title)) : undefined;
}

/** The tile's picture: the module's own 16:9 art, else a generic one (the title over a reel
 * motif in the lobby's colours). Markup from the bundle only, never from a request. */
function pictureOf(g: GameView): HTMLElement {
  const theme = moduleFor(g)?.theme;
  const pic = h("div", { class: `tile-art${theme?.tile ? "" : " generic"}`, "aria-hidden": "true" });
  // a module with a logo: the logo under the art names the game, so the art's own name goes
  if (theme?.tile) pic.innerHTML = theme.logo ? withoutName(theme.tile, g.title) : theme.tile;
  else pic.append(h("span", { class: "tile-reels" }, h("i"), h("i"), h("i")), h("span", { class: "tile-name" }, g.title));
  return pic;
}

/** The banner over the tiles for the progressive jackpot game `g` (its module has tile art): the
 * tile's art wide (the sky carried on beside it), its logo, the live pool (shown by `show`, the
 * tiles' read) and PLAY to where the tile's PLAY goes. The art and logo are second copies of the
 * tile's, their ids prefixed (prefixIds). */
function heroOf(g: GameView): { el: HTMLElement; show: (pool: MeterView) => void } {
  const theme = moduleFor(g)?.theme;
  const art = h("a", { href: `#/game/${g.key}`, class: "hero-art", tabindex: "-1", "aria-hidden": "true" });
  art.innerHTML = prefixIds(withoutFrame(theme?.logo ? withoutName(theme.tile ?? "", g.title) : theme?.tile ?? ""), "hero-");
  art.querySelector("svg")?.setAttribute("preserveAspectRatio", "xMaxYMid slice");
  const title = h("h2", { class: "hero-title" }, h("span", { class: "tile-title" }, g.title));
  if (theme?.logo) {
    const mark = h("span", { class: "logo", "aria-hidden": "true" });
    mark.innerHTML = prefixIds(theme.logo, "hero-");
    title.append(mark);
    title.classList.add("has-logo");
  }
  const amount = h("output", { class: "hero-amount", "data-testid": "lobby-hero-jackpot" });
  const pot = h("p", { class: "hero-jackpot", hidden: true }, h("span", {}, "Progressive jackpot"), amount);
  const el = h("section", { class: "lobby-hero", "data-testid": "lobby-hero", "aria-label": `Featured: ${g.title}` }, art,
    h("div", { class: "hero-body" }, title, pot,
      h("a", { href: `#/game/${g.key}`, class: "launch hero-play", "data-testid": "lobby-hero-play", "aria-label": `Play ${g.title}` }, "PLAY NOW")));
  return { el, show(pool) { amount.textContent = formatMoney(pool.amount_minor, pool.currency); pot.hidden = false; } };
}

export async function mountLobby(host: HTMLElement, app: AppContext): Promise<Screen> {
  host.append(h("p", { class: "page", role: "status" }, "Loading the games…"));
  const games = await app.games();
  const s = app.session.state;
  clear(host);
  const list = h("div", { class: "lobby", "data-testid": "lobby" });
  // each live jackpot shown: its game and how a read of its pool is shown (a tile's badge, the hero's amount)
  const meters: { game: GameView; show: (pool: MeterView) => void }[] = [];
  for (const g of games) {
    const card = tileCard(g, moduleFor(g)?.card?.(g));
    const picture = pictureOf(g);
    // Every game with a logo: the art, the logo under it (beside it on a phone), PLAY and i, as
    // Cluedo's (the playtest found Cops' and Candy's without; their art's name is taken out,
    // pictureOf). Without a logo: the picture names the game (a generic tile always does), the
    // body keeps the name for screen readers only.
    const logo = moduleFor(g)?.theme?.tile ? moduleFor(g)?.theme?.logo : undefined;
    const named = !logo && (!moduleFor(g)?.theme?.tile || pictureNamesGame([...picture.querySelectorAll("text")].map((t) => t.textContent ?? ""), g.title));
    const title = h("h2", { class: logo ? "has-logo" : named ? "named" : "" }, h("span", { class: "tile-title" }, g.title));
    if (logo) {
      const mark = h("span", { class: "logo", "aria-hidden": "true" });
      mark.innerHTML = logo;
      title.append(mark);
    }
    const facts = h("div", { class: "tile-facts", id: `facts-${g.key}`, "data-testid": "tile-facts", hidden: true },
      h("p", { class: "tile-pitch", "data-testid": "lobby-pitch" }, card.pitch),
      ...(card.features.length ? [h("ul", { class: "tile-features", "data-testid": "lobby-features" }, ...card.features.map((f) => h("li", {}, f)))] : []),
      h("p", { class: "tile-figure" }, "RTP: ", h("strong", { "data-testid": "lobby-rtp" }, card.rtp), h("span", { class: "tile-figure-note" }, " return to player")),
      h("p", { class: "tile-figure" }, "Max win: ", h("strong", { "data-testid": "lobby-maxwin" }, card.maxWin.x), h("span", { class: "tile-figure-note" }, ` (${card.maxWin.detail})`)),
      ...(card.jackpot ? [h("p", { class: "tile-figure tile-jackpot-apart", "data-testid": "lobby-jackpot-apart" }, card.jackpot)] : []),
      h("p", {}, h("a", { href: `#/info/${g.key}` }, "Rules, paytable and RTP")));
    const info = h("button", { class: "tile-info", type: "button", "aria-expanded": "false", "aria-controls": facts.id, "aria-label": `About ${g.title}: RTP and max win`, "data-testid": "tile-info" }, "i");
    info.addEventListener("click", () => {
      facts.hidden = !facts.hidden;
      info.setAttribute("aria-expanded", String(!facts.hidden));
    });
    const jackpot = h("output", { class: "tile-jackpot", "data-testid": "lobby-jackpot", hidden: true });
    if (g.jackpot) meters.push({ game: g, show: (pool) => { jackpot.textContent = `JACKPOT ${formatMoney(pool.amount_minor, pool.currency)}`; jackpot.hidden = false; } });
    list.append(h("article", { class: "tile", "data-testid": `lobby-${g.key}` },
      h("div", { class: "tile-media" }, h("a", { href: `#/game/${g.key}`, class: "tile-picture", tabindex: "-1", "aria-hidden": "true" }, picture), jackpot),
      h("div", { class: "tile-body" }, title,
        h("div", { class: "tile-actions" },
          h("a", { href: `#/game/${g.key}`, class: "launch", "data-testid": `launch-${g.key}`, "aria-label": `Play ${g.title}` }, "PLAY"),
          info)),
      facts));
  }
  const featured = games.find((g) => g.jackpot && moduleFor(g)?.theme?.tile);
  const hero = featured ? heroOf(featured) : undefined;
  if (featured && hero) meters.push({ game: featured, show: hero.show });
  host.append(h("section", { class: "page lobby-page" }, h("div", { class: "lobby-head" }, h("h1", {}, "Lobby"),
    h("p", {}, "Balance: ", h("strong", { class: "balance", "data-testid": "lobby-balance" }, s ? formatMoney(s.balanceMinor, s.currency) : "—"))), ...(hero ? [hero.el] : []), list));
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
