// The game lab (operator demo-lab: the format's example games, settings.py EXAMPLE_GAMES) end to
// end, each drawn by the generic screen with no client code of its own: opened from the lab's
// lobby, played until a round wins (the WIN shown is the server's round win), its information
// page (every symbol the game pays), one round replayed from History. At 1440x900 and 390x844.
import { decodePng } from "./png.mjs";
import { WEB } from "./server.mjs";

// A test-only game file (web/tests/e2e/games/): Anywhere Example's rules with frequent scatters
// and 3 free spins, served as an extra game of the lab operator.
const FS = { operator: "demo-lab", key: "anywhere-fs", gameFile: `${WEB}/tests/e2e/games/anywhere-example-e2e-fs-v1.toml` };

// Cluster Mult Example's rules with frequent scatters, 3 free spins and pearl-heavy free spins:
// a round nearly always reaches the free spins and pays at a grid multiplier.
const GM = { operator: "demo-lab", key: "cluster-mult-fs", gameFile: `${WEB}/tests/e2e/games/cluster-mult-example-e2e-fs-v1.toml` };

const LAB = [
  { key: "ways-example", viewport: { width: 1440, height: 900 } },
  { key: "anywhere-example", viewport: { width: 390, height: 844 } },
  { key: "cluster-mult-example", viewport: { width: 390, height: 844 }, intro: true },
];

function expect(cond, message) {
  if (!cond) throw new Error(message);
}

const credits = (n) => n.toLocaleString("en");
// the WIN meter after a round: its credits, or the idle dash where the round won nothing
const meterShows = (text, won) => (won === 0 ? text.trim() === "—" : text.startsWith(`${credits(won)} `));

async function open(t, key) {
  await t.page.goto(`${t.base}/demo?operator=demo-lab`);
  await t.page.locator("[data-testid=lobby]").waitFor({ timeout: 150000 });
  await t.page.click(`[data-testid=launch-${key}]`);
  await t.page.locator(`[data-testid=game-${key}] canvas`).waitFor({ timeout: 60000 });
  await t.page.locator(`[data-testid=game-${key}] [data-testid=play]`).waitFor();
  // no module of its own: the generic screen draws it
  const module = await t.page.locator(`[data-testid=game-${key}]`).getAttribute("data-module");
  expect(module === "todo", `${key} is drawn by a module of its own (${module}), not the generic screen`);
  await t.page.check("[data-testid=turbo]"); // default rules allow turbo: shorter waits
}

async function lastRound(t) {
  const [last] = (await t.api("/api/v1/rounds?limit=1")).rounds;
  return t.api(`/api/v1/rounds/${last.round_id}`);
}

/** Spin until a round wins, at most `tries` rounds; the WIN shown is that round's win. */
async function playUntilWin(t, key, tries) {
  for (let i = 0; i < tries; i++) {
    expect((await t.spin(key)) === "idle", `${key}: a round stopped at a choice`);
    const round = await lastRound(t);
    expect(round.game === key && round.status === "closed", `${key}: last round ${round.game} ${round.status}`);
    const win = await t.page.locator("[data-testid=win]").innerText();
    // a losing round's meter reads as the idle one (a dash), never "0 (€0.00)"
    const meter = meterShows(win, round.outcome.total_win);
    expect(meter, `${key}: WIN shows ${win}, the round won ${round.outcome.total_win}`);
    if (round.outcome.total_win > 0) {
      await wonNamed(t, key, round);
      return round;
    }
  }
  throw new Error(`${key}: no win in ${tries} rounds`);
}

/** After the round its screen's wins stay named over the reels (the generic win cycle): the
 * words show one of the last spin's paid amounts and, on these tumbling, ways and pays-anywhere
 * games, the round's total: the WIN meter's figure (the playtest read "9 Goblet at x12 pay 720"
 * against a WIN of 1,105). */
async function wonNamed(t, key, round) {
  const paid = round.outcome.spins.at(-1).events.filter((e) => "win" in e && e.win > 0).map((e) => credits(e.win));
  if (!paid.length) return; // the round's win came before its last spin (free spins)
  const cycle = t.page.locator("[data-testid=win-cycle]");
  await cycle.waitFor({ state: "visible", timeout: 10000 });
  const words = await cycle.innerText();
  expect(paid.some((p) => words.includes(` ${p} · `) || words.includes(` ${p}\n`)), `${key}: the win shown over the reels "${words}" names none of ${paid.join(", ")}`);
  expect(words.endsWith(` · TOTAL WIN ${credits(round.outcome.total_win)}`), `${key}: the win shown over the reels "${words}" does not name the round's total ${round.outcome.total_win}`);
  // the words stand under the reels, on none of the symbols they name (they hid a WILD)
  const [box, reels] = [await t.rect("[data-testid=win-cycle]"), await t.rect("[data-testid=reels-window]")];
  expect(box.y >= reels.y + reels.height, `${key}: the win's words ${JSON.stringify(box)} lie over the reels ${JSON.stringify(reels)}`);
  await t.shot(`${key}-win-cycle`);
}

/** The first visit's card says what the game is, from its data: the rules' overview (the
 * server's help), the RTP and the maximum win (it said only the game's name). */
async function introSaid(t, key) {
  const card = t.page.locator("[data-testid=intro]");
  await card.waitFor({ timeout: 30000 });
  const said = (await card.innerText()).replace(/\s+/g, " ");
  const game = await t.api(`/api/v1/games/${key}`);
  const overview = game.info.help.sections.find((s) => s.id === "overview").blocks.find((b) => b.kind === "p").parts.map((p) => (typeof p === "string" ? p : p.strong ?? "")).join("").replace(/\s+/g, " ").trim();
  for (const want of [overview, `${(game.rtp[0].value * 100).toFixed(2)}%`, `${game.max_win.x.toLocaleString("en")}×`]) expect(said.includes(want), `${key}: the intro "${said}" leaves out "${want}"`);
  await t.shot(`${key}-intro`);
  await t.page.click("[data-testid=intro-continue]");
}

/** The information page names every symbol the game pays, with its art. */
async function infoPage(t, key) {
  await t.page.click("[data-testid=game-info]"); // the console's i: the RTP, and the way to the page
  await t.page.click("[data-testid=nav-info]");
  await t.page.locator("[data-testid=info]").waitFor({ timeout: 30000 });
  await t.page.locator("[data-testid=paytable] .info-pay").first().waitFor({ timeout: 30000 });
  const game = await t.api(`/api/v1/games/${key}`);
  const paid = game.info.pays.table.map((r) => r.symbol);
  expect(paid.length > 0, `${key}: the server lists no pays`);
  const drawn = await t.page.locator("[data-testid=paytable] .info-pay").evaluateAll((els) => els.map((e) => e.dataset.symbol));
  const missing = paid.filter((s) => !drawn.includes(s));
  expect(!missing.length, `${key}: the paytable leaves out ${missing.join(", ")} (drawn: ${drawn.join(", ")})`);
  const over = await t.page.evaluate(() => [...document.querySelectorAll("[data-testid=info] *")].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => `${e.tagName}.${e.className}`));
  expect(!over.length, `${key}: the information page runs off the screen's side: ${over.slice(0, 5).join(", ")}`);
  await t.shot(`${key}-info`);
}

/** History: the round opened, replayed to its end on the round's win. */
async function replay(t, key, round) {
  await t.page.click("[data-testid=nav-history]");
  await t.page.locator(`[data-testid=history-row][data-round="${round.round_id}"]`).waitFor({ timeout: 30000 });
  await t.page.click(`[data-testid=history-row][data-round="${round.round_id}"] [data-testid=history-open]`);
  await t.page.locator(`[data-testid=history-detail] [data-testid=round-ref][data-round="${round.round_id}"]`).waitFor({ timeout: 30000 });
  await t.page.locator("[data-testid=replay][data-replayed=true]").waitFor({ timeout: 90000 });
  const frames = round.outcome.spins.flatMap((s) => s.events.filter((e) => e.type === "window" || e.type === "grid")).length;
  const count = Number(await t.page.getAttribute("[data-testid=replay]", "data-frames"));
  expect(count === frames, `${key}: the replay has ${count} screens, the outcome ${frames} windows/grids`);
  const win = await t.page.locator("[data-testid=replay-win]").innerText();
  expect(win === credits(round.outcome.total_win), `${key}: the replay ends on ${win}, the round won ${round.outcome.total_win}`);
  await t.assertDrawn(`${key}-replay`);
  await t.shot(`${key}-replay`);
}

/** Every message the generic banner shows from now on (they last a moment). */
function watchBanners(t) {
  return t.page.evaluate(() => {
    window.__banners = [];
    const note = (el) => { if (!el.hidden && el.textContent) window.__banners.push(el.textContent); };
    new MutationObserver((records) => records.forEach((r) => note(r.target.closest?.(".banner") ?? r.target.parentElement)))
      .observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["hidden"] });
  });
}

/** Every win's caption (the generic banner's kind "win") from now on: its words, and the WIN
 * meter's reading as it appears and as it goes. */
function watchCaptions(t) {
  return t.page.evaluate(() => {
    window.__captions = [];
    const meter = () => document.querySelector("[data-testid=win]")?.textContent ?? "";
    let open = null;
    const check = () => {
      const el = document.querySelector(".banner[data-kind=win]");
      const shown = el && !el.hidden ? el.textContent : null;
      if (open && shown !== open.text) { open.gone = meter(); open = null; }
      if (shown && !open) { open = { text: shown, shown: meter(), gone: null }; window.__captions.push(open); }
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["hidden", "data-kind"] });
  });
}

/** The winning round's wins named while they were paid as a player's sentence with its unit
 * (the playtest read "Line 1: 15", "A: 1 way, 6"), the WIN meter never behind the wins before
 * it as a caption appears and on the running total through it as it goes (it read 0). */
async function captionsSaid(t, key, round) {
  const game = await t.api(`/api/v1/games/${key}`);
  const name = (id) => game.info.symbols.find((s) => s.id === id)?.name || id;
  const pays = (n) => `pays ${credits(n)} credit${n === 1 ? "" : "s"}`;
  const wins = [];
  let before = 0;
  for (const spin of round.outcome.spins) {
    let spinWon = 0;
    for (const e of spin.events) {
      if (!["line_win", "ways_win", "scatter_win", "cluster_win"].includes(e.type)) continue;
      spinWon += e.win;
      wins.push({ e, total: before + Math.min(spinWon, spin.win) });
    }
    before += spin.win;
  }
  const said = (await t.page.evaluate(() => window.__captions)).filter((c) => / pays [\d,]+ credits?$/.test(c.text));
  expect(said.length === wins.length, `${key}: ${said.length} win captions (${said.map((c) => c.text).join(" | ")}), the round paid ${wins.length} wins`);
  // the meter reads a dash for nothing won (the idle meter's), a number of credits otherwise
  const meter = (text) => ((text ?? "").trim() === "—" ? 0 : Number((text ?? "").split(" ")[0].replace(/,/g, "")));
  for (const [k, { e, total }] of wins.entries()) {
    const c = said[k];
    const want = {
      line_win: () => `Line ${e.line}: ${e.count} x ${name(e.symbol)}${e.multiplier > 1 ? ` (x${e.multiplier})` : ""} ${pays(e.win)}`,
      ways_win: () => `Ways: ${name(e.symbol)} x${e.count}, ${e.ways} way${e.ways === 1 ? "" : "s"}, ${pays(e.win)}`,
    }[e.type];
    if (want) expect(c.text === want(), `${key}: win ${k + 1} was named "${c.text}", not "${want()}"`);
    else expect(c.text.startsWith(`${e.type === "cluster_win" ? e.size : e.count} x ${name(e.symbol)}`) && c.text.endsWith(` ${pays(e.win)}`), `${key}: win ${k + 1} (${e.type} ${e.symbol} ${e.win}) was named "${c.text}"`);
    const prior = k ? wins[k - 1].total : 0;
    expect(meter(c.shown) >= prior, `${key}: as "${c.text}" appeared the WIN meter read ${c.shown}, behind the ${prior} won before it`);
    expect(meter(c.gone) === total, `${key}: as "${c.text}" went the WIN meter read ${c.gone}, not the ${total} won through it`);
  }
}

/** Every moment (ui/moment.ts) shown from now on, as it appears: its classes, title, lines, the
 * amount it counts to (`data-to`), and once it is gone how long it was shown (`ms`). */
function watchMoments(t) {
  return t.page.evaluate(() => {
    window.__moments = [];
    const shown = new Map();
    new MutationObserver((records) => {
      for (const r of records) for (const el of r.removedNodes) {
        const m = shown.get(el);
        if (m) m.ms = Math.round(performance.now() - m.at);
      }
      for (const r of records) for (const el of r.addedNodes) {
        if (!(el instanceof HTMLElement) || el.dataset.testid !== "moment") continue;
        const m = {
          kind: el.className, title: el.querySelector(".moment-title")?.textContent ?? "",
          lines: [...el.querySelectorAll(".moment-line")].map((l) => l.textContent),
          to: el.querySelector("[data-testid=moment-amount]")?.dataset.to ?? null,
          // a line shown as it appears, beside an amount that starts counting from 0
          linesEarly: [...el.querySelectorAll(".moment-line")].some((l) => getComputedStyle(l).visibility !== "hidden"),
          at: performance.now(), ms: null,
        };
        shown.set(el, m);
        window.__moments.push(m);
      }
    }).observe(document.body, { subtree: true, childList: true });
  });
}

const FREE_SPINS = {
  name: "lab: anywhere-example's free spins announced, played and paid (1440x900)",
  gameFiles: [FS],
  async run(t) {
    await open(t, FS.key);
    await watchBanners(t);
    let round;
    for (let i = 0; i < 8 && !round; i++) {
      expect((await t.spin(FS.key)) === "idle", "a round stopped at a choice");
      const last = await lastRound(t);
      if (last.outcome.spins.some((s) => s.kind !== "base")) round = last;
    }
    expect(round, "no free spins in 8 rounds");
    const award = round.outcome.spins.flatMap((s) => s.events).find((e) => e.type === "free_spins_award");
    const banners = await t.page.evaluate(() => window.__banners);
    expect(banners.some((b) => b.includes(`${award.spins_awarded} FREE SPINS`)), `the award of ${award.spins_awarded} free spins was not announced (banners: ${banners.slice(-8).join(" | ")})`);
    const win = await t.page.locator("[data-testid=win]").innerText();
    expect(meterShows(win, round.outcome.total_win), `WIN shows ${win}, the round won ${round.outcome.total_win}`);
    // the last free spin's wins are named beside the round's total, the WIN meter's figure
    const cycle = t.page.locator("[data-testid=win-cycle]");
    if (round.outcome.spins.at(-1).win > 0) {
      await cycle.waitFor({ state: "visible", timeout: 10000 });
      const words = await cycle.innerText();
      expect(words.endsWith(` · TOTAL WIN ${credits(round.outcome.total_win)}`), `after the free spins the win cycle says "${words}", the round won ${round.outcome.total_win}`);
    }
    await t.assertDrawn("anywhere-fs-after");
    await t.layout("anywhere-fs-after");
  },
};

/** Bet modes on the generic screen: each mode named with its price and cost at the bet, an
 * ante round debited its price, a buy confirmed (cancel plays nothing), played as free spins
 * alone between an intro of the spins bought and their price (skipped by Space) and an outro
 * of the round's win against that price, and replayed from History. */
const MODES = [{ width: 1440, height: 900 }, { width: 390, height: 844 }].map((viewport) => ({
  name: `lab: modes-example's ante and buy modes, the buy confirmed before it plays, its intro and outro, and replayed (${viewport.width}x${viewport.height})`,
  viewport,
  async run(t) {
    const key = "modes-example";
    const size = `${viewport.width}x${viewport.height}`;
    await open(t, key);
    const game = await t.api(`/api/v1/games/${key}`);
    const labels = await t.page.locator("[data-testid=mode] option").allInnerTexts();
    expect(labels.length === game.modes.length, `${labels.length} mode options for ${game.modes.length} modes`);
    const stake = Number(await t.page.locator("[data-testid=bet-select]").inputValue());
    const shown = [...game.bets].sort((a, b) => a.stake_credits - b.stake_credits)[stake];
    const euros = (minor) => `€${(minor / 100).toFixed(2)}`;
    for (const [i, m] of game.modes.entries()) {
      const want = `${i === 0 ? "Base game" : m.title} · ${{ base: "1", ante: "1.25", buy: "36" }[m.name]}× · ${euros(shown.cost_minor[m.name])}`;
      expect(labels[i] === want, `mode option "${labels[i]}", expected "${want}"`);
    }
    await t.assertDrawn(`modes-idle-${size}`);
    await t.layout(`modes-idle-${size}`);
    // the bet list shows its whole choice: as wide as it would be with room (at 390 px it was
    // cut to "20 credits (20 ...")
    const [wide, room] = await t.page.locator("[data-testid=bet-select]").evaluate((el) => {
      const now = el.getBoundingClientRect().width;
      el.style.maxWidth = "none";
      const free = el.getBoundingClientRect().width;
      el.style.maxWidth = "";
      return [now, free];
    });
    expect(wide >= room - 0.5, `the bet list is ${wide} px wide, its choice needs ${room} px`);
    const costOf = (round, mode) => game.bets.find((b) => b.lines === round.bet.lines && b.bet_per_line === round.bet.bet_per_line).cost_minor[mode];
    // the ante: one round, debited 5/4 of its stake
    await t.page.selectOption("[data-testid=mode]", "ante");
    expect((await t.spin(key)) === "idle", "an ante round stopped at a choice");
    const ante = await lastRound(t);
    expect(ante.bet.mode === "ante" && ante.stake_minor === costOf(ante, "ante") && ante.stake_minor * 4 === costOf(ante, "base") * 5,
      `ante round: mode ${ante.bet.mode}, debited ${ante.stake_minor}, base cost ${costOf(ante, "base")}`);
    // the buy: PLAY asks first; CANCEL plays nothing
    await t.page.selectOption("[data-testid=mode]", "buy");
    const before = (await t.api("/api/v1/rounds?limit=1")).rounds[0].round_id;
    await t.page.click("[data-testid=play]");
    const dialog = t.page.locator("[data-testid=buy-dialog]");
    await dialog.waitFor({ timeout: 10000 });
    const asked = await dialog.innerText();
    const buyCost = game.bets.find((b) => b.cost_minor.buy !== undefined && asked.includes(`Buy 10 free spins for €${(b.cost_minor.buy / 100).toFixed(2)}`));
    expect(buyCost, `the buy dialog reads "${asked}"`);
    await t.shot(`modes-buy-confirm-${size}`);
    await t.layout(`modes-buy-confirm-${size}`);
    await t.page.click("[data-testid=buy-cancel]");
    await dialog.waitFor({ state: "detached", timeout: 10000 });
    expect((await t.api("/api/v1/rounds?limit=1")).rounds[0].round_id === before, "CANCEL played a round");
    await t.shot(`modes-ante-after-${size}`);
    // the buy at full length (turbo off: each moment as a player sees it), its moments recorded
    await t.page.uncheck("[data-testid=turbo]");
    await watchMoments(t);
    await t.page.click("[data-testid=play]");
    await t.page.click("[data-testid=buy-confirm]");
    const screen = t.page.locator(`[data-testid=game-${key}]`);
    // the intro as the bought spins start, over the reels; Space skips it (it lasts 2.6 s: a
    // screenshot first outlasted it on a loaded machine, so its words are read from the record)
    const introCard = t.page.locator("[data-testid=moment].fs-intro");
    await introCard.waitFor({ timeout: 30000 });
    await t.page.keyboard.press("Space");
    await introCard.waitFor({ state: "detached", timeout: 1000 });
    const [shownMs] = await t.page.evaluate(() => window.__moments.map((m) => m.ms));
    expect(shownMs < 2000, `the intro stayed ${shownMs} ms after Space, its full length is 2600 ms`);
    // the outro with the total, against the price paid
    const outroCard = t.page.locator("[data-testid=moment].fs-outro");
    await outroCard.waitFor({ timeout: 180000 });
    await t.page.waitForFunction(() => {
      const a = document.querySelector("[data-testid=moment].fs-outro [data-testid=moment-amount]");
      return !a || a.textContent === `${Number(a.dataset.to).toLocaleString("en")} credits`;
    }, null, { timeout: 5000 });
    await t.shot(`modes-buy-outro-${size}`);
    await t.layout(`modes-buy-outro-${size}`);
    await screen.and(t.page.locator("[data-flow=idle]")).waitFor({ timeout: 120000 });
    const buy = await lastRound(t);
    const moments = await t.page.evaluate(() => window.__moments);
    const bought = buy.outcome.spins[0].events.find((e) => e.type === "free_spins_award");
    const [intro] = moments;
    expect(intro?.kind.includes("fs-intro") && intro.title === "FREE SPINS BOUGHT" && intro.lines[0] === `${bought.spins_awarded} FREE SPINS`
      && intro.lines.at(-1).startsWith(`bought for ${euros(buy.stake_minor)} `), `the buy's intro reads ${JSON.stringify(intro)}; it bought ${bought.spins_awarded} spins for ${euros(buy.stake_minor)}`);
    const outro = moments.find((m) => m.kind.includes("fs-outro"));
    expect(outro?.to === String(buy.outcome.total_win) && outro.lines[0] === `${euros(buy.win_minor)} won in ${buy.outcome.spins.length} free spins`
      && outro.lines[1] === `for a price of ${euros(buy.stake_minor)}`, `the buy's outro reads ${JSON.stringify(outro)}; the round won ${buy.outcome.total_win} credits (${euros(buy.win_minor)}) for ${euros(buy.stake_minor)}`);
    expect(buy.round_id !== before && buy.bet.mode === "buy" && buy.stake_minor === costOf(buy, "buy"), `buy round: mode ${buy.bet.mode}, debited ${buy.stake_minor}`);
    expect(buy.outcome.spins.every((s) => s.kind === "free") && buy.outcome.spins.length >= 10, `the buy played ${buy.outcome.spins.map((s) => s.kind).join(",")}`);
    const win = await t.page.locator("[data-testid=win]").innerText();
    expect(meterShows(win, buy.outcome.total_win), `WIN shows ${win}, the buy won ${buy.outcome.total_win}`);
    await t.assertDrawn(`modes-buy-after-${size}`);
    await t.layout(`modes-buy-after-${size}`);
    await replay(t, key, buy); // a round with no base spin replays from History too
  },
}));

/** The marks the screen says it draws (the generic view's overlay: cells marked, highest). */
async function marksShown(t) {
  return t.page.locator(".stage-overlay").evaluate((el) => ({ marked: Number(el.dataset.gridMarked ?? 0), max: Number(el.dataset.gridMax ?? 0) }));
}

/** The round's marks at its end: the last grid_multipliers event's cells, counted. */
function marksOf(outcome) {
  const last = outcome.spins.flatMap((s) => s.events).filter((e) => e.type === "grid_multipliers").at(-1);
  const values = last ? last.cells.flat() : [];
  const marked = values.filter((v) => v > 0).length;
  return { marked, max: marked ? Math.max(...values) : 0 };
}

const GRID_MULTIPLIERS = {
  name: "lab: cluster-mult-example's grid multipliers drawn through tumbles and free spins, cleared by the next round (1440x900, 390x844)",
  gameFiles: [GM],
  async run(t) {
    await open(t, GM.key);
    await watchBanners(t);
    await watchMoments(t);
    let round;
    const paidAtMark = (o) => o.spins.some((s) => s.events.some((e) => e.type === "grid_multipliers" && e.applied.some((m) => m > 1)));
    for (let i = 0; i < 6 && !round; i++) {
      expect((await t.spin(GM.key)) === "idle", "a round stopped at a choice");
      const last = await lastRound(t);
      if (last.outcome.spins.some((s) => s.kind === "free") && paidAtMark(last.outcome)) round = last;
    }
    expect(round, "no round with free spins and a win paid at a grid multiplier in 6 rounds");
    const o = round.outcome;
    // the marks stay on the grid after the round: the ones its last grid_multipliers left
    const want = marksOf(o);
    expect(want.max > 1, `the round's last marks have no multiplier: ${JSON.stringify(want)}`);
    const shown = await marksShown(t);
    expect(shown.marked === want.marked && shown.max === want.max, `the screen shows ${JSON.stringify(shown)} marks, the round left ${JSON.stringify(want)}`);
    const banners = await t.page.evaluate(() => window.__banners);
    const award = o.spins.flatMap((s) => s.events).find((e) => e.type === "free_spins_award");
    expect(banners.some((b) => b.includes(`${award.trigger_count} SCATTERS: ${award.spins_awarded} FREE SPINS`)), `the scatters' award was not announced (banners: ${banners.slice(-8).join(" | ")})`);
    // the triggered free spins' intro (the spins awarded) and outro (their total): the moments
    // a bought round's read the same way
    const moments = await t.page.evaluate(() => window.__moments);
    const intro = moments.find((m) => m.kind.includes("fs-intro"));
    expect(intro?.title === "FREE SPINS" && intro.lines[0] === `${award.spins_awarded} FREE SPINS`, `the intro reads ${JSON.stringify(intro)}, ${award.spins_awarded} spins were awarded`);
    const freeWin = o.spins.filter((s) => s.kind !== "base").reduce((a, s) => a + s.win, 0);
    const outro = moments.filter((m) => m.kind.includes("fs-outro")).at(-1);
    expect(outro?.to === String(freeWin), `the outro counts to ${outro?.to}, the free spins won ${freeWin} (moments: ${JSON.stringify(moments)})`);
    const mark = o.spins.flatMap((s) => s.events).find((e) => e.type === "grid_multipliers" && e.applied.some((m) => m > 1));
    expect(banners.some((b) => b.includes(`(x${mark.applied.find((m) => m > 1)})`)), `no win named its grid multiplier x${mark.applied.find((m) => m > 1)} (banners: ${banners.slice(-12).join(" | ")})`);
    const win = await t.page.locator("[data-testid=win]").innerText();
    expect(meterShows(win, o.total_win), `WIN shows ${win}, the round won ${o.total_win}`);
    // a tier's money line waits for its count to end (the gallery read "997" over €10.00)
    const early = moments.filter((m) => m.kind.includes("celebration") && m.linesEarly);
    expect(!early.length, `a celebration showed its lines while its amount counted: ${JSON.stringify(early)}`);
    await t.assertDrawn("cluster-mult-marks");
    await t.layout("cluster-mult-marks");
    await t.page.setViewportSize({ width: 390, height: 844 });
    await t.assertDrawn("cluster-mult-marks-phone");
    await t.layout("cluster-mult-marks-phone");
    // the next round starts clean: what it shows at its end is its own marks only
    expect((await t.spin(GM.key)) === "idle", "a round stopped at a choice");
    const next = await lastRound(t);
    const again = await marksShown(t);
    const own = marksOf(next.outcome);
    expect(again.marked === own.marked && again.max === own.max, `after the next round the screen shows ${JSON.stringify(again)} marks, that round left ${JSON.stringify(own)}`);
  },
};


// The line family's drawn wild multipliers ([wild_multipliers]): the shipped example game,
// served from its file as an extra lab game.
const WILDS = { operator: "demo-lab", key: "wildmult-example", gameFile: `${WEB}/../src/reelforge/games/wildmult_example/wildmult-example-v1.toml` };

/** Share, in a badge's dark red, of the badge area of reel `reel` (0-based) starting `top`
 * cells below the window's top edge (generic.ts's layout): a drawn wild's mark sits at the bottom
 * of its cell (`row + 0.62`), a filled reel's multiplier at the top of the reel (`0.1`). */
async function badgeShare(t, reel, top, reels, rows) {
  const win = await t.rect("[data-testid=reels-window]");
  const cell = Math.floor(Math.min(1100 / reels, 640 / rows)), gap = 8; // generic.ts's layout
  const k = win.width / (reels * (cell + gap) - gap);
  const clip = { x: win.x + (reel * (cell + gap) + cell * 0.3) * k, y: win.y + top * cell * k, width: cell * 0.4 * k, height: cell * 0.3 * k };
  const png = decodePng(await t.page.screenshot({ clip }));
  let red = 0, n = 0;
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    const [r, g, b] = [png.pixels[i], png.pixels[i + 1], png.pixels[i + 2]];
    if (r > 100 && r < 180 && g < 60 && b < 40) red++;
    n++;
  }
  return red / n;
}

/** A drawn wild's mark, at the bottom of its cell. */
const markShare = (t, reel, row, reels, rows) => badgeShare(t, reel, row + 0.62, reels, rows);

const WILD_MARKS = {
  name: "lab: wildmult-example's wilds show the multipliers they drew (1440x900)",
  gameFiles: [WILDS],
  viewport: { width: 1440, height: 900 },
  async run(t) {
    await open(t, WILDS.key);
    let round;
    for (let i = 0; i < 30 && !round; i++) {
      expect((await t.spin(WILDS.key)) === "idle", "a round stopped at a choice");
      const last = await lastRound(t);
      if (last.outcome.spins.at(-1).events.some((e) => e.type === "wild_multiplier")) round = last;
    }
    expect(round, "no wild in view in 30 rounds");
    const spin = round.outcome.spins.at(-1);
    const game = await t.api(`/api/v1/games/${WILDS.key}`);
    const { reels, rows } = game.info.window;
    await t.page.waitForTimeout(300);
    for (const e of spin.events.filter((x) => x.type === "wild_multiplier")) {
      const share = await markShare(t, e.reel, e.row, reels, rows);
      expect(share > 0.1, `the wild on reel ${e.reel + 1}, row ${e.row + 1} (x${e.value}) shows no mark (${(share * 100).toFixed(1)}% of its badge area)`);
    }
    const wildCells = new Set(spin.events.filter((x) => x.type === "wild_multiplier").map((x) => `${x.reel},${x.row}`));
    const plain = [...Array(reels * rows).keys()].map((i) => [Math.floor(i / rows), i % rows]).find(([r, w]) => !wildCells.has(`${r},${w}`));
    const share = await markShare(t, plain[0], plain[1], reels, rows);
    expect(share < 0.1, `reel ${plain[0] + 1}, row ${plain[1] + 1} shows no wild but a mark (${(share * 100).toFixed(1)}%)`);
    await t.assertDrawn("wildmult-marks");
    await t.shot("wildmult-marks");
  },
};

// The line family's expanding sticky wilds ([wild_multipliers.free] expand = "sticky"): Sticky
// Wild Example's rules with a scatter on every stop of reels 1-3 (3 free spins each round) and
// wild-heavy free reels, served as an extra lab game; the shipped example is in the lab lobby.
// The redraw one (sticky_multiplier = "redrawn"): the same, every wild reel drawing anew each
// spin, so its badge must show this spin's draw, not the one it filled with.
const STICKY = { operator: "demo-lab", key: "sticky-fs", gameFile: `${WEB}/tests/e2e/games/sticky-example-e2e-fs-v1.toml` };
const STICKY_REDRAW = { operator: "demo-lab", key: "sticky-redraw-fs", gameFile: `${WEB}/tests/e2e/games/sticky-redraw-example-e2e-fs-v1.toml`, redrawn: true };

/** A filled reel's multiplier badge, at the reel's top. */
const reelBadgeShare = (t, reel, reels, rows) => badgeShare(t, reel, 0.1, reels, rows);

/** A held reel whose multiplier on a spin differs from the spin before: a redrawn one. */
const redrawnReel = (spins) => spins.slice(1).some((spin, i) => spin.events.some((e) => e.type === "sticky_wild" && e.held
  && spins[i].events.some((b) => b.type === "sticky_wild" && b.reel === e.reel && b.value !== e.value)));

const STICKY_WILDS = [STICKY, STICKY_REDRAW].flatMap((game) => [{ width: 1440, height: 900 }, { width: 390, height: 844 }].map((viewport) => ({
  name: game.redrawn
    ? `lab: sticky wilds fill their reels and draw a new multiplier each free spin (${viewport.width}x${viewport.height})`
    : `lab: sticky wilds fill their reels and keep their multipliers through the free spins (${viewport.width}x${viewport.height})`,
  gameFiles: [game],
  viewport,
  async run(t) {
    await open(t, game.key);
    let round;
    for (let i = 0; i < 10 && !round; i++) {
      expect((await t.spin(game.key)) === "idle", "a round stopped at a choice");
      const last = await lastRound(t);
      const spins = last.outcome.spins.filter((s) => s.kind === "free");
      // kept: the last free spin holds a reel wild; redrawn: its badge also changed number on it
      const held = spins.at(-1)?.events.some((e) => e.type === "sticky_wild" && e.held);
      if (held && (!game.redrawn || redrawnReel(spins.slice(-2)))) round = last;
    }
    expect(round, `no free spin ending on a held wild reel${game.redrawn ? " with a new multiplier" : ""} in 10 rounds`);
    const win = await t.page.locator("[data-testid=win]").innerText();
    expect(meterShows(win, round.outcome.total_win), `WIN shows ${win}, the round won ${round.outcome.total_win}`);
    const spin = round.outcome.spins.at(-1);
    const described = await t.api(`/api/v1/games/${game.key}`);
    const { reels, rows } = described.info.window;
    await t.page.waitForTimeout(300);
    const wild = new Set(spin.events.filter((e) => e.type === "sticky_wild").map((e) => e.reel));
    for (const r of wild) {
      const share = await reelBadgeShare(t, r, reels, rows);
      expect(share > 0.1, `wild reel ${r + 1} shows no multiplier badge (${(share * 100).toFixed(1)}% of its badge area)`);
    }
    const plain = [...Array(reels).keys()].find((r) => !wild.has(r));
    const share = await reelBadgeShare(t, plain, reels, rows);
    expect(share < 0.1, `reel ${plain + 1} is not wild but shows a badge (${(share * 100).toFixed(1)}%)`);
    const name = `${game.redrawn ? "sticky-redraw" : "sticky-wilds"}-${viewport.width}`;
    await t.assertDrawn(name);
    await t.layout(name);
    await t.shot(name);
  },
})));

export const tests = [FREE_SPINS, GRID_MULTIPLIERS, WILD_MARKS, ...STICKY_WILDS, ...MODES, ...LAB.flatMap(({ key, viewport, intro }) => [{
  name: `lab: ${key} from the lab lobby, a win, its information page, a replay (${viewport.width}x${viewport.height})`,
  viewport,
  ...(intro ? { options: { quality: "LOW", intro: true, music: false } } : {}),
  async run(t) {
    await open(t, key);
    if (intro) await introSaid(t, key);
    await t.assertDrawn(`${key}-idle`);
    await t.layout(`${key}-idle`);
    await watchCaptions(t);
    const round = await playUntilWin(t, key, 25);
    await captionsSaid(t, key, round);
    await t.assertDrawn(`${key}-win`);
    await t.layout(`${key}-win`);
    await infoPage(t, key);
    await replay(t, key, round);
  },
}])];

// The hold-and-win family's respins (a playtest saw the screen stop short of idle after such a
// round, PLAY never enabled again): Hold & Win Example's rules with coins on most stops, so
// nearly every round plays its respins to the end, served as an extra lab game.
const HOLDWIN = { operator: "demo-lab", key: "holdwin-fs", gameFile: `${WEB}/tests/e2e/games/holdwin-example-e2e-fs-v1.toml` };

// One round of respins at each size: the e2e suite's time is CI's budget. That the respins
// land without the trigger's slowdown is the unit test's (tests/unit/holdwin-respins.test.ts): a
// wall-clock limit here would measure the machine. What the player is shown (a playtest saw no
// value on the locked coins, no respins counter, no total): mid-feature the meter under the
// reels with the respins left and the coins' total, each coin's value on it; at the end the
// collect moment's total, the meter's and the WIN meter's, each the round's own figure.
const HOLD_AND_WIN = [{ width: 1440, height: 900 }, { width: 390, height: 844 }].map((viewport) => ({
  name: `lab: hold-and-win respins show each coin's value, the respins left and the total, which the round paid (${viewport.width}x${viewport.height})`,
  gameFiles: [HOLDWIN],
  viewport,
  async run(t) {
    await open(t, HOLDWIN.key);
    await t.page.uncheck("[data-testid=turbo]"); // at the speed a player sees first
    const screen = t.page.locator(`[data-testid=game-${HOLDWIN.key}]`);
    const overlay = screen.locator("[data-hold-coins]");
    const meter = t.page.locator("[data-testid=hold-meter]");
    let respun = 0;
    for (let i = 0; i < 4 && respun < 1; i++) {
      await t.page.locator("[data-testid=play]:not([disabled])").waitFor({ timeout: 30000 });
      await t.page.click("[data-testid=play]");
      // a round with respins shows the meter; one without goes back to idle
      const respins = await Promise.race([
        meter.waitFor({ state: "visible", timeout: 60000 }).then(() => true, () => false),
        screen.and(t.page.locator("[data-flow=idle]")).waitFor({ timeout: 60000 }).then(() => false, () => false),
      ]);
      if (!respins) continue;
      respun++;
      // mid-feature: the respins left (3 at most, as the rules say) and the total, visible
      const left = Number(await meter.locator("[data-testid=hold-respins]").getAttribute("data-left"));
      expect(left >= 0 && left <= 3, `the meter shows ${left} respins left`);
      expect(/TOTAL [\d,]+ \(€[\d.,]+\)/.test(await meter.innerText()), `the meter reads "${await meter.innerText()}"`);
      await t.shot(`holdwin-${viewport.width}-respins`);
      // the collect moment counts up to the feature's total
      const collect = t.page.locator(".moment.hw-collect");
      await collect.waitFor({ timeout: 90000 });
      const collected = Number(await collect.locator("[data-testid=moment-amount]").getAttribute("data-to"));
      await t.shot(`holdwin-${viewport.width}-collect`);
      await screen.and(t.page.locator("[data-flow=idle]")).waitFor({ timeout: 60000 });
      const round = await lastRound(t);
      const o = round.outcome;
      expect(o.spins.some((s) => s.kind === "bonus"), `round ${round.round_id}: the meter showed, no respins played`);
      // each coin's value on its cell is its cash event's, in the round's stakes
      const cash = o.spins.flatMap((s) => s.events.filter((e) => e.type === "cash"));
      const shown = (await overlay.getAttribute("data-hold-coins")).split(" ");
      expect(JSON.stringify(shown) === JSON.stringify(cash.map((e) => `${e.reel},${e.row}:${e.value * o.bet.stake}`)), `coins shown ${shown.join(" ")}, the round locked ${cash.map((e) => `${e.reel},${e.row}:${e.value}x`).join(" ")}`);
      // the total the player is shown is what the round paid for its respins, and the WIN meter is the round's win
      const feature = o.spins.filter((s) => s.kind === "bonus").reduce((a, s) => a + s.win, 0);
      expect(collected === feature, `the collect moment counted to ${collected}, the respins paid ${feature}`);
      const total = await meter.locator("[data-testid=hold-total]").innerText();
      expect(await meter.isVisible() && total.startsWith(`TOTAL ${credits(feature)} `), `the meter's total reads "${total}", the respins paid ${feature}`);
      const win = await t.page.locator("[data-testid=win]").innerText();
      expect(meterShows(win, o.total_win), `round ${round.round_id}: WIN shows ${win}, the round won ${o.total_win}`);
      // a trigger spin that won too: the meter names its win beside the coins' total, which add
      // up to WIN (a playtest saw WIN 554 under TOTAL 550, nothing naming the 4); else no sum
      const base = o.spins.filter((s) => s.kind !== "bonus").reduce((a, s) => a + s.win, 0);
      const sum = meter.locator("[data-testid=hold-sum]");
      if (base > 0 && base + feature === o.total_win) {
        const said = await sum.innerText();
        expect(said.endsWith(` ${credits(base)} = WIN ${credits(o.total_win)}`), `round ${round.round_id}: the meter's sum reads "${said}", the trigger spin won ${base}, the round ${o.total_win}`);
      } else expect(await sum.count() === 0, `round ${round.round_id}: the meter names a trigger win (${await meter.innerText()}), the trigger spin won ${base}`);
      await t.assertDrawn(`holdwin-${viewport.width}-end`);
      await t.layout(`holdwin-${viewport.width}-end`);
      await t.shot(`holdwin-${viewport.width}-end`);
    }
    expect(respun === 1, "no round showed the hold-and-win meter (respins left, total)");
    await t.page.locator("[data-testid=play]:not([disabled])").waitFor({ timeout: 10000 });
  },
}));

tests.push(...HOLD_AND_WIN);
