// The first-visit intro of a game (Options: INTRO_SETTING): a card over the reels, never over
// PLAY or the console, saying in a player's words what the game is about. Shown once per game
// (remembered in localStorage, `reelforge.intro-seen`). Its box is the Options setting itself
// (INTRO_SETTING, options.intro): unticked there, no game shows its intro; ticked again in
// Options, what was seen is forgotten, so every game's intro comes back.
import { maxWinSaid } from "../core/max-win";
import { formatMoney, formatPercent } from "../core/money";
import type { KeyValue } from "../core/session";
import type { GameInfo, GameView, HelpBlock, HelpPart } from "../net/types";
import type { AppContext } from "../screens/context";
import { h } from "./dom";

export const INTRO_SEEN_KEY = "reelforge.intro-seen";

/** What an intro reads of a game: its title, money, RTP and maximum win, its help pages, and
 * (where the server sends them) its paytable, symbols, scatters and free games. */
export type IntroGame = Pick<GameView, "title" | "currency" | "rtp" | "max_win" | "modes"> & Partial<Pick<GameView, "bets">> & {
  info: Pick<GameInfo, "help" | "description"> & Partial<Pick<GameInfo, "pays" | "symbols" | "scatters" | "free_games" | "progressive_jackpot" | "paylines" | "window">>;
};

/** A written point that takes a figure from the game's rules: given the rules' words (the help
 * pages, as text) and the game's data, the point (so the card says what the pages and the
 * paytable say, at the game file's numbers). */
export type IntroPoint = string | ((rules: string, game: IntroGame) => string);

/** The fewest of a kind a line pays for, from the paytable: the count most of the symbols
 * start paying at, and those (the wild too) that pay from fewer, by name; null without a
 * paytable. */
export function fewestToPay(info: IntroGame["info"]): { most: number; fewer: { name: string; count: number }[] } | null {
  const rows = info.pays?.table ?? [];
  const role = (id: string) => info.symbols?.find((s) => s.id === id);
  const least = rows.map((r) => ({ id: r.symbol, count: Math.min(...r.pays.filter(([, pay]) => pay > 0).map(([n]) => n)) })).filter((r) => Number.isFinite(r.count));
  const plain = least.filter((r) => role(r.id)?.role !== "wild");
  if (!plain.length) return null;
  const tally = new Map<number, number>();
  for (const r of plain) tally.set(r.count, (tally.get(r.count) ?? 0) + 1);
  const most = [...tally].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  const fewer = least.filter((r) => r.count < most).map((r) => {
    const s = role(r.id);
    return { name: s?.role === "wild" ? `the ${s.name} wild` : (s?.name ?? r.id), count: r.count };
  });
  return { most, fewer };
}

/** "A and B pay from 2", each count said once ("A pays from 2, B from 1"). */
function fromFewer(fewer: { name: string; count: number }[]): string {
  const counts = [...new Set(fewer.map((f) => f.count))].sort((a, b) => b - a);
  return counts.map((n, i) => {
    const names = fewer.filter((f) => f.count === n).map((f) => f.name);
    const said = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
    return i === 0 ? `${said} ${names.length > 1 ? "pay" : "pays"} from ${n}` : `${said} from ${n}`;
  }).join(", ");
}

/** Where the progressive jackpot is won, in the rule sheet's words: "the centre payline" where
 * its line is the window's middle row (from the line's shape, not its number), else "line N";
 * "" for a game without one. Cluedo's signs (screens/cluedo/signs.ts) say it too. */
export function jackpotLine(info: Partial<Pick<GameInfo, "progressive_jackpot" | "paylines" | "window">>): string {
  const jackpot = info.progressive_jackpot;
  if (!jackpot) return "";
  const shape = info.paylines?.[jackpot.line - 1];
  const rows = info.window?.rows ?? 0;
  const centre = rows % 2 === 1 && !!shape?.length && shape.every((r) => r === (rows - 1) / 2);
  return centre ? "the centre payline" : `line ${jackpot.line}`;
}

/** The progressive jackpot's point, from the game's data: who is eligible (the bet the server
 * marks jackpot-eligible, in credits), the symbols and line that win it, and the free spins
 * that can win it too; "" for a game without one. */
export function jackpotPoint(game: Pick<IntroGame, "bets" | "info">): string {
  const { info } = game;
  const jackpot = info.progressive_jackpot;
  if (!jackpot) return "";
  const name = (id: string) => info.symbols?.find((s) => s.id === id)?.name ?? id;
  const where = jackpotLine(info);
  const stake = Math.max(0, ...(game.bets ?? []).filter((b) => b.jackpot_eligible).map((b) => b.stake_credits));
  const who = jackpot.requires_max_bet ? `Bet max${stake ? ` (${stake.toLocaleString("en")} credits)` : ""} to be eligible for the progressive jackpot` : "Every bet is eligible for the progressive jackpot";
  const free = info.free_games ? `, in ${name(info.free_games.trigger)} free spins too` : "";
  return `${who}: ${jackpot.count} ${name(jackpot.symbol)} on ${where}${free}.`;
}

/** Each game's intro, by its module's key: a line to open, then what a new player needs. */
export const INTROS: Record<string, { lead: string; points: IntroPoint[] }> = {
  cluedo: {
    lead: "Solve the mansion mystery on 5 reels and 20 lines.",
    points: [
      // the paytable's counts (the playtest: "3 or more" beside a wild and one Miss Scarlet paid)
      (_rules, game) => {
        const f = fewestToPay(game.info);
        const line = `Line up ${f?.most ?? 3} or more suspects or weapons from the left on a line to win`;
        return f?.fewer.length ? `${line}; ${fromFewer(f.fewer)}.` : `${line}.`;
      },
      "The MegaJackpots wild stands in for other symbols and doubles the win it completes.",
      (_rules, game) => {
        const free = game.info.free_games;
        const starts = free?.award.length ? Math.min(...free.award.map(([n]) => n)) : 3;
        const scatter = game.info.scatters?.find((s) => s.symbol === free?.trigger);
        const paid = scatter ? Math.min(...scatter.pays.filter(([, pay]) => pay > 0).map(([n]) => n)) : Infinity;
        return `${starts} or more Mystery Bonus symbols anywhere open free spins on the secret golden reels${paid < starts ? ` (${paid} or more pay too)` : ""}.`;
      },
      // the progressive jackpot, in the rules' words for who may win it ("To be eligible for the
      // Jackpot, you must bet max"; "can be won from within any Mystery Bonus free spin if that
      // bonus was triggered with a max bet play"): a first visit's card said nothing of it
      (_rules, game) => jackpotPoint(game),
      "After a win, double it on red or black, or collect it.",
    ],
  },
  "cops-n-robbers": {
    lead: "Catch the robber in a snowy Christmas chase on 10 lines.",
    points: [
      "Line up 3 or more matching symbols from the left to win; presents pay in any mix.",
      "The robber and the cop are wild. The robber grabs the cash shown on presents.",
      "3 bonus symbols start the Big Money chase along the trail, multipliers growing.",
      "After a win, spin the wheels to grow it, or collect it.",
    ],
  },
  "candy-jar-clusters": {
    lead: "Clusters of sweets on a 7 by 7 grid, and candies for the jars.",
    points: [
      "6 or more matching candies touching side by side win, then tumble away for new ones.",
      // the jars do not fill up: they are emptied after every spin, and what starts free spins
      // is the candies one spin brings (a playtest read "full jars start free spins" beside a
      // counter back at 0 / 3 every spin)
      (rules) => {
        const trigger = /receive (\d+) or more candies in one spin/i.exec(rules)?.[1];
        return `Yellow, red and green candies drop into three jars: ${trigger ? `${trigger} or more in one spin` : "enough of them in one spin"} start free spins with extra treats.`;
      },
      "Golden wilds, multipliers and fixed jackpots can land along the way.",
    ],
  },
};

/** At most this many of the rules' sections are named in a derived intro (a card, not a page). */
const INTRO_FEATURES = 3;

const words = (parts: readonly HelpPart[], game: Pick<GameView, "currency">): string =>
  parts.map((p) => (typeof p === "string" ? p : "strong" in p ? p.strong : "minor" in p ? formatMoney(p.minor, game.currency) : "times" in p ? maxWinSaid(p.times) : formatPercent(p.percent))).join("").replace(/\s+/g, " ").trim();

/** A section's gist in one sentence: the first of its paragraphs and list items that gives a
 * number (what triggers, how much: "3 or more scatters award free spins"), else its first;
 * cut at the sentence's end (or a colon before a list of figures). */
function gist(blocks: readonly HelpBlock[], game: Pick<GameView, "currency">): string {
  const said = blocks.flatMap((b) => (b.kind === "p" ? [words(b.parts, game)] : b.kind === "ul" ? b.items.map((i) => words(i, game)) : [])).filter(Boolean);
  const text = said.find((t) => /\d/.test(t)) ?? said[0] ?? "";
  const end = text.search(/[.:](\s|$)/);
  return end < 0 ? text : `${text.slice(0, end)}.`;
}

/** The intro of a game with none written for it (the lab's games): its rules' overview (the
 * server's help pages, numbers filled in) as the lead, the first sentence of each of its
 * feature sections (those the page writes out, not the paytable, bets or settings it draws,
 * nor the maximum win, said with the RTP), then the game's RTP and maximum win. Derived from
 * the game's data, so a new game file brings its own. */
export function derivedIntro(game: IntroGame): { lead: string; points: string[] } {
  const sections = game.info.help?.sections ?? [];
  const said = (s: (typeof sections)[number]) => s.blocks.filter((b) => b.kind === "p" || b.kind === "ul");
  const overview = sections.find((s) => s.id === "overview") ?? sections[0];
  const lead = overview ? said(overview).map((b) => (b.kind === "p" ? words(b.parts, game) : "")).find(Boolean) ?? "" : "";
  const drawnOnly = (s: (typeof sections)[number]) => s.blocks.some((b) => b.kind !== "p" && b.kind !== "ul" && b.kind !== "h3");
  const features = sections.filter((s) => s !== overview && s.id !== "max-win" && !drawnOnly(s) && said(s).length)
    .slice(0, INTRO_FEATURES)
    .map((s) => `${s.title}: ${gist(said(s), game)}`);
  return { lead: lead || game.info.description || game.title, points: [...features, ...facts(game)] };
}

/** The card's last point: the game's RTP (its first mode's) and maximum win; none without either. */
function facts(game: Pick<GameView, "rtp" | "max_win" | "modes">): string[] {
  const base = game.rtp.find((r) => r.mode === (game.modes[0]?.name ?? "base")) ?? game.rtp[0];
  const said = [base ? `Return to player ${formatPercent(base.value)}` : "", game.max_win.x > 0 ? `maximum win ${maxWinSaid(game.max_win.x)}` : ""].filter(Boolean).join(" · ");
  return said ? [said.charAt(0).toUpperCase() + said.slice(1)] : [];
}

/** A game's intro: the one written for it (the shipped games), its RTP and maximum win added as
 * on every card, or the one derived from its data. */
export function introFor(key: string, game: Parameters<typeof derivedIntro>[0]): { lead: string; points: string[] } {
  const written = INTROS[key];
  if (!written) return derivedIntro(game);
  const rules = (game.info.help?.sections ?? []).flatMap((sec) => sec.blocks.flatMap((b) => (b.kind === "p" ? [words(b.parts, game)] : b.kind === "ul" ? b.items.map((i) => words(i, game)) : []))).join(" ");
  return { lead: written.lead, points: [...written.points.map((p) => (typeof p === "string" ? p : p(rules, game))).filter(Boolean), ...facts(game)] };
}

function seen(storage: KeyValue): string[] {
  try {
    const v = JSON.parse(storage.getItem(INTRO_SEEN_KEY) ?? "[]");
    return Array.isArray(v) ? v.filter((k) => typeof k === "string") : [];
  } catch {
    return [];
  }
}

/** The intro setting's words, in Options and on the card alike (a playtest left the card's
 * "Show again next time" unticked and found Options' "Intro screen" still ticked). */
export const INTRO_SETTING = "Show each game's intro on its first visit";

/** Whether the game's intro is still to be shown (first visit). */
export function introDue(storage: KeyValue, key: string): boolean {
  return !seen(storage).includes(key);
}

export function rememberIntro(storage: KeyValue, key: string): void {
  storage.setItem(INTRO_SEEN_KEY, JSON.stringify([...new Set([...seen(storage), key])]));
}

/** Every game's intro shows again on its next visit (the setting ticked again in Options). */
export function forgetIntros(storage: KeyValue): void {
  storage.removeItem(INTRO_SEEN_KEY);
}

/** The card over the reels (`host`: the stage's overlay); resolves when the player goes on
 * (Continue, Escape, or the returned `close`, e.g. PLAY pressed beside it). `start`: the
 * continue button's words (a game's own, GameModule.introStart). */
export function showIntro(game: GameView, app: AppContext, host: HTMLElement, key: string, storage: KeyValue = localStorage, start = "LET'S PLAY"): { done: Promise<void>; close: () => void } {
  const text = introFor(key, game);
  const again = h("input", { type: "checkbox", id: "intro-again", "data-testid": "intro-again", checked: app.options.get().intro });
  const go = h("button", { "data-testid": "intro-continue" }, start);
  const card = h("div", { class: "intro-card", role: "dialog", "aria-modal": "false", "aria-label": `${game.title}: how it plays`, "data-testid": "intro", "data-layout": "over-reels" },
    h("h2", {}, game.title), h("p", { class: "intro-lead" }, text.lead),
    h("ul", {}, ...text.points.map((p) => h("li", {}, p))),
    h("div", { class: "intro-foot" }, go, h("label", { for: "intro-again" }, again, ` ${INTRO_SETTING}`)));
  let resolve: () => void = () => {};
  const done = new Promise<void>((r) => (resolve = r));
  const close = () => {
    if (!card.isConnected) return;
    app.sound.unlock();
    rememberIntro(storage, key); // read: this game's intro is not due again
    if (again.checked !== app.options.get().intro) app.options.set({ intro: again.checked });
    card.remove();
    resolve();
  };
  go.addEventListener("click", close);
  card.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  host.append(card);
  go.focus();
  return { done, close };
}
