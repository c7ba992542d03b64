// The back office page (/backoffice): sign in, today's meters per game with their CSV, the games
// with their switch, the jackpots with theirs. Everything shown comes from /backoffice/api; a
// refused action shows the server's own sentence. Buttons that change something are shown to
// every role but only a manager's are enabled, with the reason beside them for the others.
import "./office.css";
import { clear, h } from "../ui/dom";
import { formatMoney } from "../core/money";
import { call, OfficeError, utcDay, type GameRow, type HeldView, type LargeWinsView, type Me, type MeterRow, type PoolRow, type RtpRow } from "./api";
import { METER_HEADINGS, meterCells, RTP_HEADINGS, rtpCells, totals } from "./view";
import { showReports } from "./reports";
import { showClaims, showCorrections } from "./control";
import { showEvents } from "./events";

const root = document.getElementById("office") as HTMLElement;

function message(text: string, kind: "error" | "note" = "error"): HTMLElement {
  return h("p", { class: `office-${kind}`, role: kind === "error" ? "alert" : "status", "data-testid": `office-${kind}` }, text);
}

function table(testid: string, headings: string[], rows: HTMLElement[]): HTMLElement {
  return h("div", { class: "office-scroll" },
    h("table", { "data-testid": testid },
      h("thead", {}, h("tr", {}, ...headings.map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, ...rows)));
}

function row(headings: string[], cells: (string | Node)[], attrs: Record<string, string> = {}): HTMLElement {
  // data-label: on a phone each row becomes a card and every cell says what it is
  return h("tr", attrs, ...cells.map((c, i) => h("td", { "data-label": headings[i] }, c)));
}

function signIn(note?: string): void {
  clear(root);
  const error = h("p", { class: "office-error", role: "alert", "data-testid": "office-error", hidden: true });
  const name = h("input", { id: "office-name", name: "name", autocomplete: "username", required: true, maxlength: 64 });
  const password = h("input", { id: "office-password", name: "password", type: "password", autocomplete: "current-password", required: true });
  const form = h("form", { class: "office-signin", "data-testid": "office-signin" },
    h("h1", {}, "reelforge back office"),
    note ? message(note, "note") : null,
    h("label", { for: "office-name" }, "Name"), name,
    h("label", { for: "office-password" }, "Password"), password,
    h("button", { type: "submit", "data-testid": "office-signin-submit" }, "Sign in"), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await call<Me>("POST", "/session", { name: name.value, password: password.value });
      await dashboard();
    } catch (exc) {
      error.textContent = (exc as Error).message;
      error.hidden = false;
    }
  });
  root.append(form);
  name.focus();
}

async function dashboard(): Promise<void> {
  let me: Me;
  try {
    me = await call<Me>("GET", "/session");
  } catch (exc) {
    signIn(exc instanceof OfficeError && exc.code === "SESSION_EXPIRED" ? exc.message : undefined);
    return;
  }
  clear(root);
  const day = utcDay();
  const signOut = h("button", { type: "button", class: "office-quiet", "data-testid": "office-signout" }, "Sign out");
  signOut.addEventListener("click", async () => {
    await call("DELETE", "/session").catch(() => undefined);
    signIn("Signed out.");
  });
  const meters = h("section", { "aria-labelledby": "office-meters-h", "data-testid": "office-meters" });
  const rtp = h("section", { "aria-labelledby": "office-rtp-h", "data-testid": "office-rtp" });
  const held = h("section", { "aria-labelledby": "office-held-h", "data-testid": "office-held" });
  const large = h("section", { "aria-labelledby": "office-large-h", "data-testid": "office-large" });
  const games = h("section", { "aria-labelledby": "office-games-h", "data-testid": "office-games" });
  const pools = h("section", { "aria-labelledby": "office-pools-h", "data-testid": "office-pools" });
  const claims = h("section", { "aria-labelledby": "office-claims-h", "data-testid": "office-claims" });
  const corrections = h("section", { "aria-labelledby": "office-corrections-h", "data-testid": "office-corrections" });
  const events = h("section", { "aria-labelledby": "office-events-h", "data-testid": "office-events" });
  root.append(
    h("header", { class: "office-header" },
      h("h1", {}, "Back office"),
      h("span", { "data-testid": "office-who" }, `${me.name} · ${me.role}`), signOut),
    meters, rtp, held, large, games, pools, claims, corrections, events);
  const mayControl = me.may.includes("control");
  const reports = h("div", { "data-testid": "office-reports" });
  rtp.after(reports); // the chart, the monitor's alerts and the lookups, after the RTP table
  await Promise.all([showMeters(meters, day), showRtp(rtp, day), showHeld(held), showLarge(large, day), showGames(games, mayControl), showPools(pools, mayControl), showReports(reports, day, mayControl),
    showClaims(claims, mayControl), showCorrections(corrections, mayControl, me.name), showEvents(events, day)]);
}

async function showMeters(section: HTMLElement, day: string): Promise<void> {
  clear(section);
  const refresh = h("button", { type: "button", class: "office-quiet", "data-testid": "office-meters-refresh" }, "Refresh");
  refresh.addEventListener("click", () => void showMeters(section, day));
  const csv = h("a", { href: `/backoffice/api/meters.csv?from=${day}&to=${day}`, download: `meters-${day}.csv`, "data-testid": "office-meters-csv" }, "Download CSV");
  section.append(h("div", { class: "office-bar" }, h("h2", { id: "office-meters-h" }, `Today's meters (${day}, UTC)`), refresh, csv));
  try {
    const { meters } = await call<{ meters: MeterRow[] }>("GET", `/meters?from=${day}&to=${day}`);
    if (!meters.length) {
      section.append(message("No rounds today yet.", "note"));
      return;
    }
    section.append(table("office-meters-table", METER_HEADINGS, meters.map((m) =>
      row(METER_HEADINGS, meterCells(m), { "data-game": `${m.operator}/${m.game}/${m.mode}/${m.currency}` }))));
    const sums = [...totals(meters)].map(([currency, t]) =>
      `${currency}: ${t.rounds} round${t.rounds === 1 ? "" : "s"}, turnover ${formatMoney(t.turnover, currency)}, wins ${formatMoney(t.wins, currency)}, hold ${formatMoney(t.turnover - t.wins, currency)}`);
    section.append(h("p", { class: "office-totals", "data-testid": "office-meters-totals" }, sums.join(" · ")));
  } catch (exc) {
    section.append(message((exc as Error).message));
  }
}

// A game's exact SD costs the server seconds the first time (then it is cached): a longer wait.
const RTP_TIMEOUT_MS = 120000;

async function showRtp(section: HTMLElement, day: string): Promise<void> {
  clear(section);
  section.append(h("h2", { id: "office-rtp-h" }, `Actual against theoretical RTP (${day}, UTC)`));
  const waiting = message("Computing each game's band…", "note");
  section.append(waiting);
  try {
    const { rtp } = await call<{ rtp: RtpRow[] }>("GET", `/rtp?from=${day}&to=${day}`, undefined, RTP_TIMEOUT_MS);
    waiting.remove();
    if (!rtp.length) {
      section.append(message("No closed rounds today yet.", "note"));
      return;
    }
    section.append(table("office-rtp-table", RTP_HEADINGS, rtp.map((r) =>
      row(RTP_HEADINGS, rtpCells(r), { "data-game": `${r.operator}/${r.game}/${r.mode}/${r.currency}`, "data-state": r.inside === false ? "off" : "on" }))));
    section.append(message("The band: where the actual RTP lies 99 times in 100 if the game pays as its figures say, at the stakes played today.", "note"));
  } catch (exc) {
    waiting.remove();
    section.append(message((exc as Error).message));
  }
}

function time(us: number): string {
  return new Date(us / 1000).toISOString().slice(11, 19) + " UTC";
}

const HELD_HEADINGS = ["Round", "Operator", "Player", "Game", "Status", "Stake", "Since"];

async function showHeld(section: HTMLElement): Promise<void> {
  clear(section);
  section.append(h("h2", { id: "office-held-h" }, "Funds in unfinished rounds"));
  try {
    const found = await call<HeldView>("GET", "/held");
    if (!found.rounds.length) {
      section.append(message("No round is unfinished.", "note"));
      return;
    }
    section.append(h("p", { class: "office-totals", "data-testid": "office-held-totals" }, found.totals.map((t) =>
      `${t.operator}: ${t.open_rounds} unfinished, stakes held ${formatMoney(t.stakes_held_minor, t.currency)}`).join(" · ")));
    section.append(table("office-held-table", HELD_HEADINGS, found.rounds.map((r) =>
      row(HELD_HEADINGS, [r.round_id, r.operator, r.player, r.game, r.status, formatMoney(r.stake_minor, r.currency), time(r.started_at_us)]))));
  } catch (exc) {
    section.append(message((exc as Error).message));
  }
}

const LARGE_X = 100;
const LARGE_HEADINGS = ["Round", "Operator", "Player", "Game", "Stake", "Win", "x stake", "At"];
const CLAIM_HEADINGS = ["Claim", "Round", "Pool", "Player", "Game", "Amount", "Status", "At"];

async function showLarge(section: HTMLElement, day: string): Promise<void> {
  clear(section);
  const csv = h("a", { href: `/backoffice/api/large-wins.csv?from=${day}&to=${day}&min_x=${LARGE_X}`, download: `large-wins-${day}.csv` }, "Download CSV");
  section.append(h("div", { class: "office-bar" }, h("h2", { id: "office-large-h" }, `Large wins (${LARGE_X}x stake or more) and jackpot claims today`), csv));
  try {
    const found = await call<LargeWinsView>("GET", `/large-wins?from=${day}&to=${day}&min_x=${LARGE_X}`);
    if (!found.wins.length && !found.jackpot_claims.length) {
      section.append(message("None today.", "note"));
      return;
    }
    if (found.wins.length) section.append(table("office-large-table", LARGE_HEADINGS, found.wins.map((w) =>
      row(LARGE_HEADINGS, [w.round_id, w.operator, w.player, w.game, formatMoney(w.stake_minor, w.currency), formatMoney(w.win_minor, w.currency), `${Math.round(w.x)}x`, time(w.at_us)]))));
    if (found.jackpot_claims.length) section.append(table("office-claims-table", CLAIM_HEADINGS, found.jackpot_claims.map((c) =>
      row(CLAIM_HEADINGS, [String(c.claim_id), c.round_id, c.pool, c.player, c.game, formatMoney(c.amount_minor, c.currency), c.status, time(c.at_us)]))));
  } catch (exc) {
    section.append(message((exc as Error).message));
  }
}

const GAME_HEADINGS = ["Operator", "Game", "Variant", "State", "Available since", ""];

function date(us: number | null): string {
  return us === null ? "—" : new Date(us / 1000).toISOString().slice(0, 10);
}

async function showGames(section: HTMLElement, mayControl: boolean): Promise<void> {
  clear(section);
  section.append(h("h2", { id: "office-games-h" }, "Games"));
  const error = h("p", { class: "office-error", role: "alert", hidden: true });
  try {
    const { games } = await call<{ games: GameRow[] }>("GET", "/games");
    section.append(table("office-games-table", GAME_HEADINGS, games.map((g) => {
      const state = g.status === "decommissioned" ? `decommissioned ${date(g.decommissioned_at_us)}`
        : !g.file_enabled ? "off (configuration file)" : g.enabled ? "on" : `off (by ${g.switched_by ?? "staff"})`;
      const button = h("button", {
        type: "button", "data-testid": `office-game-${g.operator}-${g.game}`,
        disabled: !mayControl || !g.file_enabled,
        title: mayControl ? undefined : "Only a manager may switch a game",
      }, g.switch_enabled ? "Disable" : "Enable");
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          await call("PUT", "/games", { operator: g.operator, game: g.game, enabled: !g.switch_enabled });
          await showGames(section, mayControl);
        } catch (exc) {
          error.textContent = (exc as Error).message;
          error.hidden = false;
          button.disabled = false;
        }
      });
      return row(GAME_HEADINGS, [g.operator, g.game, g.game_id, state, date(g.available_since_us), button],
        { "data-state": g.enabled ? "on" : "off", "data-testid": `office-game-row-${g.operator}-${g.game}` });
    })), error);
    if (!mayControl) section.append(message("Only a manager may switch games and jackpots.", "note"));
  } catch (exc) {
    section.append(message((exc as Error).message));
  }
}

const POOL_HEADINGS = ["Pool", "Amount", "Seed", "Ceiling", "Overflow", "Contribution", "Odds per round", "Wins", "State", ""];

async function showPools(section: HTMLElement, mayControl: boolean): Promise<void> {
  clear(section);
  section.append(h("h2", { id: "office-pools-h" }, "Jackpots"));
  const error = h("p", { class: "office-error", role: "alert", hidden: true });
  try {
    const { jackpots } = await call<{ jackpots: PoolRow[] }>("GET", "/jackpots");
    if (!jackpots.length) {
      section.append(message("No jackpot pools.", "note"));
      return;
    }
    section.append(table("office-pools-table", POOL_HEADINGS, jackpots.map((p) => {
      const button = h("button", {
        type: "button", "data-testid": `office-pool-${p.pool}`, disabled: !mayControl,
        title: mayControl ? undefined : "Only a manager may disable or resume a jackpot",
      }, p.enabled ? "Disable" : "Resume");
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          await call("PUT", "/jackpots", { pool: p.pool, enabled: !p.enabled });
          await showPools(section, mayControl);
        } catch (exc) {
          error.textContent = (exc as Error).message;
          error.hidden = false;
          button.disabled = false;
        }
      });
      return row(POOL_HEADINGS, [p.pool, formatMoney(p.amount_minor, p.currency), formatMoney(p.seed_minor, p.currency),
        p.ceiling_minor === null ? "none" : formatMoney(p.ceiling_minor, p.currency), formatMoney(p.overflow_minor, p.currency),
        `${(p.contribution_bp / 100).toFixed(2)}%`,
        p.games.map((g) => `${g.game}: ${g.one_in_rounds === null ? "—" : `1 in ${g.one_in_rounds.toLocaleString("en")}`}`).join(", ") || "no game",
        String(p.wins), p.status === "decommissioned" ? `decommissioned ${date(p.decommissioned_at_us)}` : p.enabled ? "on" : "disabled", button],
      { "data-state": p.enabled ? "on" : "off" });
    })), error);
  } catch (exc) {
    section.append(message((exc as Error).message));
  }
}

void dashboard();
