// The history page as a player reads it, at 1440x900 and 390x844: rounds played through the API
// (a win every round on cluedo-e2e-win-v1 with a gamble's TAKE HALF, a guess and COLLECT; free
// spins on cluedo-e2e-fs-v1; a Big Money bonus and its trail on cops-n-robbers-e2e-bonus-v1;
// Free Spins with jars and tumbles on candy-jar-clusters-e2e-fs-v1), then the list: the game's
// title, the time in the browser's zone, stake, win and balance in currency equal to the API's,
// the status in words, no round id on screen; a round opened: its screens drawn with the game's
// art and stepped through, the plain account (each line built here from the round's own events
// and steps, as the API gives them), the verified mark, the short round reference and its copy.
// The browser runs in Asia/Kathmandu (UTC+05:45): a time shown in UTC, or in any whole-hour
// zone, cannot match.
import { randomUUID } from "node:crypto";
import { WEB } from "./server.mjs";
import { decodePng } from "./png.mjs";

const GAMES = `${WEB}/tests/e2e/games`;
const WIN = { operator: "demo", key: "cluedo-win", gameFile: `${GAMES}/cluedo-e2e-win-v1.toml` };
const FS = { operator: "demo", key: "cluedo-fs", gameFile: `${GAMES}/cluedo-e2e-fs-v1.toml` };
const BONUS = { operator: "demo", key: "cops-n-robbers-bonus", gameFile: `${GAMES}/cops-n-robbers-e2e-bonus-v1.toml` };
const CANDY = { operator: "demo", key: "candy-fs", gameFile: `${GAMES}/candy-jar-clusters-e2e-fs-v1.toml` };
const ZONE = "Asia/Kathmandu";
const CONTEXT = { timezoneId: ZONE, locale: "en-GB", permissions: ["clipboard-read", "clipboard-write"] };

function expect(cond, message) {
  if (!cond) throw new Error(message);
}

function money(minor, symbol = "€") {
  const b = BigInt(minor);
  const a = b < 0n ? -b : b;
  return `${b < 0n ? "-" : ""}${symbol}${(a / 100n).toLocaleString("en")}.${String(a % 100n).padStart(2, "0")}`;
}

const n = (x) => x.toLocaleString("en");
const credits = (x) => `${n(x)} credit${x === 1 ? "" : "s"}`;
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** The date and the time of `us` in `zone`, as the en-GB locale writes them. */
function zoned(us, zone) {
  const d = new Date(Math.floor(us / 1000));
  const date = new Intl.DateTimeFormat("en-GB", { timeZone: zone, day: "numeric", month: "short", year: "numeric" }).format(d);
  const time = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(d);
  return { date, time };
}

async function lobby(t) {
  await t.page.goto(`${t.base}/demo?operator=demo`);
  await t.page.locator("[data-testid=lobby]").waitFor({ timeout: 150000 });
}

const post = (t, path, body) => t.api(path, { method: "POST", body: JSON.stringify({ request_id: randomUUID(), ...body }) });

/** One round at the game's default bet, straight through the API. */
async function bet(t, key) {
  const game = await t.api(`/api/v1/games/${key}`);
  const b = game.default_bet ?? game.bets[0];
  const round = await post(t, `/api/v1/games/${key}/rounds`, { lines: b.lines, bet_per_line: b.bet_per_line, mode: "base" });
  expect(round.round_id, `no round from ${key}: ${JSON.stringify(round).slice(0, 300)}`);
  return round;
}

/** Steps until the round closes: `choices` first (e.g. half, red), then whatever collects. */
async function settle(t, round, choices = []) {
  for (let i = 0; round.choice && i < 20; i++) {
    const [kind, offered] = Object.entries(round.choice.choices)[0];
    const wanted = choices.shift();
    const choice = wanted !== undefined && offered.some((c) => JSON.stringify(c) === JSON.stringify(wanted)) ? wanted
      : offered.find((c) => JSON.stringify(c) === JSON.stringify(["collect"]) || c === "collect" || c === "decline");
    round = await post(t, `/api/v1/rounds/${round.round_id}/steps`, { kind, choice });
    expect(round.round_id, `step ${kind} ${JSON.stringify(choice)}: ${JSON.stringify(round).slice(0, 300)}`);
  }
  expect(round.status === "closed", `round ${round.round_id} is ${round.status}`);
  return t.api(`/api/v1/rounds/${round.round_id}`);
}

async function openHistory(t) {
  await t.page.click("[data-testid=nav-history]");
  await t.page.locator("[data-testid=history-row]").first().waitFor({ timeout: 30000 });
}

async function noSideScroll(t, what) {
  const wide = await t.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(wide <= 1, `${what}: the page scrolls sideways by ${wide} px`);
}

/** Each row: the game's title, the time in the zone, stake, win (and balance) in currency. */
async function checkList(t, rounds, titles) {
  const shown = await t.page.locator("[data-testid=history-row]").count();
  expect(shown === rounds.length, `history shows ${shown} rounds, the server has ${rounds.length}`);
  for (const r of rounds) {
    const row = t.page.locator(`[data-testid=history-row][data-round="${r.round_id}"]`);
    const title = await row.locator("[data-testid=history-title]").innerText();
    expect(title === titles[r.game], `row ${r.round_id}: title ${title}, the game's is ${titles[r.game]}`);
    const when = await row.locator("[data-testid=history-time]").innerText();
    const { date, time } = zoned(r.created_at_us, ZONE);
    expect(when.includes(date) && when.includes(time), `row time ${when}: not ${date} ${time} (${ZONE})`);
    const utc = zoned(r.created_at_us, "UTC").time;
    expect(!when.includes(utc), `row time ${when} is UTC's ${utc}`);
    const status = await row.locator("[data-testid=history-status]").innerText();
    // a round whose win waits on its gamble: what is at stake there, from the round's own view
    const open = r.status === "closed" || r.status === "cancelled" ? null : await t.api(`/api/v1/rounds/${r.round_id}`);
    const held = open?.choice && open.pending_win_credits > 0 ? open.pending_win_credits * open.denomination : null;
    const words = { closed: "Played", cancelled: "Cancelled" }[r.status] ?? (held === null ? "In progress" : open.steps.length ? "In gamble" : "Win waiting");
    expect(status === words, `row status ${status} for a round ${r.status}`);
    const stake = await row.locator("[data-testid=history-stake] .value").innerText();
    expect(stake === money(r.stake_minor), `row stake ${stake}, the API's ${money(r.stake_minor)}`);
    if (held !== null) {
      const stake = await row.locator("[data-testid=history-at-stake] .value").innerText();
      expect(stake === money(held), `row at stake ${stake}, the round's pending win ${money(held)}`);
      expect(!(await row.locator("[data-testid=history-win]").count()), "a round in its gamble shows a win");
    } else {
      const win = await row.locator("[data-testid=history-win] .value").innerText();
      expect(win === (r.win_minor === null ? "—" : money(r.win_minor)), `row win ${win}, the API's ${r.win_minor}`);
    }
    if (typeof r.balance_after_minor === "number") {
      const balance = await row.locator("[data-testid=history-balance] .value").innerText();
      expect(balance === money(r.balance_after_minor), `row balance ${balance}, the API's ${money(r.balance_after_minor)}`);
    }
  }
  await richRows(t, rounds);
  const text = await t.page.locator("[data-testid=history]").innerText();
  for (const r of rounds) {
    expect(!text.includes(r.round_id), `the round id ${r.round_id} is on screen`);
    expect(!text.includes(r.game) || titles[r.game].toLowerCase().includes(r.game), `the game key ${r.game} is on screen`);
  }
  for (const dev of ["base_lines", "outcome_committed", "\"collect\"", "UTC"]) expect(!text.includes(dev), `the page shows ${dev}`);
}

/** Each row as a player scans it (the reviewer: "bare text cards"): the game's own picture,
 * the win large when the round paid (a row that paid nothing in plain ink), and a badge for each
 * feature the round had, from the round's own view as the API gives it. */
async function richRows(t, rounds) {
  await t.page.waitForFunction((n) => document.querySelectorAll("[data-testid=history-row][data-features]").length === n, rounds.length, { timeout: 30000 });
  const collect = (c) => c === "collect" || (Array.isArray(c) && c[0] === "collect");
  for (const r of rounds) {
    const row = t.page.locator(`[data-testid=history-row][data-round="${r.round_id}"]`);
    const icon = await row.locator("[data-testid=history-icon] svg").boundingBox();
    expect(icon && icon.width >= 40 && icon.height >= 40, `row ${r.round_id}: no picture of its game (${JSON.stringify(icon)})`);
    const view = await t.api(`/api/v1/rounds/${r.round_id}`);
    const kinds = new Set((view.outcome?.spins ?? []).map((s) => s.kind));
    const want = [
      kinds.has("free") || kinds.has("super") ? "free-spins" : null,
      kinds.has("bonus") || view.steps.some((s) => s.result?.bonus_outcome) ? "bonus" : null,
      view.steps.some((s) => s.kind === "gamble" && !collect(s.choice)) ? "gamble" : null,
      (r.jackpot_minor ?? 0) > 0 ? "jackpot" : null,
    ].filter(Boolean);
    const shown = await row.locator("[data-testid=history-badge]").evaluateAll((els) => els.map((e) => e.dataset.feature));
    expect(JSON.stringify(shown) === JSON.stringify(want), `row ${r.round_id}: badges ${shown}, the round had ${want}`);
    const held = r.status !== "closed" && view.choice && view.pending_win_credits > 0;
    const paid = (r.win_minor ?? 0) > 0 || (r.jackpot_minor ?? 0) > 0 || held;
    expect((await row.getAttribute("data-won")) === String(paid), `row ${r.round_id}: data-won ${await row.getAttribute("data-won")}, it paid ${paid}`);
    const [win, stake] = await row.evaluate((li) => ["[data-testid=history-win] .value, [data-testid=history-at-stake] .value", "[data-testid=history-stake] .value"]
      .map((q) => { const cs = getComputedStyle(li.querySelector(q)); return { size: parseFloat(cs.fontSize), color: cs.color }; }));
    if (paid) expect(win.size >= 1.3 * stake.size && win.color !== stake.color, `row ${r.round_id} paid, its win (${JSON.stringify(win)}) not set apart from its stake (${JSON.stringify(stake)})`);
    else expect(win.size < 1.3 * stake.size, `row ${r.round_id} paid nothing, its win drawn large (${JSON.stringify(win)})`);
  }
}

/** Every option of the page's selects reads whole in its box (at 390 px the round's screen
 * names and the games' titles were cut off). */
async function selectsFit(t, what) {
  const cut = await t.page.evaluate(() => [...document.querySelectorAll("[data-testid=history] select")].filter((s) => s.offsetParent).flatMap((s) => {
    const cs = getComputedStyle(s);
    const ctx = document.createElement("canvas").getContext("2d");
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    // the box less its padding, its borders and the menu's arrow (about 20 px)
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
    return [...s.options].filter((o) => ctx.measureText(o.text).width > room).map((o) => `${s.dataset.testid}: "${o.text}" (${Math.round(ctx.measureText(o.text).width)} px in ${room})`);
  }));
  expect(!cut.length, `${what}: select labels cut off: ${cut.join("; ")}`);
}

/** The round's replay on a phone: the screens from edge to edge, the reels and the round's
 * steps only, none of the signs live play shows under the reels. */
async function phoneReplay(t, what) {
  const box = await t.page.locator("[data-testid=replay]").boundingBox();
  expect(box && box.width >= 390 - 2, `${what}: the replay is ${box?.width} px wide of the phone's 390`);
  const signs = await t.page.locator("[data-testid=replay] :is([data-testid=cluedo-band], [data-testid=cops-band], [data-testid=candy-mod-legend])").evaluateAll((els) => els.filter((e) => e.getClientRects().length && getComputedStyle(e).display !== "none").map((e) => e.dataset.testid));
  expect(!signs.length, `${what}: the replay draws live play's signs: ${signs}`);
  await selectsFit(t, what);
}

/** The account's lines as shown (headings and lines, in order). */
async function accountShown(t) {
  return t.page.locator("[data-testid=round-account] li").allInnerTexts();
}

function expectInOrder(shown, expected, what) {
  let at = 0;
  for (const line of expected) {
    const i = shown.indexOf(line, at);
    expect(i >= 0, `${what}: no line "${line}" (after line ${at}) in:\n${shown.join("\n")}`);
    at = i + 1;
  }
}

/** The gamble's lines, from the round's steps as the API gives them. */
function gambleLines(round) {
  const lines = ["Gamble"];
  let before = round.outcome.total_win;
  for (const step of round.steps) {
    const s = step.result.state;
    if (step.choice === "half") lines.push(`Took half: ${credits(s.banked)} banked, ${credits(s.amount)} still at stake`);
    else if (step.choice === "collect") lines.push(`Collected: ${credits(step.result.paid_credits)}`);
    else if (s.last_card === step.choice) lines.push(`${cap(step.choice)} — won (${n(before)} → ${credits(s.amount)})`);
    else lines.push(`${cap(step.choice)} — lost (the card was ${s.last_card}): ${credits(before)} lost`);
    before = s.amount;
  }
  return lines;
}

async function openRound(t, id) {
  // An opened round takes the list's place: back to the list first.
  const back = t.page.locator("[data-testid=history-back]");
  if (await back.isVisible()) await back.click();
  await t.page.click(`[data-testid=history-row][data-round="${id}"] [data-testid=history-open]`);
  await t.page.locator(`[data-testid=history-detail] [data-testid=round-ref][data-round="${id}"]`).waitFor({ timeout: 30000 });
  await t.page.locator("[data-testid=history-verify][data-verified=true]").waitFor({ timeout: 60000 });
  const mark = t.page.locator("[data-testid=history-verify]");
  expect((await mark.innerText()).includes("verified"), "no verified mark");
  expect(((await mark.getAttribute("title")) ?? "").includes("same result"), "the verified mark has no tooltip saying what was checked");
}

async function screensDrawn(t, round, frames) {
  await t.page.locator("[data-testid=replay][data-replayed=true]").waitFor({ timeout: 90000 });
  const count = Number(await t.page.getAttribute("[data-testid=replay]", "data-frames"));
  expect(count === frames, `${count} screens, the outcome has ${frames} windows/grids`);
  const win = await t.page.locator("[data-testid=replay-win]").innerText();
  expect(win === n(round.outcome.total_win), `the last screen's win ${win}, the outcome's ${round.outcome.total_win}`);
}

/** The opened round from its top (a click below may have scrolled the page). */
async function toTop(t) {
  await t.page.locator("[data-testid=history]").evaluate((el) => el.scrollIntoView({ block: "start" }));
}

async function referenceWorks(t, id) {
  const short = await t.page.locator("[data-testid=round-ref-short]").innerText();
  expect(short.length === 8 && id.replace(/-/g, "").startsWith(short), `round reference ${short} is not the start of ${id}`);
  await t.page.click("[data-testid=round-ref-copy]");
  await t.page.locator("[data-testid=round-ref-copy]:text-is('Copied')").waitFor({ timeout: 5000 });
  const copied = await t.page.evaluate(() => navigator.clipboard.readText());
  expect(copied === id, `copied ${copied}, the round is ${id}`);
}

/** Candy Jar's win line, where it says something, clear of the jars' FREE SPINS rule. */
async function winLineClear(t, label) {
  const [line, rule] = await t.page.evaluate(() => ["candy-winline", "jar-rule"].map((id) => {
    const el = document.querySelector(`[data-testid=replay] [data-testid=${id}]`);
    if (!el || !el.textContent.trim() || el.getClientRects().length === 0) return null;
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height, text: el.textContent };
  }));
  expect(rule, `${label}: no jars' rule shown`);
  if (!line) { console.log(`     ${label}: the last screen says no win line`); return; }
  const over = Math.min(line.x + line.width, rule.x + rule.width) - Math.max(line.x, rule.x) > 0.5 && Math.min(line.y + line.height, rule.y + rule.height) - Math.max(line.y, rule.y) > 0.5;
  expect(!over, `${label}: the win line ${JSON.stringify(line)} is printed over the jars' rule ${JSON.stringify(rule)}`);
}

/** The ink of a page region: the spread of its pixels' luma (text on the panel: wide). */
async function ink(t, clip) {
  const png = decodePng(await t.page.screenshot({ clip }));
  let lo = 255, hi = 0;
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    const y = 0.299 * png.pixels[i] + 0.587 * png.pixels[i + 1] + 0.114 * png.pixels[i + 2];
    lo = Math.min(lo, y);
    hi = Math.max(hi, y);
  }
  return hi - lo;
}

/** "What happened" scrolled so its bottom edge halves a line (the gallery's reviewer saw the
 * list cut mid-line at its scroll edges): a line cut at either edge shows under 40% of the ink
 * of a whole line in the list's middle, so no half line reads as text. */
async function accountEdgesFaded(t, what) {
  // beside the round's screens, the list ends on the page's first screen (else the screen's
  // bottom edge cuts it mid-line, whatever its own edges do)
  await toTop(t);
  const list = await t.rect("[data-testid=round-account]");
  const screen = t.page.viewportSize().height;
  expect(list.y + list.height <= screen, `${what}: the account runs to ${Math.round(list.y + list.height)} px, past the screen's ${screen}`);
  const plan = await t.page.evaluate(() => {
    const el = document.querySelector("[data-testid=round-account]");
    const box = el.getBoundingClientRect();
    const lines = [];
    for (const li of el.querySelectorAll("li")) {
      const range = document.createRange();
      range.selectNodeContents(li);
      for (const r of range.getClientRects()) if (r.width > 0) lines.push({ y: r.top - box.top - el.clientTop + el.scrollTop, h: r.height, x: r.left, w: r.width });
    }
    return { lines, shown: el.clientHeight, most: el.scrollHeight - el.clientHeight };
  });
  expect(plan.most > 0, `${what}: the account does not scroll (${plan.shown} px shown): nothing cut at its edges`);
  const halving = plan.lines.map((l) => l.y + l.h / 2 - plan.shown).find((s) => s > 30 && s < plan.most);
  expect(halving !== undefined, `${what}: no scroll halves a line at the bottom edge`);
  const top = await t.page.evaluate((s) => {
    const el = document.querySelector("[data-testid=round-account]");
    el.scrollTop = s;
    return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(el.scrollTop))));
  }, halving);
  const box = await t.rect("[data-testid=round-account]");
  const inner = { top: box.y + (await t.page.evaluate(() => document.querySelector("[data-testid=round-account]").clientTop)), height: plan.shown };
  const onScreen = (l) => ({ x: l.x, y: inner.top + l.y - top, width: l.w, height: l.h });
  const whole = plan.lines.map(onScreen).filter((l) => l.y >= inner.top + plan.shown / 3 && l.y + l.height <= inner.top + (2 * plan.shown) / 3);
  expect(whole.length, `${what}: no whole line in the account's middle`);
  const full = Math.max(...(await Promise.all(whole.map((l) => ink(t, l)))));
  const edges = [inner.top, inner.top + plan.shown];
  const cut = plan.lines.map(onScreen).filter((l) => edges.some((e) => l.y < e - 1 && l.y + l.height > e + 1));
  expect(cut.length, `${what}: no line cut at the edges at scroll ${top}`);
  for (const l of cut) {
    const y0 = Math.max(l.y, inner.top), y1 = Math.min(l.y + l.height, inner.top + plan.shown);
    const seen = await ink(t, { x: l.x, y: y0, width: l.width, height: y1 - y0 });
    expect(seen <= 0.4 * full, `${what}: a line cut at the account's edge (${Math.round(y1 - y0)} of ${Math.round(l.height)} px shown) reads at ink ${seen.toFixed(0)} of a whole line's ${full.toFixed(0)}`);
  }
}

/** Cluedo's free-spin counter in the replay stands whole on screen, clear of the frame's fan, as
 * the game places it (look.tests.mjs measures the game's; the gallery's reviewer saw the
 * replay's sit on the fan): the fan is a half disc of radius 40 about the top rail's middle, 12
 * over the window, in the reels' design px (a 5x3 window of 213 px cells, 8 px apart). */
async function counterClearOfFan(t, what) {
  const g = await t.page.evaluate(() => {
    const overlay = document.querySelector("[data-testid=replay] .replay-overlay");
    const counter = overlay.querySelector("[data-testid=free-spins]");
    const box = (r) => ({ x: r.x, y: r.y, width: r.width, height: r.height });
    const o = overlay.getBoundingClientRect(), k = o.width / overlay.offsetWidth;
    const v = (n) => parseFloat(overlay.style.getPropertyValue(`--reels-${n}`));
    return {
      win: { x: o.x + v("x") * k, y: o.y + v("y") * k, width: v("w") * k, height: v("h") * k },
      counter: counter && !counter.hidden ? box(counter.getBoundingClientRect()) : null,
      gilt: counter ? getComputedStyle(counter).backgroundImage : "none",
      clip: box(document.querySelector("[data-testid=replay] .replay-clip").getBoundingClientRect()),
    };
  });
  expect(g.counter, `${what}: no free-spin counter on the replay's screen`);
  const k = g.win.width / (5 * (213 + 8) - 8);
  const fan = { x: g.win.x + g.win.width / 2 - 40 * k, y: g.win.y - 52 * k, width: 80 * k, height: 40 * k };
  const overlap = (a, b) => Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 1 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 1;
  expect(!overlap(g.counter, fan), `${what}: the counter ${JSON.stringify(g.counter)} lies on the frame's fan ${JSON.stringify(fan)}`);
  // and it reads as in the game: its dark words on its gilt (the replay, outside the game's
  // themed screen, drew them on nothing, dark on the dark hall)
  expect(g.gilt !== "none", `${what}: the counter has no gilt behind its words (${g.gilt})`);
  expect(g.counter.y >= g.clip.y && g.counter.y + g.counter.height <= g.clip.y + g.clip.height, `${what}: the counter ${JSON.stringify(g.counter)} is cut by the screen ${JSON.stringify(g.clip)}`);
}

export const tests = [
  {
    name: "history desktop: titles, local times, money, the account, screens, verified",
    context: CONTEXT,
    gameFiles: [WIN, FS, BONUS, CANDY],
    async run(t) {
      await lobby(t);
      const gamble = await settle(t, await bet(t, WIN.key), ["half", "red"]);
      expect(gamble.steps.length >= 2 && gamble.steps[0].choice === "half", `the gamble's steps: ${gamble.steps.map((s) => s.choice)}`);
      const free = await settle(t, await bet(t, FS.key));
      const cops = await settle(t, await bet(t, BONUS.key));
      // a candy round of more than one screen (its replay is stepped back below); the test
      // game's reels make most rounds tumble or trigger, not every one
      let candy = await settle(t, await bet(t, CANDY.key));
      const screensOf = (r) => r.outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "grid")).length;
      for (let i = 0; i < 10 && screensOf(candy) < 2; i++) candy = await settle(t, await bet(t, CANDY.key));
      expect(screensOf(candy) >= 2, "ten candy rounds of one screen each");
      const { rounds } = await t.api("/api/v1/rounds?limit=100");
      const titles = Object.fromEntries((await t.api("/api/v1/games")).games.map((g) => [g.key, g.title]));
      await openHistory(t);
      await checkList(t, rounds, titles);
      await noSideScroll(t, "history list");
      await t.shot("list");
      // one game's rounds: the server's for that game key
      await t.page.selectOption("[data-testid=history-game]", BONUS.key);
      const only = (await t.api(`/api/v1/rounds?limit=100&game=${BONUS.key}`)).rounds;
      expect(only.length === 1 && only[0].round_id === cops.round_id, `the server's ${BONUS.key} rounds: ${only.map((r) => r.round_id)}`);
      await t.page.waitForFunction((id) => { const rows = document.querySelectorAll("[data-testid=history-row]"); return rows.length === 1 && rows[0].dataset.round === id; }, cops.round_id, { timeout: 30000 });
      await t.page.selectOption("[data-testid=history-game]", "");
      await t.page.waitForFunction((n) => document.querySelectorAll("[data-testid=history-row]").length === n, rounds.length, { timeout: 30000 });

      // The gamble round: its line wins and every gamble step in words.
      await openRound(t, gamble.round_id);
      // The round takes the list's place: its screens get most of the page's width.
      expect(!(await t.page.locator("[data-testid=history-list]").isVisible()), "the list stays beside the round at 1440 px");
      const replayBox = await t.page.locator("[data-testid=replay]").boundingBox();
      expect(replayBox && replayBox.width >= 0.6 * 1440, `the round's screens are ${replayBox?.width} px wide of 1440`);
      const info = (await t.api(`/api/v1/games/${WIN.key}`)).info;
      const names = Object.fromEntries(info.symbols.map((s) => [s.id, s.name]));
      const wins = gamble.outcome.spins[0].events.filter((e) => e.type === "line_win");
      expect(wins.length > 0 && wins.every((e) => e.multiplier === 1), "cluedo-e2e-win-v1 no longer pays plain line wins");
      const shown = await accountShown(t);
      expectInOrder(shown, [
        `Spin — ${credits(gamble.outcome.spins[0].win)}`,
        ...wins.map((e) => `Line ${e.line}: ${e.count} ${names[e.symbol]} — ${credits(e.win)}`),
        `Total win: ${credits(gamble.outcome.total_win)}`,
        ...gambleLines(gamble),
      ], "the gamble round's account");
      const head = await t.page.locator("[data-testid=round-summary]").innerText();
      expect(head.includes(titles[WIN.key]), `the round's header lacks the title: ${head}`);
      expect((await t.page.locator("[data-testid=round-win] .value").innerText()) === money(gamble.win_minor), "the round's win is not the API's");
      expect((await t.page.locator("[data-testid=round-stake] .value").innerText()) === money(gamble.stake_minor), "the round's stake is not the API's");
      const when = zoned(gamble.created_at_us, ZONE);
      const headTime = await t.page.locator("[data-testid=round-time]").innerText();
      expect(headTime.includes(when.date) && headTime.includes(when.time), `the round's time ${headTime}, not ${when.date} ${when.time}`);
      await screensDrawn(t, gamble, 1);
      // REPLAY (not a green PLAY, which reads as a bet: the step buttons' look) watches the
      // round again at the game's pace, to its last screen and its win
      const look = await t.page.evaluate(() => [document.querySelector("[data-testid=replay-play]"), document.querySelector("[data-testid=replay-prev]")].map((b) => [b.textContent, getComputedStyle(b).backgroundColor]));
      expect(/REPLAY/.test(look[0][0]) && look[0][1] === look[1][1], `the replay button reads "${look[0][0]}" on ${look[0][1]}, the step buttons' ${look[1][1]}`);
      await t.page.click("[data-testid=replay-play]");
      await t.page.locator("[data-testid=replay][data-playing]").waitFor({ timeout: 10000 });
      await t.page.locator("[data-testid=replay]:not([data-playing])").waitFor({ timeout: 60000 });
      expect((await t.page.locator("[data-testid=replay-win]").innerText()) === n(gamble.outcome.total_win), "PLAY did not end on the round's win");
      await t.assertDrawn("gamble-round");
      await referenceWorks(t, gamble.round_id);
      await toTop(t);
      await t.shot("gamble-round");

      // The newest round (the candy one): its balance after is the session's balance now.
      await openRound(t, candy.round_id);
      const session = await t.api("/api/v1/session");
      const after = await t.page.locator("[data-testid=round-balance] .value").innerText();
      expect(after === money(session.balance_minor), `balance after the last round ${after}, the session's ${money(session.balance_minor)}`);
      const grids = candy.outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "grid"));
      await screensDrawn(t, candy, grids.length);
      const candyInfo = (await t.api(`/api/v1/games/${CANDY.key}`)).info;
      const candyNames = Object.fromEntries(candyInfo.symbols.map((s) => [s.id, s.name]));
      const candyShown = await accountShown(t);
      const clusters = candy.outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "cluster_win"));
      for (const e of clusters) {
        const line = candyShown.find((l) => l.startsWith(`Cluster of ${e.size} ${candyNames[e.symbol]}`) && l.endsWith(` — ${credits(e.win)}`));
        expect(line, `no line for the cluster of ${e.size} ${e.symbol} paying ${e.win}`);
      }
      const tumbles = grids.filter((g) => g.tumble > 0).length;
      expect(candyShown.filter((l) => /^Tumble \d+: /.test(l)).length === tumbles, `the account tells ${tumbles} tumbles?`);
      const frees = candy.outcome.spins.filter((s) => s.kind === "free").length;
      expect(candyShown.filter((l) => /^Free spin \d+ of \d+ — /.test(l)).length === frees, `the account names ${frees} free spins?`);
      await t.assertDrawn("candy-round");
      await toTop(t);
      await winLineClear(t, "the candy round at 1440x900");
      await t.shot("candy-round");
      await t.shot("candy-replay-1440", "[data-testid=replay]");
      // at 390x844 (the replay in its portrait design): the playtest saw the win line ("8 x
      // PLUM pays 18") printed over the jars' rule ("3 or more candies ... FREE SPINS start")
      await t.page.setViewportSize({ width: 390, height: 844 });
      await t.page.locator("[data-testid=replay][data-design=portrait]").waitFor({ timeout: 10000 });
      // the screen drawn again in the portrait design (the band it shows measured anew), as a
      // phone opening the round draws it: a step back and forth to the last screen
      const last = Number(await t.page.getAttribute("[data-testid=replay]", "data-frames")) - 1;
      await t.page.locator("[data-testid=replay]:not([data-busy])").waitFor({ timeout: 30000 });
      await t.page.click("[data-testid=replay-prev]");
      await t.page.locator(`[data-testid=replay][data-frame="${last - 1}"]:not([data-busy])`).waitFor({ timeout: 30000 });
      await t.page.click("[data-testid=replay-next]");
      await t.page.locator(`[data-testid=replay][data-frame="${last}"]:not([data-busy])`).waitFor({ timeout: 30000 });
      await toTop(t);
      await winLineClear(t, "the candy round at 390x844");
      await t.shot("candy-round-390", "[data-testid=replay]");
      await t.page.setViewportSize({ width: 1440, height: 900 });
      await t.page.locator("[data-testid=replay][data-design=landscape]").waitFor({ timeout: 10000 });

      // The free spins round: one screen per spin, stepped back to the one before last.
      await openRound(t, free.round_id);
      const spins = free.outcome.spins;
      await screensDrawn(t, free, spins.length);
      const freeShown = await accountShown(t);
      expect(freeShown.filter((l) => /^Free spin \d+ of \d+ — /.test(l)).length === spins.length - 1, "the account does not name every free spin");
      const award = spins[0].events.find((e) => e.type === "free_spins_award");
      expect(freeShown.includes(`${award.trigger_count} ${names.BONUS}: ${award.spins_awarded} free spins at x${spins[1].multiplier}`), `no Mystery Bonus line in:\n${freeShown.slice(0, 8).join("\n")}`);
      await t.page.click("[data-testid=replay-prev]");
      await t.page.locator(`[data-testid=replay][data-frame="${spins.length - 2}"]:not([data-busy])`).waitFor({ timeout: 30000 });
      const picked = await t.page.locator("[data-testid=replay-frame] option:checked").innerText();
      expect(picked.includes(`Free spin ${spins[spins.length - 2].index} of`), `the screen picked reads ${picked}`);
      await t.assertDrawn("free-spin-before-last");
      await counterClearOfFan(t, "the free spin before last at 1440x900");
      await accountEdgesFaded(t, "the free spins round at 1440x900");
      await toTop(t);
      await t.shot("free-spins-stepped");

      // The cops bonus: its trail on screen and told spin by spin, the bonus total.
      await openRound(t, cops.round_id);
      await screensDrawn(t, cops, cops.outcome.spins.length);
      const trail = cops.outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "trail"));
      const copsShown = await accountShown(t);
      for (const e of trail) expect(copsShown.some((l) => l.startsWith("Trail: ") && l.endsWith(`the robber is on ${e.robber}, the cop on ${e.cop}`)), `no trail line for robber ${e.robber}, cop ${e.cop}`);
      if (trail.length) {
        expect(copsShown.includes(`Bonus total: ${credits(cops.outcome.breakdown.bonus)} in ${cops.outcome.counters.bonus_spins} bonus spin${cops.outcome.counters.bonus_spins === 1 ? "" : "s"}`), "no bonus total line");
        await t.page.locator("[data-testid=replay] [data-testid=trail]:not([hidden])").waitFor({ timeout: 10000 });
      }
      await t.assertDrawn("cops-round");
      await noSideScroll(t, "a round opened");
      await toTop(t);
      await t.shot("cops-round");
    },
  },
  {
    name: "history phone: the list reads at 390 px, a round opens in its place",
    viewport: { width: 390, height: 844 },
    context: CONTEXT,
    gameFiles: [WIN, BONUS],
    async run(t) {
      await lobby(t);
      const gamble = await settle(t, await bet(t, WIN.key), ["black"]);
      const cops = await settle(t, await bet(t, BONUS.key));
      // a round left in its gamble after TAKE HALF: the list says what is at stake (checkList)
      const open = await bet(t, WIN.key);
      const half = await post(t, `/api/v1/rounds/${open.round_id}/steps`, { kind: "gamble", choice: "half" });
      expect(half.status !== "closed" && half.pending_win_credits > 0, `the half step left ${JSON.stringify(half).slice(0, 200)}`);
      const { rounds } = await t.api("/api/v1/rounds?limit=100");
      const titles = Object.fromEntries((await t.api("/api/v1/games")).games.map((g) => [g.key, g.title]));
      await openHistory(t);
      await checkList(t, rounds, titles);
      await noSideScroll(t, "history list at 390 px");
      for (const r of rounds) {
        const box = await t.page.locator(`[data-testid=history-row][data-round="${r.round_id}"]`).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 390, `row ${r.round_id} is outside the screen: ${JSON.stringify(box)}`);
      }
      await selectsFit(t, "history list at 390 px");
      await t.shot("phone-list");
      await openRound(t, gamble.round_id);
      expect(!(await t.page.locator("[data-testid=history-list]").isVisible()), "the list stays beside the round at 390 px");
      await screensDrawn(t, gamble, 1);
      expectInOrder(await accountShown(t), gambleLines(gamble), "the gamble at 390 px");
      await t.assertDrawn("phone-gamble-round");
      await phoneReplay(t, "the gamble round at 390 px");
      await noSideScroll(t, "a round at 390 px");
      await toTop(t);
      await t.shot("phone-round");
      await t.page.locator("[data-testid=round-account]").scrollIntoViewIfNeeded();
      await t.shot("phone-account");
      await t.page.click("[data-testid=history-back]");
      await t.page.locator("[data-testid=history-list]").waitFor({ state: "visible" });
      await openRound(t, cops.round_id);
      await screensDrawn(t, cops, cops.outcome.spins.length);
      await t.assertDrawn("phone-cops-round");
      await phoneReplay(t, "the cops round at 390 px");
      await noSideScroll(t, "the cops round at 390 px");
      await toTop(t);
      await t.shot("phone-cops");
    },
  },
];
