// The information pages (issue 21, item 2): each game's rule sheet on its page section by
// section (the headings derived from the sheets themselves, seed-sections.json, which
// tests/test_help_pages.py holds to the sheets), the paytable drawn with the game's own symbols
// at the current bet in credits and in currency, a diagram of every payline, the RTP of each
// mode and the maximum win; at 1440x900 and 390x844. Each page wears its game (checkLooks).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { WEB } from "./server.mjs";

function expect(cond, message) {
  if (!cond) throw new Error(message);
}
const SHEETS = JSON.parse(readFileSync(join(WEB, "tests", "e2e", "seed-sections.json"), "utf8")).games;
const GAMES = ["cluedo", "cops-n-robbers", "candy-jar-clusters"];
const pct = (v) => `${(v * 100).toFixed(2)}%`;
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
// The test's own money formatter for the e2e operators' currencies (two decimals, a symbol).
const SIGN = { EUR: "€", GBP: "£" };
function money(minor, currency) {
  expect(SIGN[currency], `no test formatter for ${currency}`);
  return `${SIGN[currency]}${grouped(Math.floor(minor / 100))}.${String(minor % 100).padStart(2, "0")}`;
}

async function openInfo(t, key) {
  await t.page.locator("[data-testid=info]").waitFor({ timeout: 30000 });
  await t.page.locator("[data-testid=paytable] .info-pay").first().waitFor({ timeout: 30000 });
  return t.page.locator("[data-testid=info]").innerText();
}

/** Every heading of the sheet is a heading of the page; every section the server sent is drawn. */
async function checkSections(t, g, text) {
  const sheet = SHEETS.find((s) => s.game === g.key);
  expect(sheet, `${g.key}: no rule sheet listed in seed-sections.json`);
  const headings = (await t.page.locator("[data-testid=info] h2, [data-testid=info] h3").allInnerTexts()).map((x) => x.trim().toLowerCase());
  const missing = sheet.sections.filter((s) => !headings.includes(s.toLowerCase()));
  expect(!missing.length, `${g.key}: the sheet's sections ${JSON.stringify(missing)} are not on the page (headings: ${headings.join(" | ")})`);
  const sections = await t.page.locator("[data-testid=info] section.info-section").evaluateAll((els) => els.map((e) => e.querySelector("h2")?.textContent));
  expect(JSON.stringify(sections) === JSON.stringify(g.info.help.sections.map((s) => s.title)), `${g.key}: sections drawn ${sections}, sent ${g.info.help.sections.map((s) => s.title)}`);
  expect(!/\{[a-z_.A-Z0-9]+\}|\*\*/.test(text), `${g.key}: an unfilled fact or markup on the page`);
}

/** Each card's rows: the description's pays times the bet, in credits and in currency. */
async function checkPaytable(t, g, bet) {
  const b = g.bets.find((x) => x.lines === bet.lines && x.bet_per_line === bet.bet_per_line);
  expect(b, `${g.key}: the bet ${JSON.stringify(bet)} is not offered`);
  const caption = await t.page.locator("[data-testid=paytable-bet]").innerText();
  expect(caption.includes(`at a bet of ${grouped(b.stake_credits)} credits (${money(b.stake_credits * g.denomination, g.currency)})`), `${g.key}: paytable not at the bet ${b.stake_credits}: ${caption}`);
  const cards = await t.page.locator("[data-testid=paytable] .info-pay").evaluateAll((els) => els.map((e) => ({
    testid: e.dataset.testid, symbols: e.dataset.symbol,
    rows: [...e.querySelectorAll("tbody tr")].map((r) => ({ credits: Number(r.dataset.credits), text: r.textContent })),
  })));
  const expected = [
    ...g.info.pays.table.map((r) => ({ testid: "pay", symbols: r.symbol, pays: r.pays.map(([, p]) => p * bet.bet_per_line) })),
    ...(g.info.pays.mixed ?? []).map((m) => ({ testid: "pay-mixed", symbols: m.symbols.join(" "), pays: m.pays.map(([, p]) => p * bet.bet_per_line) })),
    ...(g.info.scatters ?? []).filter((s) => s.pays.length).map((s) => ({ testid: "pay-scatter", symbols: s.symbol, pays: s.pays.map(([, p]) => p * b.stake_credits) })),
  ];
  expect(cards.length === expected.length, `${g.key}: ${cards.length} pay cards, the description has ${expected.length}`);
  for (const want of expected) {
    const card = cards.find((c) => c.testid === want.testid && c.symbols === want.symbols);
    expect(card, `${g.key}: no card for ${want.symbols}`);
    const shown = card.rows.map((r) => r.credits).sort((x, y) => x - y);
    const sent = [...want.pays].sort((x, y) => x - y);
    expect(JSON.stringify(shown) === JSON.stringify(sent), `${g.key}: ${want.symbols} pays ${sent} at ${JSON.stringify(bet)}, shown ${shown}`);
    for (const r of card.rows)
      expect(r.text.includes(grouped(r.credits)) && r.text.includes(money(r.credits * g.denomination, g.currency)), `${g.key}: ${want.symbols} row "${r.text}" lacks ${r.credits} credits or ${money(r.credits * g.denomination, g.currency)}`);
  }
  // The game's own art for every symbol shown: a decoded image with many colours.
  const art = await t.page.locator("[data-testid=paytable] [data-symbol]").evaluateAll((els) => els.filter((e) => e.classList.contains("info-symbol")).map((img) => {
    if (img.tagName !== "IMG" || !img.complete || !img.naturalWidth) return { id: img.dataset.symbol, ok: false, colours: 0 };
    const c = document.createElement("canvas");
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const x = c.getContext("2d");
    x.drawImage(img, 0, 0);
    const px = x.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let opaque = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i + 3] > 32) { opaque++; colours.add((px[i] >> 4) * 256 + (px[i + 1] >> 4) * 16 + (px[i + 2] >> 4)); }
    return { id: img.dataset.symbol, ok: opaque > (px.length / 4) * 0.15, colours: colours.size };
  }));
  const ids = new Set(expected.flatMap((e) => e.symbols.split(" ")));
  for (const id of ids) {
    const a = art.find((x) => x.id === id);
    expect(a && a.ok && a.colours >= 3, `${g.key}: the symbol ${id} is not drawn in the paytable (${JSON.stringify(a)})`);
  }
}

/** One diagram per payline, its lit cells the description's rows. */
async function checkPaylines(t, g) {
  const lines = g.info.paylines ?? [];
  const drawn = await t.page.locator("[data-testid=payline]").evaluateAll((els) => els.map((e) => {
    const on = [...e.querySelectorAll("rect[data-on]")].map((r) => [Number(r.dataset.reel), Number(r.dataset.row)]).sort((a, b) => a[0] - b[0]);
    return on.map(([, row]) => row);
  }));
  expect(drawn.length === lines.length, `${g.key}: ${drawn.length} payline diagrams, the description has ${lines.length}`);
  lines.forEach((line, i) => expect(JSON.stringify(drawn[i]) === JSON.stringify(line), `${g.key}: line ${i + 1} drawn through rows ${drawn[i]}, the description says ${line}`));
}

function checkFigures(g, text) {
  for (const r of g.rtp) expect(text.includes(pct(r.value)), `${g.key}: RTP ${pct(r.value)} (${r.mode}) not shown`);
  expect(text.includes(`${grouped(g.max_win.credits)} credits`), `${g.key}: the maximum win, ${g.max_win.credits} credits, not shown`);
  // said as the lobby and the intro say it (a new player read Cluedo's as 240,118.4x, 240,118×
  // and, here, 240,118.40 times): whole times the bet, rounded down; never a form of its own
  const whole = grouped(Math.floor(g.max_win.x));
  expect(text.includes(`${whole}× the bet`), `${g.key}: the maximum win is not said "${whole}× the bet"`);
  const other = text.match(new RegExp(`${whole}(\\.\\d+)?( times|x\\b)`));
  expect(!other, `${g.key}: the maximum win said another way: "${other?.[0]}"`);
  for (const dev of ["Blank (Fortune Spins)", "the stake costs x", "base:", "bet_per_line", "undefined", "NaN"])
    expect(!text.includes(dev), `${g.key}: developer words on the page: ${dev}`);
}

// Each page wears its game (a reviewer comparing with large studios' help pages found a plain
// document): the game's scene behind the logo at its head, each paytable tile showing its
// symbols' art large (the reels' own images, checked above), and the feature sections each
// with a picture from the game's art, decoded.
const FEATURE_ART = {
  cluedo: ["jackpot", "free-spins", "gamble"],
  "cops-n-robbers": ["big-money-bonus", "id-parade", "fortune-spins", "gamble"],
  "candy-jar-clusters": ["jars", "free-spins", "jackpots"],
};
async function checkLooks(t, g, phone) {
  await t.page.waitForFunction(() => [...document.querySelectorAll("[data-testid=info] figure img")].every((i) => i.complete), null, { timeout: 5000 }).catch(() => {});
  const look = await t.page.evaluate((features) => {
    const head = document.querySelector("[data-testid=info] header");
    const logo = head?.querySelector("svg")?.getBoundingClientRect();
    const symbols = [...document.querySelectorAll("[data-testid=paytable] .info-pay img.info-symbol")].map((i) => { const r = i.getBoundingClientRect(); return Math.round(Math.min(r.width, r.height)); });
    const art = features.map((id) => {
      const imgs = [...document.querySelectorAll(`[data-testid=info-section-${id}] figure img`)];
      return { id, pictures: imgs.length, decoded: imgs.filter((i) => i.complete && i.naturalWidth > 0).length };
    });
    return { scene: head ? getComputedStyle(head).backgroundImage : "", logo: logo ? Math.round(logo.width) : 0, symbols, art };
  }, FEATURE_ART[g.key]);
  expect(/url\(/.test(look.scene) && look.logo > 200, `${g.key}: the page's head is not the game's scene and logo (background ${look.scene.slice(0, 80)}, logo ${look.logo} px wide)`);
  const least = phone ? 60 : 80;
  expect(look.symbols.length && Math.min(...look.symbols) >= least, `${g.key}: the paytable's symbols are drawn at ${Math.min(...look.symbols)} px, not a tile's ${least} px`);
  for (const a of look.art) expect(a.pictures && a.decoded === a.pictures, `${g.key}: the section ${a.id} has no picture from the game (${JSON.stringify(a)})`);
}

/** Nothing on a phone's page in letters under 12 px. */
async function noSmallText(t, key) {
  const small = await t.page.evaluate(() => {
    const out = [];
    const walk = document.createTreeWalker(document.querySelector("[data-testid=info]"), NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || !el || !el.getClientRects().length) continue;
      const px = parseFloat(getComputedStyle(el).fontSize);
      if (px < 12) out.push(`${el.tagName}.${el.className} ${px}px "${n.textContent.trim().slice(0, 30)}"`);
    }
    return out;
  });
  expect(!small.length, `${key}: text under 12 px on a phone: ${small.slice(0, 5).join("; ")}`);
}

async function noSideways(t, key) {
  const wide = await t.page.evaluate(() => {
    const main = document.querySelector("main");
    const over = [...document.querySelectorAll("[data-testid=info] *")].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => `${e.tagName}.${e.className}`);
    return { scroll: main.scrollWidth - main.clientWidth, over: over.slice(0, 5) };
  });
  expect(wide.scroll <= 1 && !wide.over.length, `${key}: the page is wider than the screen (${JSON.stringify(wide)})`);
}

async function shootSections(t, key, prefix) {
  await t.shot(`${prefix}-${key}-top`);
  for (const part of ["paytable", "paylines"]) {
    const el = t.page.locator(`[data-testid=${part}]`);
    if (!(await el.count())) continue;
    await el.first().evaluate((e) => e.scrollIntoView({ block: "start" }));
    await t.shot(`${prefix}-${key}-${part}`);
  }
}

export const tests = [
  {
    name: "info pages: each sheet's sections, the paytable at the current bet, paylines, RTP and max win (1440x900)",
    async run(t) {
      await t.page.goto(`${t.base}/demo?operator=demo`);
      await t.page.locator("[data-testid=lobby]").waitFor({ timeout: 150000 });
      const { games } = await t.api("/api/v1/games");
      for (const key of GAMES) {
        const g = games.find((x) => x.key === key);
        // The game's screen at a bet other than the default, then its information page.
        await t.page.goto(`${t.base}/#/game/${key}`);
        await t.page.locator(`[data-testid=game-${key}] [data-testid=play]`).waitFor({ timeout: 30000 });
        await t.page.click({ cluedo: "[data-testid=line-bet-plus]", "cops-n-robbers": "[data-testid=stake-plus]", "candy-jar-clusters": "[data-testid=candy-bet-plus]" }[key]);
        const current = { lines: g.default_bet.lines, bet_per_line: g.default_bet.bet_per_line + 1 };
        // The console's info button: the RTP at once, and the way to the information page.
        await t.page.click("[data-testid=game-info]");
        const rtpShown = await t.page.locator("[data-testid=info-panel] [data-testid=rtp]").innerText();
        expect(rtpShown === pct(g.rtp.find((r) => r.mode === "base").value), `${key}: the info button shows RTP ${rtpShown}`);
        await t.page.click("[data-testid=nav-info]");
        const text = await openInfo(t, key);
        await checkSections(t, g, text);
        await checkPaytable(t, g, current);
        await checkPaylines(t, g);
        checkFigures(g, text);
        await checkLooks(t, g, false);
        if (key === "candy-jar-clusters") {
          // Candy's console speaks credits and money, never coins: so do its pays (a new player
          // read "A bet is 20 coins" and "Coin value" here, credits everywhere else)
          const pays = await t.page.locator("[data-testid=info-section-pays]").innerText();
          expect(!/\bcoins?\b/i.test(pays), `${key}: the pays speak of coins: ${pays.match(/.{0,60}\bcoins?\b.{0,40}/i)?.[0]}`);
        }
                if (key === "cops-n-robbers") {
          // every special symbol says what it does, the Robber too (his pay card does not say he is wild)
          const special = g.info.symbols.filter((s) => s.role !== "regular").map((s) => s.id);
          const noted = await t.page.locator("[data-testid=special-symbols] li:has([data-testid=special-note])").evaluateAll((ls) => ls.map((l) => l.dataset.symbol));
          expect(JSON.stringify(noted) === JSON.stringify(special) && noted.includes("ROBBER"), `${key}: special symbols with what they do: ${noted}, the game's ${special}`);
        }
        // A compact bet picker: one select per part of the bet, no list of every stake.
        const options = await t.page.locator("[data-testid=info-bet] select").evaluateAll((ss) => ss.map((s) => s.options.length));
        const distinct = (f) => new Set(g.bets.map(f)).size;
        expect(JSON.stringify(options) === JSON.stringify([distinct((b) => b.lines), distinct((b) => b.bet_per_line)].filter((n, i) => i === 1 || n > 1)), `${key}: bet picker options ${options}`);
        // Another bet per line redraws the pays at it.
        const top = Math.max(...g.bets.filter((b) => b.lines === current.lines).map((b) => b.bet_per_line));
        await t.page.selectOption("[data-testid=info-bet-per-line]", String(top));
        await checkPaytable(t, g, { lines: current.lines, bet_per_line: top });
        const bets = await t.page.locator("[data-testid=info-bets]").innerText();
        const stakes = g.bets.map((b) => b.stake_credits);
        expect(bets.includes(money(Math.min(...stakes) * g.denomination, g.currency)) && bets.includes(money(Math.max(...stakes) * g.denomination, g.currency)), `${key}: the bets shown: ${bets}`);
        if (g.jackpot) {
          const { jackpots } = await t.api("/api/v1/jackpots");
          const pool = jackpots.find((j) => j.currency === g.currency && j.pool.startsWith(g.title));
          await t.page.locator("[data-testid=info-jackpot-meter]").filter({ hasText: money(pool.amount_minor, pool.currency) }).waitFor({ timeout: 10000 });
        }
        await t.page.locator("[data-testid=info] section.info-section").first().scrollIntoViewIfNeeded();
        await shootSections(t, key, "desktop");
        // Back in the game, by its link, the back button or a reload: the bet chosen there, not
        // the default (a playtest's BET MAX came back as 20 credits after reading the rules).
        const stake = money(g.bets.find((b) => b.lines === current.lines && b.bet_per_line === current.bet_per_line).cost_minor.base, g.currency);
        const betBack = async (how) => {
          await t.page.locator(`[data-testid=game-${key}] [data-testid=play]`).waitFor({ timeout: 30000 });
          // the bet is written on the screen's first render after its session (CI read it empty)
          await t.page.waitForFunction((sel) => !!document.querySelector(sel)?.textContent?.trim(), `[data-testid=game-${key}] [data-testid=bet]`, { timeout: 10000 }).catch(() => {});
          const shown = await t.page.locator(`[data-testid=game-${key}] [data-testid=bet]`).innerText();
          expect(shown === stake, `${key}: back in the game by ${how}, the bet reads ${shown}, not the ${stake} chosen`);
        };
        await t.page.click("[data-testid=info-play]");
        await betBack("its Play link");
        await t.page.goto(`${t.base}/#/info/${key}`);
        await t.page.goBack();
        await betBack("the back button");
        await t.page.reload();
        await betBack("a reload");
      }
    },
  },
  {
    name: "info pages on a phone: every section, the paytable and the paylines fit 390 px (390x844)",
    viewport: { width: 390, height: 844 },
    async run(t) {
      await t.page.goto(`${t.base}/demo?operator=demo-gb`);
      await t.page.locator("[data-testid=lobby]").waitFor({ timeout: 150000 });
      const { games } = await t.api("/api/v1/games");
      for (const key of GAMES) {
        const g = games.find((x) => x.key === key);
        await t.page.goto(`${t.base}/#/info/${key}`);
        const text = await openInfo(t, key);
        await checkSections(t, g, text);
        await checkPaytable(t, g, g.default_bet); // no bet chosen in this tab: the game's default
        await checkPaylines(t, g);
        checkFigures(g, text);
        await checkLooks(t, g, true);
        await noSmallText(t, key);
        const rules = await t.page.locator("[data-testid=info-jurisdiction]").first().innerText();
        expect(rules.includes("GB") && rules.includes(money(g.jurisdiction.max_stake_minor, g.currency)), `${key}: the GB rules of play not shown: ${rules}`);
        await noSideways(t, key);
        // The table of contents takes the player to a section.
        const last = g.info.help.sections[g.info.help.sections.length - 1];
        await t.page.click(`[data-testid=info-toc-${last.id}]`);
        await t.page.locator(`[data-testid=info-section-${last.id}] h2`).waitFor({ state: "visible" });
        await t.page.waitForFunction((id) => { const r = document.querySelector(`[data-testid=info-section-${id}]`).getBoundingClientRect(); return r.top < window.innerHeight && r.bottom > 0; }, last.id, { timeout: 5000 });
        await t.page.evaluate(() => document.querySelector("main").scrollTo(0, 0));
        await shootSections(t, key, "phone");
      }
    },
  },
];
