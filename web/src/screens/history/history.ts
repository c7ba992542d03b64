// The history page, for the player: their rounds from the server (newest first, paged), each
// with the game's title, the time in the player's own time zone, the stake, the win and the
// balance after in currency, and its status in words. A round opens to its screens drawn with
// the game's own art (screens.ts), a plain account of what happened (account.ts, or the game
// module's own `account`), the server's replay check as a small "verified" mark, and a short
// round reference to quote to support (the whole id in its title and on the copy button).
import "./history.css";
import { formatMoney } from "../../core/money";
import { validateOutcome, type Outcome } from "../../core/outcome";
import type { GameView, HistoryItem, RoundView, VerifyView } from "../../net/types";
import { clear, h, showError } from "../../ui/dom";
import type { AppContext, Screen } from "../context";
import { gameModule, moduleFor, type GameModule } from "../game/registry";
import { accountOf, type AccountLine } from "./account";
import { fadeEdges, fadePx } from "./edges";
import { balanceAfter, DETAIL_TIME, FEATURE_WORDS, featuresOf, type Feature, heldInGamble, heldWords, localTime, type Held, paidOut, shortReference, statusWords, type Item } from "./format";
import { mountScreens } from "./screens";
import { prefixIds } from "../lobby/tile";

function titleOf(item: { game: string; title?: string | null }, games: GameView[]): string {
  return item.title ?? games.find((g) => g.key === item.game)?.title ?? item.game;
}

/** A round's small picture in the list: the game's own art, the middle one of its lobby cast
 * (its symbol's SVG, ids prefixed per row), else its title's first letter on a reel's gold. */
function iconOf(module: GameModule | undefined, title: string, prefix: string): HTMLElement {
  const cast = module?.theme?.cast ?? [];
  const id = cast[Math.floor(cast.length / 2)] ?? cast[0];
  const svg = id ? module?.symbols?.[id]?.svg : undefined;
  const icon = h("span", { class: `icon${svg ? "" : " plain"}`, "data-testid": "history-icon", "aria-hidden": "true" });
  if (svg) icon.innerHTML = prefixIds(svg, prefix);
  else icon.textContent = title.trim().charAt(0).toUpperCase();
  icon.querySelector("svg")?.removeAttribute("width");
  icon.querySelector("svg")?.removeAttribute("height");
  return icon;
}

/** The round's win, or while its win waits on the gamble what is at stake there (and what it
 * has banked to the balance): a new player read "Win —" beside "In progress" as nothing won. */
function winFields(win: number | null, held: Held | null, currency: string, prefix: "history" | "round"): HTMLElement[] {
  if (!held) return [moneyField("Win", win === null ? "—" : formatMoney(win, currency), `${prefix}-win`, win)];
  return [moneyField(heldWords(held).label, formatMoney(held.atStake, currency), `${prefix}-at-stake`, held.atStake),
    ...(held.banked > 0 ? [moneyField("Banked", formatMoney(held.banked, currency), `${prefix}-banked`, held.banked)] : [])];
}

function moneyField(label: string, value: string, testid: string, minor: number | null): HTMLElement {
  return h("span", { class: "field", "data-testid": testid, ...(minor === null ? {} : { "data-minor": String(minor) }) }, h("span", { class: "label" }, label), h("span", { class: "value" }, value));
}

export async function mountHistory(host: HTMLElement, app: AppContext): Promise<Screen> {
  clear(host);
  const games = await app.games().catch(() => [] as GameView[]);
  const list = h("ul", { class: "history-list", "data-testid": "history-list" });
  const empty = h("p", { class: "history-empty", hidden: true }, "No rounds played yet.");
  const more = h("button", { type: "button", class: "history-more", "data-testid": "history-more", hidden: true }, "Show older rounds");
  const detail = h("section", { class: "history-detail", "data-testid": "history-detail", "aria-live": "polite", hidden: true });
  const layout = h("div", { class: "history-layout" }, h("div", { class: "history-rounds" }, list, empty, more), detail);
  const filter = h("select", { "data-testid": "history-game", "aria-label": "Game" },
    h("option", { value: "" }, "All games"), ...games.map((g) => h("option", { value: g.key }, g.title)));
  const page = h("section", { class: "page history", "data-testid": "history" },
    h("div", { class: "history-top" }, h("h1", {}, "Game history"), h("label", { class: "history-filter" }, h("span", { class: "history-filter-word" }, "Show"), filter)),
    h("p", { class: "history-zone" }, `Times in your time zone (${Intl.DateTimeFormat().resolvedOptions().timeZone}).`), layout);
  host.append(page);
  let cursor: string | null = null;
  let cleanup: (() => void) | null = null;
  let opened = 0;
  const items = new Map<string, Item>();
  let rowSeq = 0;

  // the rows' badges of free spins, a bonus, a gamble: each round's view read a few at a time
  // (the list item says only a jackpot), its badges added once read
  const pending: (() => Promise<void>)[] = [];
  let reading = 0;
  const readNext = () => {
    while (reading < 3 && pending.length) {
      const job = pending.shift() as () => Promise<void>;
      reading++;
      void job().catch(() => { /* no badges but the item's */ }).finally(() => { reading--; readNext(); });
    }
  };

  const row = (r: Item) => {
    items.set(r.round_id, r);
    const balance = balanceAfter(r, null);
    const win = r.win_minor;
    const held = heldInGamble(r);
    const status = held ? heldWords(held).status : statusWords(r.status);
    const game = games.find((g) => g.key === r.game);
    const module = game ? moduleFor(game) : gameModule(r.game);
    const title = titleOf(r, games);
    const won = paidOut(r);
    const badges = h("span", { class: "badges", "data-testid": "history-badges" });
    const button = h("button", { type: "button", class: `history-item ${won ? "won" : "lost"}`, "data-testid": "history-open", title: `Round ${r.round_id}` },
      iconOf(module, title, `hist-${++rowSeq}-`),
      h("span", { class: "title", "data-testid": "history-title" }, title),
      h("time", { class: "when", "data-testid": "history-time", datetime: new Date(Math.floor(r.created_at_us / 1000)).toISOString() }, localTime(r.created_at_us)),
      h("span", { class: "prize" },
        ...winFields(win, held, r.currency, "history"),
        typeof r.jackpot_minor === "number" ? moneyField(jackpotLabel(r.jackpot_status), formatMoney(r.jackpot_minor, r.currency), "history-jackpot", r.jackpot_minor) : null),
      h("span", { class: "info" },
        h("span", { class: `status status-${status.toLowerCase().replace(/ /g, "-")}`, "data-testid": "history-status" }, status),
        badges,
        h("span", { class: "money" },
          moneyField(r.funded_by ? "Stake (Spin Chance)" : "Stake", formatMoney(r.stake_minor, r.currency), "history-stake", r.stake_minor),
          balance === null ? null : moneyField("Balance", formatMoney(balance, r.currency), "history-balance", balance))));
    button.addEventListener("click", () => void open(r.round_id));
    const li = h("li", { "data-testid": "history-row", "data-round": r.round_id, "data-status": r.status, "data-won": String(won) }, button);
    const show = (features: Feature[]) => {
      clear(badges);
      badges.append(...features.map((f) => h("span", { class: `badge badge-${f}`, "data-testid": "history-badge", "data-feature": f }, FEATURE_WORDS[f])));
    };
    show(featuresOf(r));
    pending.push(async () => {
      try {
        show(featuresOf(r, await app.api.round(r.round_id)));
      } finally {
        li.dataset.features = [...badges.children].map((b) => (b as HTMLElement).dataset.feature).join(" ");
      }
    });
    readNext();
    return li;
  };

  const load = async () => {
    const game = filter.value;
    more.disabled = true;
    try {
      const next = await app.api.history(20, cursor ?? undefined, filter.value || undefined);
      if (game !== filter.value) return; // another game was picked meanwhile
      for (const r of next.rounds) list.append(row(r as Item));
      cursor = next.next;
      more.hidden = cursor === null;
      empty.textContent = filter.value ? "No rounds of this game yet." : "No rounds played yet.";
      empty.hidden = list.childElementCount > 0;
    } finally {
      more.disabled = false;
    }
  };

  const close = () => {
    cleanup?.();
    cleanup = null;
    opened++;
    clear(detail);
    detail.hidden = true;
    page.classList.remove("showing-round");
    for (const li of list.querySelectorAll("li[aria-current]")) li.removeAttribute("aria-current");
  };

  const open = async (id: string) => {
    close();
    const mine = opened;
    detail.hidden = false;
    page.classList.add("showing-round");
    list.querySelector(`li[data-round="${CSS.escape(id)}"]`)?.setAttribute("aria-current", "true");
    const back = h("button", { type: "button", class: "history-back", "data-testid": "history-back" }, "‹ All rounds");
    back.addEventListener("click", () => {
      close();
      list.querySelector<HTMLElement>(`li[data-round="${CSS.escape(id)}"] button`)?.focus();
    });
    detail.append(back);
    // the round where the eye is: it takes the list's place, whose scroll it keeps
    if (detail.getBoundingClientRect().top < host.getBoundingClientRect().top) detail.scrollIntoView({ block: "start" });
    try {
      const round = await app.api.round(id);
      if (mine !== opened) return;
      const game = games.find((g) => g.key === round.game);
      const module = game ? moduleFor(game) : gameModule(round.game);
      const item = items.get(id) ?? null;
      const verify = h("span", { class: "verified checking", "data-testid": "history-verify", "data-verified": "checking", title: "Checking the round against its seeds on the server" }, "checking…");
      detail.append(header(round, item, game, verify));
      const lines = accountOf(round, game, module);
      const outcomes = outcomesOf(round);
      const screens = h("div", { class: "replay", "data-testid": "replay", tabindex: "-1" });
      if (outcomes.length && game) detail.append(screens);
      const account = accountList(lines);
      detail.append(account);
      detail.append(reference(round.round_id));
      void app.api.verify(id).then((v) => { if (mine === opened) verified(verify, v); }, (exc) => {
        if (mine !== opened) return;
        verify.className = "verified failed";
        verify.dataset.verified = "error";
        showError(verify, exc);
        verify.prepend("✗ not checked: ");
      });
      if (outcomes.length && game) {
        if (module?.replay && outcomes[0]) cleanup = await module.replay(screens, round, game, outcomes[0]);
        else {
          const done = await mountScreens(screens, {
            module, game, outcomes, quality: app.options.get().quality,
            money: (credits) => formatMoney(credits * round.denomination, round.currency),
            // a round of several spins: the lines of the spin on screen are marked
            onShow: (f) => showSpin(account, f.outcome === 0 && (outcomes[0]?.spins.length ?? 0) > 1 ? (outcomes[0]?.spins[f.spin]?.index ?? null) : null),
            spinName: (o, spin) => lines.find((l) => l.heading && l.spin === spin.index && o === 0)?.text ?? (o > 0 ? `Bonus won on the wheel · spin ${spin.index}` : `Spin ${spin.index + 1}`),
          });
          if (mine === opened) cleanup = done;
          else done();
        }
      }
    } catch (exc) {
      if (mine !== opened) return;
      const p = h("p", { class: "message", "data-testid": "history-error" });
      showError(p, exc);
      detail.append(p);
    }
  };

  more.addEventListener("click", () => void load());
  filter.addEventListener("change", () => {
    close();
    clear(list);
    items.clear();
    pending.length = 0;
    cursor = null;
    more.hidden = true;
    void load().catch((exc) => { empty.hidden = false; showError(empty, exc); });
  });
  await load();
  return { destroy() { cleanup?.(); } };
}

/** The round's outcome, then any bonus a step won (a bonus wheel), each checked by the schema. */
function outcomesOf(round: RoundView): Outcome[] {
  const outcomes: Outcome[] = [];
  if (round.outcome) outcomes.push(validateOutcome(round.outcome));
  for (const step of round.steps) if (step.result.bonus_outcome) outcomes.push(validateOutcome(step.result.bonus_outcome));
  return outcomes;
}

function header(round: RoundView, item: Item | null, game: GameView | undefined, verify: HTMLElement): HTMLElement {
  const balance = balanceAfter(item, round);
  const held = heldInGamble(item, round);
  const stake = round.funded_by ? "Stake (a Spin Chance spin)" : "Stake";
  const mode = round.bet.mode !== "base" ? (game?.modes.find((m) => m.name === round.bet.mode)?.title ?? round.bet.mode) : null;
  const bet = round.outcome ? `${round.outcome.bet.stake.toLocaleString("en")} credits` : null;
  return h("header", { class: "round-head", "data-testid": "round-summary" },
    h("h2", {}, item?.title ?? game?.title ?? round.game, " ", verify),
    h("p", { class: "round-when" },
      h("time", { "data-testid": "round-time", datetime: new Date(Math.floor(round.created_at_us / 1000)).toISOString() }, localTime(round.created_at_us, DETAIL_TIME)),
      " · ", h("span", { "data-testid": "round-status" }, held ? heldWords(held).status : statusWords(round.status))),
    h("p", { class: "money" },
      moneyField(stake, formatMoney(round.stake_minor, round.currency), "round-stake", round.stake_minor),
      ...winFields(round.win_minor, held, round.currency, "round"),
      balance === null ? null : moneyField("Balance after", formatMoney(balance, round.currency), "round-balance", balance)),
    bet ? h("p", { class: "round-bet" }, `Bet ${bet}${mode ? ` · ${mode}` : ""} · 1 credit = ${formatMoney(round.denomination, round.currency)}`) : null);
}

function verified(mark: HTMLElement, v: VerifyView): void {
  mark.dataset.verified = String(v.matches);
  if (v.matches) {
    mark.className = "verified ok";
    mark.textContent = "✓ verified";
    mark.title = "Verified: the server played this round again from its recorded seeds and got the same result.";
  } else {
    mark.className = "verified failed";
    mark.textContent = `✗ not verified: ${v.problems.join("; ")}`;
    mark.title = "Replayed from its seeds on the server, this round did not give the same result. Please contact support with the round reference.";
  }
}

function accountList(lines: AccountLine[]): HTMLElement {
  const ol = h("ol", { class: "account", "data-testid": "round-account", "aria-label": "What happened" });
  if (!lines.length) ol.append(h("li", {}, "Nothing was played in this round."));
  for (const line of lines) {
    ol.append(h("li", { class: line.heading ? "heading" : "line", "data-testid": line.heading ? "account-heading" : "account-line", ...(line.spin === undefined ? {} : { "data-spin": String(line.spin) }) }, line.text));
  }
  fadeEdges(ol);
  return h("div", { class: "account-box" }, h("h3", {}, "What happened"), ol);
}

/** Mark the account's lines of the spin on screen, and bring them into the account's view (the
 * list scrolls, not the page). */
function showSpin(account: HTMLElement, spin: number | null): void {
  const list = account.querySelector<HTMLElement>("ol");
  if (!list) return;
  let first: HTMLElement | null = null;
  for (const li of list.querySelectorAll<HTMLElement>("li")) {
    const on = spin !== null && li.dataset.spin === String(spin);
    li.classList.toggle("current", on);
    if (on) first ??= li;
  }
  // (below the top's fade, where it reads at full ink, edges.ts)
  if (first && list.scrollHeight > list.clientHeight) list.scrollTop = first.offsetTop - Math.max(4, fadePx(list));
}

function reference(id: string): HTMLElement {
  const code = h("code", { "data-testid": "round-ref-short", title: id }, shortReference(id));
  const copy = h("button", { type: "button", class: "copy", "data-testid": "round-ref-copy", title: `Copy the round reference ${id}` }, "Copy");
  copy.addEventListener("click", () => {
    const done = () => { copy.textContent = "Copied"; };
    const select = () => {
      code.textContent = id;
      getSelection()?.selectAllChildren(code);
      copy.textContent = "Selected: press Ctrl+C";
    };
    if (navigator.clipboard?.writeText) navigator.clipboard.writeText(id).then(done, select);
    else select();
  });
  return h("p", { class: "round-ref", "data-testid": "round-ref", "data-round": id }, "Round reference ", code, " ", copy);
}


/** The jackpot beside a round in the list: paid from the pool once verified (the claim's status). */
export function jackpotLabel(status: string | null | undefined): string {
  return status === "pending_verification" ? "Jackpot (being verified)" : "Jackpot";
}
