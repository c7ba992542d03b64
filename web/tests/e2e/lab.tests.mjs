// The game lab (operator demo-lab: the format's example games, settings.py EXAMPLE_GAMES) end to
// end, each drawn by the generic screen with no client code of its own: opened from the lab's
// lobby, played until a round wins (the WIN shown is the server's round win), its information
// page (every symbol the game pays), one round replayed from History. At 1440x900 and 390x844.
import { WEB } from "./server.mjs";

// A test-only game file (web/tests/e2e/games/): Anywhere Example's rules with frequent scatters
// and 3 free spins, served as an extra game of the lab operator.
const FS = { operator: "demo-lab", key: "anywhere-fs", gameFile: `${WEB}/tests/e2e/games/anywhere-example-e2e-fs-v1.toml` };

const LAB = [
  { key: "ways-example", viewport: { width: 1440, height: 900 } },
  { key: "anywhere-example", viewport: { width: 390, height: 844 } },
];

function expect(cond, message) {
  if (!cond) throw new Error(message);
}

const credits = (n) => n.toLocaleString("en");

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
    expect(win.startsWith(`${credits(round.outcome.total_win)} `), `${key}: WIN shows ${win}, the round won ${round.outcome.total_win}`);
    if (round.outcome.total_win > 0) {
      await wonNamed(t, key, round);
      return round;
    }
  }
  throw new Error(`${key}: no win in ${tries} rounds`);
}

/** After the round its screen's wins stay named over the reels (the generic win cycle): the
 * words show one of the last spin's paid amounts. */
async function wonNamed(t, key, round) {
  const paid = round.outcome.spins.at(-1).events.filter((e) => "win" in e && e.win > 0).map((e) => credits(e.win));
  if (!paid.length) return; // the round's win came before its last spin (free spins)
  const cycle = t.page.locator("[data-testid=win-cycle]");
  await cycle.waitFor({ state: "visible", timeout: 10000 });
  const words = await cycle.innerText();
  expect(paid.some((p) => words.endsWith(` ${p}`) || words.includes(` ${p}\n`)), `${key}: the win shown over the reels "${words}" names none of ${paid.join(", ")}`);
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
    expect(win.startsWith(`${credits(round.outcome.total_win)} `), `WIN shows ${win}, the round won ${round.outcome.total_win}`);
    await t.assertDrawn("anywhere-fs-after");
    await t.layout("anywhere-fs-after");
  },
};

/** Bet modes on the generic screen: each mode named with its price and cost at the bet, an
 * ante round debited its price, a buy confirmed (cancel plays nothing), played as free spins
 * alone and replayed from History. */
const MODES = [{ width: 1440, height: 900 }, { width: 390, height: 844 }].map((viewport) => ({
  name: `lab: modes-example's ante and buy modes, the buy confirmed before it plays and replayed (${viewport.width}x${viewport.height})`,
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
    await t.page.click("[data-testid=play]");
    await t.page.click("[data-testid=buy-confirm]");
    const screen = t.page.locator(`[data-testid=game-${key}]`);
    await screen.and(t.page.locator("[data-flow=idle]")).waitFor({ timeout: 120000 });
    const buy = await lastRound(t);
    expect(buy.round_id !== before && buy.bet.mode === "buy" && buy.stake_minor === costOf(buy, "buy"), `buy round: mode ${buy.bet.mode}, debited ${buy.stake_minor}`);
    expect(buy.outcome.spins.every((s) => s.kind === "free") && buy.outcome.spins.length >= 10, `the buy played ${buy.outcome.spins.map((s) => s.kind).join(",")}`);
    const win = await t.page.locator("[data-testid=win]").innerText();
    expect(win.startsWith(`${credits(buy.outcome.total_win)} `), `WIN shows ${win}, the buy won ${buy.outcome.total_win}`);
    await t.assertDrawn(`modes-buy-after-${size}`);
    await t.layout(`modes-buy-after-${size}`);
    await replay(t, key, buy); // a round with no base spin replays from History too
  },
}));

export const tests = [FREE_SPINS, ...MODES, ...LAB.flatMap(({ key, viewport }) => [{
  name: `lab: ${key} from the lab lobby, a win, its information page, a replay (${viewport.width}x${viewport.height})`,
  viewport,
  async run(t) {
    await open(t, key);
    await t.assertDrawn(`${key}-idle`);
    await t.layout(`${key}-idle`);
    const round = await playUntilWin(t, key, 25);
    await t.assertDrawn(`${key}-win`);
    await t.layout(`${key}-win`);
    await infoPage(t, key);
    await replay(t, key, round);
  },
}])];
