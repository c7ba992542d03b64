// A lobby tile names its game once: where the picture already says the name (a generic tile's
// title, a module's art with the name in it), the tile's body keeps it for screen readers only.
// The playtest saw "COPS n ROBBERS" in the art and again as the logo under it, and every lab tile
// with its title over the reels and again below (one line or two: tiles of uneven heights).
import { maxWinSaid } from "../../core/max-win";
import { formatCredits, formatMoney, formatPercent } from "../../core/money";
import type { GameView } from "../../net/types";
import type { CardWords } from "../game/registry";

const words = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();

/** Whether the picture's texts name the game `title`: the whole title, or its first two words
 * or more (the art may give a shorter name, as "COPS n ROBBERS" for "Cops n Robbers Big Money
 * Christmas"; one word, as a symbol's "WILD", is not a name). */
export function pictureNamesGame(texts: readonly string[], title: string): boolean {
  const name = words(title);
  return texts.map(words).some((t) => t.length >= 3 && (name === t || (t.includes(" ") && name.startsWith(`${t} `))));
}

const TEXT = /<text\b[^>]*>([^<]*)<\/text>/g;

/** The tile's art without the texts that name the game `title` (pictureNamesGame's rule): the
 * tile's logo under it names the game, as Cluedo's does under its mansion, so every tile has one
 * structure (art, logo, PLAY, i) and says the name once. A text with markup inside (a <tspan>)
 * is kept; other texts (a wild's WILD) stay. */
export function withoutName(svg: string, title: string): string {
  return svg.replace(TEXT, (whole, said: string) => (pictureNamesGame([said], title) ? "" : whole));
}

/** `svg` with its ids (and the references to them) prefixed by `prefix`: a second copy of a
 * tile's art in the page (a poster's blurred ground, a symbol of its cast) must not share ids
 * with another, or a hidden copy's gradients would be the ones both resolve to. */
export function prefixIds(svg: string, prefix: string): string {
  return svg.replace(/\bid="/g, `id="${prefix}`).replace(/url\(#/g, `url(#${prefix}`).replace(/href="#/g, `href="#${prefix}`);
}

/** `svg` without its closing frame: a last `<rect>` with no fill drawn over everything (the
 * tile's gilt border), which the poster, cropped to its tile's shape, leaves to the tile. */
export function withoutFrame(svg: string): string {
  return svg.replace(/<rect\b[^>]*\bfill="none"[^>]*\/>\s*(<\/svg>\s*)$/, "$1");
}

/** What a tile's info card says, for a player (the playtest read it as a spec: "RTP 96.00%" in
 * the description, then "95.98% est.", "ID parade"): the game's pitch and features (its
 * module's words; else the description the game file gives), one RTP (the server's published
 * figure for the base game: how it was measured is on the information page) and the max win,
 * first as a multiple of the bet (core/max-win.ts, as every screen says it), then in credits and
 * money at the top bet. A game with a progressive jackpot says the jackpot is apart from the max
 * win: the server pays it from its pool beside the round's win (Cluedo's rules: "free spins
 * included and the Jackpot excluded"); a new player read the tile's €1,000,000 jackpot beside
 * "Max win" as the one inside the other. */
export interface TileCard extends CardWords {
  rtp: string;
  maxWin: { x: string; detail: string };
  jackpot: string | null;
}

export const JACKPOT_APART = "Plus the progressive Jackpot, paid on top of the max win";

export function tileCard(g: Pick<GameView, "info" | "rtp" | "max_win" | "bets" | "denomination" | "currency" | "jackpot">, words?: CardWords): TileCard {
  const rtp = g.rtp.find((r) => r.mode === "base") ?? g.rtp[0];
  const top = g.bets.length > 0;
  return {
    pitch: words?.pitch ?? g.info.description,
    features: words?.features ?? [],
    ...(words?.headline ? { headline: words.headline } : {}),
    rtp: rtp ? formatPercent(rtp.value) : "—",
    maxWin: {
      x: maxWinSaid(g.max_win.x),
      detail: `${formatCredits(g.max_win.credits)} credits${top ? `, ${formatMoney(g.max_win.credits * g.denomination, g.currency)} at the top bet` : ""}`,
    },
    jackpot: g.jackpot ? JACKPOT_APART : null,
  };
}

/** Where a phone's logo ends: the top of its subtitle (a text under 0.6 of its title's size,
 * "MegaJackpots" under "CLUEDO") and of the ribbon behind it, in the logo's viewBox units; null
 * for a logo without one. At a phone's tile a subtitle drew 9 px tall, unreadable: the title
 * names the game, the subtitle is dropped there (lobby.css crops the logo to `height`). */
export function logoTitleBox(svg: string): { width: number; height: number; title: number } | null {
  const box = /<svg\b[^>]*\bviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"/.exec(svg);
  if (!box) return null;
  const texts = [...svg.matchAll(/<text\b([^>]*)>/g)].flatMap(([, attrs]) => {
    const y = /\by="([-\d.]+)"/.exec(attrs ?? ""), size = /\bfont-size="([\d.]+)"/.exec(attrs ?? "");
    return y && size ? [{ y: Number(y[1]), size: Number(size[1]) }] : [];
  });
  const biggest = Math.max(0, ...texts.map((t) => t.size));
  const small = texts.filter((t) => t.size < 0.6 * biggest);
  if (!small.length) return null;
  // the subtitle's cap height and the ribbon's margin round it: 1.15 of its size above its line
  const title = Math.min(...small.map((t) => t.y - 1.15 * t.size));
  return { width: Number(box[1]), height: Number(box[2]), title: Math.max(1, Math.round(title * 10) / 10) };
}
