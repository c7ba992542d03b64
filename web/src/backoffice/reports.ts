// The back office's report and lookup sections: the RTP chart per game and mode (E6), the live
// monitor's alerts with a manager's "check now" (E5), a player looked up (balance, sessions
// with elapsed time and net position: C6) and a round looked up in full. Everything shown
// comes from /backoffice/api; a refused action shows the server's own sentence.
import { clear, h } from "../ui/dom";
import { formatMoney, formatPercent } from "../core/money";
import { call } from "./api";
import { chartGeometry, type SeriesPoint } from "./chart";

const SVG = "http://www.w3.org/2000/svg";
const CHART_DAYS = 30;
const RTP_TIMEOUT_MS = 120000; // a game's exact SD costs the server seconds the first time

interface RtpKey { operator: string; game: string; mode: string; currency: string; rounds: number }
export interface Alert {
  alert_id: number; operator: string; game: string; mode: string; currency: string; rounds: number;
  actual_rtp: number; theoretical_rtp: number; z: number; band: [number, number]; arithmetic: string;
  at_us: number; webhook: string | null;
}
interface PlayerView {
  player: string; operator: string; currency: string; jurisdiction: string; balance_minor: number | null;
  rounds: number; staked_minor: number; won_minor: number;
  sessions: { session_id: number; started_at_us: number; live: boolean; elapsed_s: number; rounds: number; net_minor: number; balance_at_start_minor: number }[];
  open_rounds: { round_id: string; game: string; status: string; stake_minor: number }[];
  recent_rounds: { round_id: string; game: string; status: string; stake_minor: number; win_minor: number | null; at_us: number }[];
}
interface RoundView {
  round_id: string; operator: string; player: string; game: string; game_id: string; status: string; currency: string;
  stake_minor: number; win_minor: number | null; seed: string | null; funded_by: string | null;
  outcome: { total_win?: number } | null; created_at_us: number;
  steps: { step: number; kind: string; choice: unknown; seed: string; at_us: number }[];
  ledger: { txn: string; account: string; amount_minor: number; balance_after_minor: number; kind: string; step: number | null }[];
}

function note(text: string, kind: "error" | "note" = "note"): HTMLElement {
  return h("p", { class: `office-${kind}`, role: kind === "error" ? "alert" : "status" }, text);
}

function grid(testid: string, headings: string[], rows: (string | Node)[][]): HTMLElement {
  return h("div", { class: "office-scroll" }, h("table", { "data-testid": testid },
    h("thead", {}, h("tr", {}, ...headings.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, ...rows.map((cells) => h("tr", {}, ...cells.map((c, i) => h("td", { "data-label": headings[i] }, c)))))));
}

function when(us: number): string {
  return new Date(us / 1000).toISOString().replace("T", " ").slice(0, 19) + " UTC";
}

function daysBefore(day: string, n: number): string {
  const d = new Date(day + "T00:00:00Z");
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The chart as inline SVG: band shaded, expected dashed, actual line with a dot per day (red
 * where outside the band). */
export function drawChart(points: SeriesPoint[]): SVGSVGElement {
  const g = chartGeometry(points);
  const root = svg("svg", { viewBox: `0 0 ${g.width} ${g.height}`, width: "100%", role: "img", "data-testid": "office-rtp-chart", class: "office-chart" });
  const title = svg("title", {});
  title.textContent = "Actual RTP against rounds played, with the expected RTP and its band";
  root.append(title);
  for (const t of g.yTicks) {
    root.append(svg("line", { x1: 48, x2: g.width - 12, y1: t.y, y2: t.y, stroke: "#e6eaf0" }));
    const label = svg("text", { x: 44, y: t.y + 4, "text-anchor": "end", "font-size": 11, fill: "#4a5568" });
    label.textContent = t.label;
    root.append(label);
  }
  for (const t of g.xTicks) {
    const label = svg("text", { x: t.x, y: g.height - 8, "text-anchor": "middle", "font-size": 11, fill: "#4a5568" });
    label.textContent = t.label;
    root.append(label);
  }
  if (g.band) root.append(svg("path", { d: g.band, fill: "#bfdbfe", "fill-opacity": 0.6, stroke: "none", "data-testid": "office-rtp-band" }));
  if (g.expected) root.append(svg("path", { d: g.expected, fill: "none", stroke: "#1d4ed8", "stroke-dasharray": "5 4" }));
  root.append(svg("path", { d: g.actual, fill: "none", stroke: "#0f172a", "stroke-width": 2, "data-testid": "office-rtp-actual" }));
  for (const d of g.dots) {
    const dot = svg("circle", { cx: d.x, cy: d.y, r: 3.5, fill: d.inside === false ? "#dc2626" : "#0f172a" });
    const tip = svg("title", {});
    tip.textContent = d.label;
    dot.append(tip);
    root.append(dot);
  }
  return root;
}

async function showChart(section: HTMLElement, day: string): Promise<void> {
  clear(section);
  const from = daysBefore(day, CHART_DAYS - 1);
  section.append(h("h2", { id: "office-chart-h" }, `RTP chart (${from} to ${day}, UTC)`));
  const picker = h("select", { id: "office-chart-game", "data-testid": "office-chart-game", "aria-label": "Game and mode" });
  const holder = h("div", {});
  section.append(picker, holder);
  try {
    const { rtp } = await call<{ rtp: RtpKey[] }>("GET", `/rtp?from=${from}&to=${day}`, undefined, RTP_TIMEOUT_MS);
    if (!rtp.length) {
      section.append(note("No rounds in the period yet."));
      picker.hidden = true;
      return;
    }
    for (const r of rtp) picker.append(h("option", { value: JSON.stringify(r) }, `${r.operator} · ${r.game} · ${r.mode} · ${r.currency} (${r.rounds} rounds)`));
    const draw = async () => {
      clear(holder);
      const k = JSON.parse(picker.value) as RtpKey;
      const q = new URLSearchParams({ from, to: day, operator: k.operator, game: k.game, mode: k.mode, currency: k.currency });
      try {
        const { points } = await call<{ points: SeriesPoint[] }>("GET", `/rtp/series?${q}`, undefined, RTP_TIMEOUT_MS);
        holder.append(drawChart(points));
        const last = points[points.length - 1];
        if (last === undefined) return;
        holder.append(note(last.band === null ? "This game has no SD to draw a band from."
          : `After ${last.rounds} rounds: actual ${formatPercent(last.actual_rtp)}, expected ${formatPercent(last.theoretical_rtp ?? 0)}, 99% band ${formatPercent(Math.max(0, last.band[0]))} to ${formatPercent(last.band[1])}: ${last.inside ? "inside" : "OUTSIDE"}.`));
      } catch (exc) {
        holder.append(note((exc as Error).message, "error"));
      }
    };
    picker.addEventListener("change", () => void draw());
    await draw();
  } catch (exc) {
    section.append(note((exc as Error).message, "error"));
  }
}

const ALERT_HEADINGS = ["Alert", "At", "Game", "Rounds", "Actual", "Expected", "z", "Webhook", "Arithmetic"];

async function showAlerts(section: HTMLElement, mayControl: boolean): Promise<void> {
  clear(section);
  const check = h("button", { type: "button", "data-testid": "office-monitor-check", disabled: !mayControl,
    title: mayControl ? undefined : "Only a manager may run the check" }, "Check now");
  const result = h("p", { class: "office-note", role: "status", "data-testid": "office-monitor-result", hidden: true });
  check.addEventListener("click", async () => {
    check.disabled = true;
    try {
      const found = await call<{ checked: unknown[]; raised: Alert[] }>("POST", "/monitor/check", undefined, RTP_TIMEOUT_MS);
      await showAlerts(section, mayControl);
      const shown = section.querySelector("[data-testid=office-monitor-result]") as HTMLElement;
      shown.textContent = `Checked ${found.checked.length} game${found.checked.length === 1 ? "" : "s"}: ${found.raised.length} new alert${found.raised.length === 1 ? "" : "s"}.`;
      shown.hidden = false;
    } catch (exc) {
      result.textContent = (exc as Error).message;
      result.hidden = false;
      check.disabled = false;
    }
  });
  section.append(h("div", { class: "office-bar" }, h("h2", { id: "office-alerts-h" }, "Live RTP monitor: alerts"), check), result);
  try {
    const { alerts } = await call<{ alerts: Alert[] }>("GET", "/alerts");
    if (!alerts.length) {
      section.append(note("No alert: every game checked is inside its band."));
      return;
    }
    section.append(grid("office-alerts-table", ALERT_HEADINGS, alerts.map((a) => [String(a.alert_id), when(a.at_us),
      `${a.operator} · ${a.game} · ${a.mode} · ${a.currency}`, String(a.rounds), formatPercent(a.actual_rtp),
      formatPercent(a.theoretical_rtp), a.z.toFixed(2), a.webhook ?? "—", h("span", { class: "office-wrap" }, a.arithmetic)])));
  } catch (exc) {
    section.append(note((exc as Error).message, "error"));
  }
}

function lookupForm(id: string, fields: { name: string; label: string; max: number }[], submit: string,
  onSubmit: (values: string[]) => Promise<void>): HTMLElement {
  const inputs = fields.map((f) => h("input", { id: `${id}-${f.name}`, name: f.name, required: true, maxlength: f.max, "data-testid": `${id}-${f.name}` }));
  const form = h("form", { class: "office-bar", "data-testid": id },
    ...fields.flatMap((f, i) => [h("label", { for: `${id}-${f.name}` }, f.label), inputs[i]]),
    h("button", { type: "submit" }, submit));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void onSubmit(inputs.map((i) => i.value.trim()));
  });
  return form;
}

async function showRound(out: HTMLElement, roundId: string): Promise<void> {
  clear(out);
  try {
    const r = await call<RoundView>("GET", `/rounds/${encodeURIComponent(roundId)}`);
    out.append(h("p", { class: "office-totals", "data-testid": "office-round-summary" },
      `${r.round_id}: ${r.operator} · player ${r.player} · ${r.game} (${r.game_id}) · ${r.status} · stake ${formatMoney(r.stake_minor, r.currency)} · win ${r.win_minor === null ? "—" : formatMoney(r.win_minor, r.currency)} · started ${when(r.created_at_us)}${r.funded_by ? ` · funded by ${r.funded_by}` : ""}`),
    h("p", { class: "office-note" }, `Seed ${r.seed ?? "—"}; the outcome's win: ${r.outcome?.total_win ?? "—"} credits.`));
    if (r.steps.length) out.append(grid("office-round-steps", ["Step", "Kind", "Choice", "Seed", "At"],
      r.steps.map((s) => [String(s.step), s.kind, JSON.stringify(s.choice), s.seed.slice(0, 16) + "…", when(s.at_us)])));
    out.append(grid("office-round-ledger", ["Transaction", "Account", "Kind", "Step", "Amount", "Balance after"],
      r.ledger.map((m) => [m.txn, m.account, m.kind, m.step === null ? "" : String(m.step), formatMoney(m.amount_minor, r.currency), formatMoney(m.balance_after_minor, r.currency)])));
  } catch (exc) {
    out.append(note((exc as Error).message, "error"));
  }
}

async function showPlayer(out: HTMLElement, roundOut: HTMLElement, operator: string, player: string): Promise<void> {
  clear(out);
  try {
    const p = await call<PlayerView>("GET", `/players/${encodeURIComponent(operator)}/${encodeURIComponent(player)}`);
    const money = (v: number) => formatMoney(v, p.currency);
    out.append(h("p", { class: "office-totals", "data-testid": "office-player-summary" },
      `${p.operator} · ${p.player} (${p.jurisdiction}, ${p.currency}): balance ${p.balance_minor === null ? "—" : money(p.balance_minor)} · ${p.rounds} rounds, staked ${money(p.staked_minor)}, won ${money(p.won_minor)}`));
    out.append(grid("office-player-sessions", ["Session", "Started", "Time", "Rounds", "Net position", "State"],
      p.sessions.map((s) => [String(s.session_id), when(s.started_at_us),
        `${Math.floor(s.elapsed_s / 60)} min ${s.elapsed_s % 60} s`, String(s.rounds),
        (s.net_minor > 0 ? "+" : "") + money(s.net_minor), s.live ? "live" : "ended"])));
    out.append(grid("office-player-rounds", ["Round", "Game", "Status", "Stake", "Win", "At"],
      p.recent_rounds.map((r) => {
        const link = h("button", { type: "button", class: "office-quiet" }, r.round_id);
        link.addEventListener("click", () => void showRound(roundOut, r.round_id));
        return [link, r.game, r.status, money(r.stake_minor), r.win_minor === null ? "—" : money(r.win_minor), when(r.at_us)];
      })));
  } catch (exc) {
    out.append(note((exc as Error).message, "error"));
  }
}

/** The report sections, appended to `root` (the dashboard's page). */
export async function showReports(root: HTMLElement, day: string, mayControl: boolean): Promise<void> {
  const chart = h("section", { "aria-labelledby": "office-chart-h", "data-testid": "office-chart" });
  const alerts = h("section", { "aria-labelledby": "office-alerts-h", "data-testid": "office-alerts" });
  const playerOut = h("div", { "data-testid": "office-player" });
  const roundOut = h("div", { "data-testid": "office-round" });
  const lookups = h("section", { "aria-labelledby": "office-lookup-h", "data-testid": "office-lookup" },
    h("h2", { id: "office-lookup-h" }, "Look up a player or a round"),
    lookupForm("office-player-form", [{ name: "operator", label: "Operator", max: 64 }, { name: "player", label: "Player", max: 128 }], "Find player",
      ([operator, player]) => showPlayer(playerOut, roundOut, operator ?? "", player ?? "")),
    playerOut,
    lookupForm("office-round-form", [{ name: "round", label: "Round id", max: 36 }], "Find round", ([id]) => showRound(roundOut, id ?? "")),
    roundOut);
  root.append(chart, alerts, lookups);
  await Promise.all([showChart(chart, day), showAlerts(alerts, mayControl)]);
}
