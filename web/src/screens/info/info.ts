// A game's information pages: its rule sheet section by section, as the server describes it
// (`info.help`: the game's help file with its numbers filled in), and the parts drawn here from
// the description: the paytable with the game's own symbols at the current bet (in credits and
// currency), the payline diagrams, the bets, the casino's settings, the jackpot meter.
import { maxWinExactly, maxWinSaid } from "../../core/max-win";
import { gamePool } from "../../core/jackpot-meter";
import { formatCredits, formatMoney, formatPercent } from "../../core/money";
import type { DrawnPart, GameView, HelpBlock, HelpPart } from "../../net/types";
import { clear, h } from "../../ui/dom";
import type { AppContext, Screen } from "../context";
import { holdArt, holdInfoOf } from "../game/hold-and-win";
import { moduleFor } from "../game/registry";
import { recallBet } from "./current-bet";
import "./info.css";
import { paylineDiagrams } from "./paylines";
import { paytable } from "./paytable";
import { currentSection } from "./spy";
import { symbolImages } from "./symbol-images";
import { gameSymbolTable } from "../../render/symbols";
import { FONTS } from "../../render/fonts";
import { sectionArt } from "./art";

/** The symbols' images' size in CSS px: the paytable's tiles show them up to 88 px. */
const SYMBOL_PX = 96;
/** Each game's display face on its page (its screen's own, render/fonts.ts): the headings and
 * the page's labels (symbol names, line numbers). */
const FACES: Record<string, { display: string; label: string }> = {
  cluedo: { display: FONTS.cluedo, label: FONTS.cluedo },
  "cops-n-robbers": { display: FONTS.cops, label: FONTS.display },
  "candy-jar-clusters": { display: FONTS.candy, label: FONTS.candy },
};

function parts(list: readonly HelpPart[], game: GameView): (Node | string)[] {
  return list.map((p) => {
    if (typeof p === "string") return p;
    if ("strong" in p) return h("strong", {}, p.strong);
    if ("minor" in p) return h("span", { class: "info-money" }, formatMoney(p.minor, game.currency));
    if ("times" in p) {
      // the maximum win as every screen says it, and here its exact multiple where that is rounded
      const exactly = maxWinExactly(p.times);
      return h("span", { class: "info-times", "data-testid": "info-max-win" }, maxWinSaid(p.times), exactly ? ` (exactly ${exactly})` : "");
    }
    return formatPercent(p.percent);
  });
}

/** Where the page draws from the description; `later` runs once the page is on screen. */
function drawn(kind: DrawnPart, game: GameView, app: AppContext, images: Map<string, string>, later: (f: () => Promise<void>) => void): HTMLElement | null {
  const money = (credits: number) => formatMoney(credits * game.denomination, game.currency);
  switch (kind) {
    case "paytable": {
      const chosen = recallBet(sessionStorage, game.key);
      // a game with its own bet controls (Candy's, in credits and money) reads its paytable in credits
      return paytable(game, images, chosen, moduleFor(game)?.symbolNotes, moduleFor(game)?.betControls ? "credits" : "coins");
    }
    case "paylines":
      return game.info.paylines?.length ? paylineDiagrams(game.info.paylines, game.info.window.rows) : null;
    case "bets": {
      const stakes = game.bets.map((b) => b.stake_credits).sort((a, b) => a - b);
      const low = stakes[0];
      const high = stakes[stakes.length - 1];
      if (low === undefined || high === undefined) return h("p", { "data-testid": "info-bets" }, "No bet is offered to you in this game.");
      return h("p", { class: "info-note", "data-testid": "info-bets" },
        `Bets here run from ${formatCredits(low)} to ${formatCredits(high)} credits (${money(low)} to ${money(high)}); one credit is worth ${formatMoney(game.denomination, game.currency)}, the denomination.`);
    }
    case "gamble-setting": {
      const said: Record<string, string> = {
        on: "At this casino the gamble is on: every win offers it.",
        "5x": "At this casino the gamble is on for wins of 5x the stake or more.",
        off: "At this casino the gamble is off.",
      };
      return h("p", { class: "info-note", "data-testid": "info-gamble-setting" }, said[game.gamble] ?? `Gamble setting: ${game.gamble}.`);
    }
    case "choice-timeout": {
      // The operator's setting (GameView.choice_timeout_ms, contract 6: read here until the
      // description's type carries it); none: a win waits for the player's choice.
      const ms = (game as GameView & { choice_timeout_ms?: number | null }).choice_timeout_ms;
      return typeof ms === "number" ? h("p", { class: "info-note", "data-testid": "info-choice-timeout" }, `At this casino a win left waiting for your choice is collected for you after ${(ms / 1000).toLocaleString("en")} s.`) : null;
    }
    case "win-cap":
      return game.win_cap_minor ? h("p", { class: "info-note", "data-testid": "info-win-cap" }, `Your casino limits the win of a single round to ${formatMoney(game.win_cap_minor, game.currency)}.`) : null;
    case "jackpot-meter": {
      const shown = h("output", { "data-testid": "info-jackpot-meter" }, "…");
      later(async () => {
        const { jackpots } = await app.api.jackpots();
        const pool = gamePool(game, jackpots);
        shown.textContent = pool ? formatMoney(pool.amount_minor, pool.currency) : "not available";
      });
      return h("p", { class: "info-note" }, "The Jackpot now: ", shown);
    }
    case "jurisdiction": {
      const j = game.jurisdiction;
      const items = [
        `Autoplay: ${j.autoplay ? "allowed" : "not allowed"}.`,
        `Turbo: ${j.turbo ? "allowed" : "not allowed"}.`,
        j.min_round_interval_ms ? `Rounds start at least ${(j.min_round_interval_ms / 1000).toLocaleString("en")} s apart.` : null,
        j.max_stake_minor !== null ? `The highest stake is ${formatMoney(j.max_stake_minor, game.currency)}.` : null,
        j.one_game_at_a_time ? "One game can be played at a time." : null,
        `Gamble: ${j.gamble ? "allowed" : "not allowed"}.`,
      ].filter((x): x is string => x !== null);
      return h("div", { class: "info-note", "data-testid": "info-jurisdiction" },
        h("p", {}, j.name === "default" ? "The rules of play at this casino:" : `The rules of play at this casino (${j.name} rules):`),
        h("ul", {}, ...items.map((i) => h("li", {}, i))));
    }
  }
}

function block(b: HelpBlock, game: GameView, app: AppContext, images: Map<string, string>, later: (f: () => Promise<void>) => void): HTMLElement | null {
  if (b.kind === "p") return h("p", {}, ...parts(b.parts, game));
  if (b.kind === "h3") return h("h3", {}, ...parts(b.parts, game));
  if (b.kind === "ul") return h("ul", {}, ...b.items.map((i) => h("li", {}, ...parts(i, game))));
  return drawn(b.kind, game, app, images, later);
}

export async function mountInfo(host: HTMLElement, app: AppContext, key: string): Promise<Screen> {
  const game = (await app.games()).find((g) => g.key === key);
  clear(host);
  if (!game) {
    host.append(h("p", { class: "page" }, `No game ${key}.`));
    return { destroy() {} };
  }
  let alive = true;
  const module = moduleFor(game);
  const wanted = game.info.symbols.map((s) => s.id);
  let images = new Map<string, string>();
  try {
    // a hold-and-win game's coin and empty cell as the reels draw them
    images = await symbolImages(gameSymbolTable({ ...holdArt(holdInfoOf(game)), ...(module?.symbols ?? {}) }, game.info.symbols), wanted, SYMBOL_PX);
  } catch (exc) {
    console.warn("information page: the symbols could not be drawn", exc); // names are shown instead
  }
  const pending: (() => Promise<void>)[] = [];
  const sections = game.info.help.sections;
  const toc = h("nav", { class: "info-toc", "aria-label": "Sections", "data-testid": "info-toc" });
  const body = h("div", { class: "info-body" });
  const entries: { section: HTMLElement; button: HTMLElement }[] = [];
  let picked: number | null = null;
  for (const s of sections) {
    const title = h("h2", { tabindex: -1 }, s.title);
    const section = h("section", { class: "info-section", id: `info-${s.id}`, "data-testid": `info-section-${s.id}`, "aria-label": s.title }, title,
      sectionArt(game.key, s.id, images));
    for (const b of s.blocks) {
      const el = block(b, game, app, images, (f) => pending.push(f));
      if (el) section.append(el);
    }
    body.append(section);
    const index = entries.length;
    const button = h("button", { type: "button", "data-testid": `info-toc-${s.id}`, onclick: () => { picked = index; section.scrollIntoView({ block: "start" }); title.focus({ preventScroll: true }); spy(); } }, s.title);
    entries.push({ section, button });
    toc.append(button);
  }
  // the contents light the section being read (spy.ts chooses; the page's scroller is `host`)
  const spy = () => {
    const box = host.getBoundingClientRect();
    const current = currentSection({
      tops: entries.map((e) => e.section.getBoundingClientRect().top - box.top),
      height: host.clientHeight || window.innerHeight,
      atEnd: host.scrollTop + host.clientHeight >= host.scrollHeight - 2,
      picked,
    });
    entries.forEach((e, i) => { if (i === current) e.button.setAttribute("aria-current", "true"); else e.button.removeAttribute("aria-current"); });
  };
  let frame = 0;
  const onScroll = () => { if (!frame) frame = requestAnimationFrame(() => { frame = 0; spy(); }); };
  host.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener("resize", onScroll);
  // The page in the game's own scene, colours, face and logo (info.css .info-theme-<key>), not
  // the kit's.
  const heading = h("h1", {}, h("span", { class: "info-title" }, `${game.title}: information`));
  if (module?.theme?.logo) {
    const logo = h("span", { class: "info-logo", "aria-hidden": "true", "data-testid": "info-logo" });
    logo.innerHTML = module.theme.logo; // our own markup from the bundle
    heading.prepend(logo);
  }
  const page = h("section", { class: `page info info-theme-${module?.key ?? "generic"}`, "data-testid": "info" },
    h("header", { class: "info-head", "data-testid": "info-hero" }, heading, h("a", { href: `#/game/${key}`, "data-testid": "info-play" }, `Play ${game.title}`)),
    h("div", { class: "info-layout" }, toc, body));
  const faces = module ? FACES[module.key] : undefined;
  if (faces) {
    page.style.setProperty("--info-display", faces.display);
    page.style.setProperty("--info-label", faces.label);
  }
  host.append(page);
  for (const f of pending) void f().catch((exc) => { if (alive) console.warn("information page:", exc); });
  spy();
  return { destroy() {
    alive = false;
    host.removeEventListener("scroll", onScroll);
    window.removeEventListener("resize", onScroll);
    cancelAnimationFrame(frame);
  } };
}
