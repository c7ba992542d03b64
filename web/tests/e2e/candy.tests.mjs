// Candy Jar Clusters end to end: the shipped game (spin, bet +/- and menu, a win with tumbles),
// and two test-only game files (web/tests/e2e/games/, same rules, weights that hit a feature
// often): candy-fs (the jars, Free Spins with modifiers, placed wilds, jackpots, extra spins)
// and candy-cap (the random multiplier and the 10,000x cap in the base spin). Every check
// compares the screen with the round the server stored.
import { decodePng, colourStats } from "./png.mjs";
import { rectsOverlap as overlap } from "./layout.mjs";
import { WEB } from "./server.mjs";

const GAMES_DIR = `${WEB}/tests/e2e/games`;
const FS = { operator: "demo", key: "candy-fs", gameFile: `${GAMES_DIR}/candy-jar-clusters-e2e-fs-v1.toml` };
const CAP = { operator: "demo", key: "candy-cap", gameFile: `${GAMES_DIR}/candy-jar-clusters-e2e-cap-v1.toml` };

function expect(cond, message) {
  if (!cond) throw new Error(message);
}

function money(minor, symbol = "€") {
  return `${symbol}${Math.floor(minor / 100).toLocaleString("en")}.${String(minor % 100).padStart(2, "0")}`;
}

const credits = (n) => n.toLocaleString("en");

// Distinct colours (every 7th pixel) in the grid's window: measured with the idle board left
// out, the empty slots show 202 at 1440x900 and 150 at 390x844; the idle board shows 5,568
// and 2,817. Far above the empty grid's, far below the board's.
const IDLE_COLOURS = 800;

async function open(t, key) {
  await t.page.goto(`${t.base}/demo?operator=demo`);
  await t.page.locator("[data-testid=lobby]").waitFor({ timeout: 150000 });
  await t.page.click(`[data-testid=launch-${key}]`);
  await t.page.locator(`[data-testid=game-${key}] canvas`).waitFor({ timeout: 30000 });
  await t.page.locator(`[data-testid=game-${key}] [data-testid=candy-screen]`).waitFor();
  const module = await t.page.locator(`[data-testid=game-${key}]`).getAttribute("data-module");
  expect(module === "ready", `${key} is drawn by the generic screen (${module})`);
}

async function lastRound(t) {
  const [last] = (await t.api("/api/v1/rounds?limit=1")).rounds;
  return t.api(`/api/v1/rounds/${last.round_id}`);
}

const events = (outcome, type) => outcome.spins.flatMap((s) => s.events.filter((e) => e.type === type));

/** The balance shown is the server's, after the round. */
async function checkBalance(t, key) {
  const session = await t.api("/api/v1/session");
  const shown = await t.page.locator("[data-testid=balance]").innerText();
  expect(shown === money(session.balance_minor), `${key}: balance shown ${shown}, server ${money(session.balance_minor)}`);
  const credit = await t.page.locator("[data-testid=credits]").innerText();
  expect(credit === credits(session.balance_minor), `${key}: CREDITS shows ${credit}, server ${session.balance_minor} credits of 1 cent`);
  expect(await t.page.locator("[data-testid=candy-credit]").count() === 0, `${key}: a second credit field beside CREDITS`);
}


/** Each layout check of a state: the kit's (every control and decoration clear of the grid and
 * of each other) and this game's own: the win line and the panels clear of the title. */
async function layout(t, label) {
  await t.layout(label); // the kit's check (run.mjs, layout.mjs); it waits for the relayout
  const title = await t.rect("[data-testid=game-title]"); // the game's name or logo, in the page header
  for (const sel of ["[data-testid=candy-winline]", "[data-testid=candy-jackpots]", "[data-testid=candy-jars]"]) {
    const r = await t.rect(sel);
    expect(!overlap(title, r), `${label}: ${sel} ${JSON.stringify(r)} lies over the title ${JSON.stringify(title)}`);
  }
}

/** The idle board: before any spin the grid shows candies (not the empty slots): the board
 * says so and the grid's window holds many colours (an empty grid of slots holds few). */
async function idleBoardDrawn(t, label) {
  expect((await t.page.locator("[data-testid=candy-screen]").getAttribute("data-board")) === "idle", `${label}: the grid is not the idle board`);
  await t.assertDrawn(label);
  const r = await t.rect("[data-testid=reels-window]"); // laid out, though never drawn
  const png = decodePng(await t.page.screenshot({ clip: r }));
  const { distinct } = colourStats(png);
  expect(distinct > IDLE_COLOURS, `${label}: the grid holds ${distinct} colours: no candies drawn`);
}

/** Each jar says what it collects and what it is for, as the server's information pages do
 * ("Yellow candy: collected in the jar marked WILD, for Free Spins with the WILD modifier."):
 * on a desktop in a caption under it; anywhere in the note a tap on it opens, readable (at
 * least 12 px, inside the screen), closed by a tap elsewhere. */
async function jarsExplained(t, label, captions) {
  const game = await t.api("/api/v1/games/candy-jar-clusters");
  const items = game.info.help.sections.find((s) => s.id === "jars").blocks.filter((b) => b.kind === "ul").flatMap((b) => b.items);
  const text = (parts) => parts.map((p) => (typeof p === "string" ? p : p.strong ?? "")).join("");
  const rule = /receive (\d+) or more candies in one spin/.exec(text(game.info.help.sections.find((s) => s.id === "jars").blocks.filter((b) => b.kind === "p").flatMap((b) => b.parts)))[1];
  const names = { wild: "WILD", free_spins: "FREE SPINS", jackpots: "JACKPOTS" };
  for (const [jar, name] of Object.entries(names)) {
    const item = text(items.find((i) => i.some((p) => p.strong === name)));
    const candy = item.split(":")[0];
    const gives = /, for (.+?)\.?$/.exec(item)[1];
    if (captions) {
      // the caption pictures it; its sentence is its accessible name (cabinetsPictured)
      const caption = await t.page.locator(`[data-testid=jar-${jar}-caption]`).getAttribute("aria-label");
      expect(caption.toLowerCase().includes(candy.toLowerCase()) && caption.includes(gives), `${label}: the ${name} jar's caption "${caption}", the pages: ${item}`);
    }
    await t.page.click(`[data-testid=jar-${jar}]`);
    const tip = t.page.locator(`[data-testid=jar-tip][data-jar=${jar}]`);
    await tip.waitFor({ timeout: 5000 });
    const said = await tip.innerText();
    expect(said.includes(`${candy}: ${gives}`) && said.includes(`${rule} or more candies in one spin start Free Spins`), `${label}: the ${name} jar's note says "${said}"`);
    const box = await tip.boundingBox();
    const vp = t.page.viewportSize();
    expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width && box.y + box.height <= vp.height, `${label}: the ${name} note lies off the screen ${JSON.stringify(box)}`);
    const size = await tip.locator("span").first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(size >= 12, `${label}: the note's words are ${size} px`);
    if (jar === "free_spins") await t.shot(`jar-note-${label}`);
  }
  await t.page.mouse.click(5, 200);
  await t.page.locator("[data-testid=jar-tip]").waitFor({ state: "hidden", timeout: 5000 });
  // the rule in plain words: how many, of which candies (the pages' colours), start what
  const colours = Object.values(names).map((name) => text(items.find((i) => i.some((p) => p.strong === name))).split(":")[0].replace(/ candy$/i, "").toLowerCase());
  const ruleSaid = await t.page.locator("[data-testid=jar-rule] .words").innerText();
  if (captions) expect(ruleSaid.startsWith(`${rule} or more `) && colours.every((c) => ruleSaid.includes(c)) && ruleSaid.includes("in one spin start FREE SPINS"), `${label}: the rule under the jars: ${ruleSaid}`);
  // and how far the jars are toward it: none yet this round, of the rule's count
  const progress = await t.page.locator("[data-testid=jar-progress]").innerText();
  expect(progress.trim() === `0 / ${rule}`, `${label}: the jars' progress says "${progress}", the rule needs ${rule}`);
}

/** Each jar's label (a desktop's caption, a phone's chip under it) belongs to its own jar at a
 * glance (a player read a caption under a jar as the next jar's: it lay nearer that one, across
 * the shelf): it lies in line with its jar (beside it or under it, overlapping it by half its own
 * height or width), at most 16 px from it, and any other jar in line with it is at least three
 * times as far and 24 px away. */
async function jarLabelsBelong(t, label) {
  const found = await t.page.evaluate(() => {
    const jars = ["wild", "free_spins", "jackpots"];
    const shown = (el) => !!el && getComputedStyle(el).display !== "none" && el.getBoundingClientRect().width > 1;
    const box = (el) => el.getBoundingClientRect();
    return jars.map((j) => {
      const caption = document.querySelector(`[data-testid=jar-${j}-caption]`);
      const el = shown(caption) ? caption : document.querySelector(`[data-testid=modifier-${j}]`);
      const l = box(el);
      return { jar: j, label: el.dataset.testid, l: { left: l.left, right: l.right, top: l.top, bottom: l.bottom }, jars: jars.map((k) => { const r = box(document.querySelector(`[data-testid=jar-${k}]`)); return { jar: k, left: r.left, right: r.right, top: r.top, bottom: r.bottom }; }) };
    });
  });
  for (const { jar, label: which, l, jars } of found) {
    const inLine = (r) => Math.min(l.right, r.right) - Math.max(l.left, r.left) >= (l.right - l.left) / 2 || Math.min(l.bottom, r.bottom) - Math.max(l.top, r.top) >= (l.bottom - l.top) / 2;
    const gap = (r) => Math.hypot(Math.max(0, r.left - l.right, l.left - r.right), Math.max(0, r.top - l.bottom, l.top - r.bottom));
    const own = jars.find((r) => r.jar === jar);
    const said = `${label}: ${which} ${JSON.stringify(l)}, its jar ${JSON.stringify(own)}`;
    expect(inLine(own) && gap(own) <= 16, `${said}: not beside or under its jar (${gap(own).toFixed(0)} px away)`);
    for (const other of jars.filter((r) => r.jar !== jar && inLine(r))) {
      expect(gap(other) >= Math.max(24, 3 * gap(own)), `${said}: the ${other.jar} jar is ${gap(other).toFixed(0)} px from it, its own ${gap(own).toFixed(0)} px: it reads as the ${other.jar} jar's`);
    }
  }
}

/** The laptop and desktop screens players use besides 1440x900 (the design's own size). */
const DESKTOPS = [[1920, 1080], [1536, 864], [1366, 768]];

/** The stage scales with the screen, as laid out at 1440x900 (the current viewport): at each of
 * DESKTOPS the grid's frame takes the height between the header and the console (at 1920x1080
 * it stayed at 69% of the screen under an empty band, the cabinets' words tiny), on a larger
 * screen the jars keep their size beside the frame, on a smaller one the cabinets' words stay
 * 12 px on the screen, and both cabinets start and end level with the frame (at 1366x768 the
 * jars' cabinet ran 97 px below it). Back at 1440x900 after. */
async function scalesWithViewport(t) {
  const measure = () => t.page.evaluate(() => {
    const r = (sel) => document.querySelector(sel).getBoundingClientRect();
    // a caption's size as drawn: its font's px times the scale its cabinet is drawn at
    const side = document.querySelector(".candy .side.left");
    const drawn = side.getBoundingClientRect().width / side.offsetWidth;
    const words = Math.min(...[...document.querySelectorAll(".candy .jar-caption span, .candy .jar-caption b, .candy .jar-rule .words")].map((el) => parseFloat(getComputedStyle(el).fontSize) * drawn));
    return { frame: r("[data-testid=reels-window]"), jar: r("[data-testid=jar-wild]"), left: r(".candy .side.left"), right: r(".candy .side.right"), hud: r("section.game .hud"), header: r("section.game .stage").top, words };
  });
  const base = await measure();
  const jarShare = base.jar.height / base.frame.height;
  for (const [width, height] of DESKTOPS) {
    await t.page.setViewportSize({ width, height });
    await layout(t, `candy-${width}x${height}`);
    await jarLabelsBelong(t, `${width}x${height}`);
    const m = await measure();
    const label = `${width}x${height}`;
    // the room left over the frame (the cabinets' cornice) and under it (the win line): 90 px
    const room = m.hud.top - m.header;
    expect(m.frame.height >= room - 90, `${label}: the grid's frame is ${Math.round(m.frame.height)} px high in a room of ${Math.round(room)} px between the header and the console`);
    if (width === 1920) expect(m.frame.height >= 0.75 * height, `${label}: the grid's frame is ${Math.round(m.frame.height)} px, ${Math.round(m.frame.height / height * 100)}% of the screen's height`);
    expect(m.words >= 11.9, `${label}: the cabinets' words are drawn ${m.words.toFixed(1)} px high`);
    const share = m.jar.height / m.frame.height;
    if (m.frame.height > base.frame.height) expect(Math.abs(share / jarShare - 1) < 0.05, `${label}: a jar is ${Math.round(m.jar.height)} px beside a ${Math.round(m.frame.height)} px frame (${share.toFixed(3)}), at 1440x900 ${jarShare.toFixed(3)}: the cabinets do not scale with the grid`);
    for (const side of ["left", "right"]) {
      expect(Math.abs(m[side].bottom - m.frame.bottom) <= 4, `${label}: the ${side} cabinet ends at ${Math.round(m[side].bottom)}, the grid's frame at ${Math.round(m.frame.bottom)}`);
      expect(Math.abs(m[side].top - m.frame.top) <= 4, `${label}: the ${side} cabinet starts at ${Math.round(m[side].top)}, the grid's frame at ${Math.round(m.frame.top)}`);
    }
  }
  await t.page.setViewportSize({ width: 1440, height: 900 });
  await layout(t, "candy-idle-again");
}

/** The most bare shelf (CSS px) a phone may show under the grid, in either half of its width:
 * look.tests.mjs's PHONE_BARE_PX, the bound the look check holds every game's whole width to. */
const PHONE_BARE_PX = 64;

/** The tallest band (CSS px) between the grid's window and the HUD in which nothing of the
 * screen ([data-layout=decoration]) is shown, in the left and in the right half of the grid's
 * width (layout.mjs emptyUnderReels measures the whole width, where one column of panels hid a
 * bare half: the playtest's ~110 px of shelf under Candy's jackpot ladder). Runs in the page. */
function bareUnderHalves() {
  const win = document.querySelector("[data-testid=reels-window]").getBoundingClientRect();
  const hud = document.querySelector("section.game .hud").getBoundingClientRect();
  const shown = (el) => {
    if (el.closest("[hidden]")) return false;
    const st = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return st.visibility !== "hidden" && st.display !== "none" && Number(st.opacity) !== 0 && r.width > 1 && r.height > 1;
  };
  const boxes = [...document.querySelectorAll("section.game [data-layout=decoration]")].filter((el) => !el.closest(".hud") && shown(el)).map((el) => el.getBoundingClientRect());
  const mid = win.left + win.width / 2;
  return [[win.left, mid], [mid, win.right]].map(([left, right]) => {
    const spans = boxes.filter((r) => r.right > left && r.left < right && r.bottom > win.bottom && r.top < hud.top)
      .map((r) => [Math.max(win.bottom, r.top), Math.min(hud.top, r.bottom)]).sort((a, b) => a[0] - b[0]);
    let at = win.bottom, widest = 0;
    for (const [top, bottom] of spans) { widest = Math.max(widest, top - at); at = Math.max(at, bottom); }
    return Math.round(Math.max(widest, hud.top - at));
  });
}

/** From now on the page records each free-spins intro as it opens (turbo keeps it 300 ms): its
 * title and every pictured item: which, its name, and its picture (its shapes, its size in CSS
 * px, its markup). */
async function recordIntros(t) {
  await t.page.evaluate(() => {
    window.__intros = [];
    new MutationObserver((records) => {
      for (const r of records) for (const el of r.addedNodes) {
        if (!(el instanceof HTMLElement) || el.dataset.testid !== "moment" || !el.classList.contains("fs-intro")) continue;
        window.__intros.push({
          title: el.querySelector(".moment-title")?.textContent ?? "",
          items: [...el.querySelectorAll("[data-testid=moment-item]")].map((it) => {
            const svg = it.querySelector("svg");
            const st = svg && getComputedStyle(svg);
            return {
              key: it.dataset.item, name: it.querySelector(".moment-item-name")?.textContent ?? "", line: it.querySelector(".moment-item-line")?.textContent ?? "",
              shapes: svg ? svg.querySelectorAll("path, circle, ellipse, rect").length : 0,
              size: st ? [parseFloat(st.width), parseFloat(st.height)] : [0, 0],
              art: svg ? svg.innerHTML.replace(/id="[^"]*"|url\(#[^)]*\)/g, "") : "",
            };
          }),
        });
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
}

/** The free-spins round `o` opened on an intro picturing each modifier it drew, in the order
 * drawn: each its own picture (a drawing of several shapes, at least 24 px, none the same as
 * another's), its name and what it does, in the words of the information pages. */
async function introPictured(t, o) {
  const drawn = events(o, "free_spins_triggered")[0]?.modifiers ?? [];
  const intro = (await t.page.evaluate(() => window.__intros)).at(-1);
  const said = JSON.stringify(intro?.items.map(({ art, ...rest }) => rest));
  expect(intro && JSON.stringify(intro.items.map((it) => it.key)) === JSON.stringify(drawn), `the intro "${intro?.title}" pictures ${said}, the round drew ${JSON.stringify(drawn)}`);
  const names = { wild: "WILD", free_spins: "FREE SPINS", jackpots: "JACKPOTS" };
  const pages = (await t.api("/api/v1/games/candy-fs")).info.help.sections.flatMap((s) => s.blocks).flatMap((b) => (b.kind === "ul" ? b.items : b.kind === "p" ? [b.parts] : []))
    .map((parts) => parts.map((p) => (typeof p === "string" ? p : p.strong ?? "")).join(""));
  for (const it of intro.items) {
    expect(it.shapes >= 3 && it.size[0] >= 24 && it.size[1] >= 24, `the ${it.key} modifier's picture: ${it.shapes} shapes, ${it.size} px`);
    expect(intro.items.filter((x) => x.art === it.art).length === 1, `the ${it.key} modifier's picture is another's`);
    expect(it.name.includes(names[it.key]), `the ${it.key} modifier is named "${it.name}"`);
    const words = it.line.replace(/\.$/, "").toLowerCase();
    expect(words.length > 10 && pages.some((p) => p.includes(names[it.key]) && p.toLowerCase().includes(words)), `the ${it.key} modifier's line "${it.line}" is not the pages'`);
  }
}

/** From now on the page records each win line said under the grid (its text, the meter total
 * it names, and the WIN meter as it reads when the line appears: the total before this pay)
 * and each cluster outlined on the canvas (data-outlined, data-outline-cells). */
async function recordPays(t) {
  await t.page.evaluate(() => {
    window.__pays = []; window.__outlines = [];
    const line = document.querySelector("[data-testid=candy-winline]");
    const screen = document.querySelector("[data-testid=candy-screen]");
    const meter = () => document.querySelector("[data-testid=win]")?.textContent ?? "";
    new MutationObserver(() => {
      if (line.textContent) window.__pays.push({ text: line.textContent, meter: line.dataset.meter ?? null, shown: meter() });
    }).observe(line, { childList: true, characterData: true, subtree: true });
    new MutationObserver(() => {
      if (screen.dataset.outlined) window.__outlines.push({ clusters: Number(screen.dataset.outlined), cells: screen.dataset.outlineCells.split(" "), line: line.textContent });
    }).observe(screen, { attributes: true, attributeFilter: ["data-outline-cells"] });
  });
}

/** The credits a win line says its pay adds (after "pays", or after its last "="). */
const saidPay = (text) => Number((/=\s*([\d,]+)[^=]*$/.exec(text) ?? /pays? ([\d,]+)/.exec(text))[1].replace(/,/g, ""));

/** A one-spin round without a random multiplier, as recorded by recordPays: one line per
 * cluster the server paid, in order, saying its pay; the meter total each line names is the
 * sum of the pays said so far, and the WIN meter read that total before the next pay was said;
 * each cluster was outlined on the grid, its outline as large as the server's cluster. */
async function paysMatch(t, round) {
  const wins = events(round.outcome, "cluster_win");
  // the lines said as the clusters paid; after the round the win cycle names them again, each
  // with the round's TOTAL WIN (candyCycleMatches checks those)
  const pays = (await t.page.evaluate(() => window.__pays)).filter((p) => / pays? /.test(p.text) && !p.text.includes("TOTAL WIN"));
  expect(pays.length === wins.length, `${pays.length} pays said (${pays.map((p) => p.text)}), the server paid ${wins.length} clusters`);
  let sum = 0;
  pays.forEach((p, k) => {
    const said = saidPay(p.text);
    expect(said === wins[k].win && p.text.startsWith(`${wins[k].size} `) && p.text.includes(" credits"), `line ${k} says "${p.text}", the server paid ${wins[k].size} x ${wins[k].symbol} ${wins[k].win}`);
    sum += said;
    expect(Number(p.meter) === sum, `line ${k} "${p.text}": the meter total ${p.meter}, the pays said sum to ${sum}`);
    if (k > 0) expect(p.shown.startsWith(`${credits(Number(pays[k - 1].meter))} `), `when "${p.text}" appeared the WIN meter read ${p.shown}, not the ${pays[k - 1].meter} of the pays before`);
  });
  expect(sum === round.outcome.total_win, `the pays said sum to ${sum}, the round won ${round.outcome.total_win}`);
  const outlines = await t.page.evaluate(() => window.__outlines);
  expect(outlines.length === wins.length, `${outlines.length} clusters outlined, ${wins.length} paid`);
  outlines.forEach((o, k) => {
    expect(o.cells.length === wins[k].size, `cluster ${k}: ${o.cells.length} cells outlined, the server's cluster has ${wins[k].size}`);
    const onGrid = wins.slice(0, k + 1).filter((w) => w.tumble === wins[k].tumble).length;
    expect(o.clusters === onGrid, `cluster ${k}: ${o.clusters} outlined together, ${onGrid} paid on its grid so far`);
  });
}

/** The ladder: each jackpot's amount is its multiple of the total bet as the server's
 * information pages give it, at the bet shown. */
async function ladderAt(t, game, stakeMinor, label) {
  const section = game.info.help.sections.find((s) => s.id === "jackpots");
  const items = section.blocks.filter((b) => b.kind === "ul").flatMap((b) => b.items);
  let checked = 0;
  for (const item of items) {
    const name = item[0]?.strong;
    const x = /=\s*([\d,]+)x total bet/.exec(item.slice(1).map((p) => (typeof p === "string" ? p : p.strong ?? "")).join(""));
    if (!name || !x) continue;
    const want = Number(x[1].replace(/,/g, "")) * stakeMinor;
    const shown = await t.page.locator(`[data-testid=jackpot-${name}-amount]`).innerText();
    expect(shown === money(want), `${label}: ${name} shows ${shown}, the server's ${x[1]}x of ${money(stakeMinor)} is ${money(want)}`);
    checked++;
  }
  expect(checked === 5, `${label}: ${checked} jackpots checked`);
}

/** From now on the page records each jackpot moment and free-spins end as it opens: its kind,
 * whether it covers the whole stage (a reviewer found the MINI JACKPOT a small box, and a phone's
 * free-spins total a small pill), its title's and amount's font sizes (CSS px) and its words. */
async function recordMoments(t) {
  await t.page.evaluate(() => {
    window.__moments = [];
    new MutationObserver((records) => {
      for (const r of records) for (const el of r.addedNodes) {
        if (!(el instanceof HTMLElement) || el.dataset.testid !== "moment") continue;
        const kind = el.classList.contains("jackpot") ? "jackpot" : el.classList.contains("fs-outro") ? "fs-outro" : null;
        if (!kind) continue;
        const m = el.getBoundingClientRect(), s = document.querySelector("[data-testid=stage]").getBoundingClientRect();
        const px = (sel) => { const x = el.querySelector(sel); return x ? parseFloat(getComputedStyle(x).fontSize) : 0; };
        window.__moments.push({ kind, covers: m.left <= s.left + 1 && m.top <= s.top + 1 && m.right >= s.right - 1 && m.bottom >= s.bottom - 1,
          title: px(".moment-title"), amount: Math.max(px(".moment-amount"), px(".moment-line")), text: el.innerText.replace(/\s+/g, " ") });
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
}

/** Each recorded moment of `kind` (at least one) was a moment over the whole stage with a large
 * title and amount (40 px and 30 px at least: a phone's card said them at 30 px and 22 px). */
async function momentsFullScreen(t, kind, label) {
  const seen = (await t.page.evaluate(() => window.__moments)).filter((m) => m.kind === kind);
  expect(seen.length > 0, `${label}: no ${kind} moment recorded`);
  for (const m of seen) {
    expect(m.covers, `${label}: the ${kind} moment "${m.text}" does not cover the stage`);
    expect(m.title >= 40 && m.amount >= 30, `${label}: the ${kind} moment "${m.text}": title ${m.title} px, amount ${m.amount} px`);
  }
}

/** A desktop's cabinets are pictures with a few words, not paragraphs (a reviewer read
 * paragraphs of rules, and the right cabinet ~250 px bare at 1440x900): each jar's label
 * pictures its candy and its modifier in at most 6 words; the rule under the jars pictures the
 * three candies; the jackpot board pictures each jackpot's coin with how many of its symbols the
 * pages say win it, and its rungs take at least half the right cabinet's height. */
async function cabinetsPictured(t, game, label) {
  const found = await t.page.evaluate(() => {
    const shown = (el) => !!el && getComputedStyle(el).display !== "none" && el.getBoundingClientRect().width > 1;
    const pics = (el) => [...el.querySelectorAll("svg")].filter(shown).length;
    const captions = ["wild", "free_spins", "jackpots"].map((j) => { const el = document.querySelector(`[data-testid=jar-${j}-caption]`); return { jar: j, pics: pics(el), words: el.innerText.split(/\s+/).filter((w) => /\w/.test(w)).length }; });
    const rule = document.querySelector("[data-testid=jar-rule-pics]");
    const right = document.querySelector(".candy .side.right").getBoundingClientRect();
    const rungs = ["MINI", "MINOR", "MAJOR", "MAXI", "GRAND"].map((n) => { const el = document.querySelector(`[data-testid=jackpot-${n}]`); return { name: n, pics: pics(el), height: el.getBoundingClientRect().height, need: el.querySelector(`[data-testid=jackpot-${n}-need]`)?.innerText ?? "" }; });
    return { captions, rulePics: rule && shown(rule) ? pics(rule) : 0, right: right.height, rungs };
  });
  for (const c of found.captions) expect(c.pics >= 2 && c.words <= 6, `${label}: the ${c.jar} jar's label: ${c.pics} pictures, ${c.words} words`);
  expect(found.rulePics >= 3, `${label}: the rule under the jars pictures ${found.rulePics} candies`);
  const items = game.info.help.sections.find((s) => s.id === "jackpots").blocks.filter((b) => b.kind === "ul").flatMap((b) => b.items);
  for (const r of found.rungs) {
    const item = items.find((i) => i[0]?.strong === r.name);
    const need = /(\d+) (?:\w+ )?symbols? collected/.exec(item.slice(1).map((p) => (typeof p === "string" ? p : p.strong ?? "")).join(""))[1];
    expect(r.pics >= 1 && r.need.includes(need), `${label}: the ${r.name} rung: ${r.pics} pictures, "${r.need}", the pages: ${need} symbols`);
  }
  const share = found.rungs.reduce((a, r) => a + r.height, 0) / found.right;
  expect(share >= 0.5, `${label}: the jackpot rungs take ${Math.round(share * 100)}% of the right cabinet's height`);
}

/** Spin until `wanted(outcome)`, at most `tries` rounds; returns the round. */
async function spinUntil(t, key, wanted, tries, what, beforeSpin = async () => {}) {
  for (let i = 0; i < tries; i++) {
    await beforeSpin();
    await t.spin(key);
    const round = await lastRound(t);
    expect(round.game === key && round.status === "closed", `${key}: last round ${round.game} ${round.status}`);
    if (wanted(round.outcome)) return round;
  }
  throw new Error(`${key}: no ${what} in ${tries} rounds`);
}

export const tests = [
  {
    name: "candy: spin, bet +/- and the bet menu, the RTP, a win with tumbles (desktop)",
    async run(t) {
      await open(t, "candy-jar-clusters");
      await idleBoardDrawn(t, "candy-before");
      await layout(t, "candy-idle");
      await jarLabelsBelong(t, "desktop idle");
      await scalesWithViewport(t);
      await jarsExplained(t, "desktop", true);
      const rtp = await t.page.locator("[data-testid=rtp]").innerText();
      const game = await t.api("/api/v1/games/candy-jar-clusters");
      await cabinetsPictured(t, game, "desktop idle");
      await ladderAt(t, game, 20, "first bet");
      expect(rtp === `${(game.rtp[0].value * 100).toFixed(2)}%`, `RTP shown ${rtp}, server ${game.rtp[0].value}`);
      // bet: + raises it, − lowers it, the menu lists every stake the server offers
      const bet = () => t.page.locator("[data-testid=candy-bet-value]").innerText();
      expect((await bet()) === "€0.20", `first bet ${await bet()}`);
      await t.page.click("[data-testid=candy-bet-plus]");
      expect((await bet()) === "€0.40", `after + ${await bet()}`);
      await ladderAt(t, game, 40, "after +");
      await t.page.click("[data-testid=candy-bet-minus]");
      expect((await bet()) === "€0.20", `after − ${await bet()}`);
      await t.page.click("[data-testid=candy-bet-value]");
      const items = t.page.locator("[data-testid=candy-bet-menu] button");
      expect((await items.count()) === game.bets.length, `the menu offers ${await items.count()} bets, the server ${game.bets.length}`);
      await t.shot("bet-menu");
      await items.nth(2).click();
      expect((await bet()) === "€0.60", `menu choice ${await bet()}`);
      expect((await t.page.locator("[data-testid=bet]").innerText()) === "€0.60", "the BET label");
      await ladderAt(t, game, 60, "menu choice");
      await t.page.click("[data-testid=candy-bet-minus]");
      await t.page.click("[data-testid=candy-bet-minus]");
      await t.page.check("[data-testid=turbo]");
      // Every pay said under the grid and every cluster outlined on it, as they come (tumbles.js
      // in the page records them); a base-game round with a tumble and no random multiplier,
      // so the meter is the plain sum of the pays.
      // at full speed: turbo lets the next pay come before the meter has counted the last in
      await t.page.uncheck("[data-testid=turbo]");
      await recordPays(t);
      let round = null;
      for (let i = 0; i < 25 && !round; i++) {
        await t.page.evaluate(() => { window.__pays = []; window.__outlines = []; });
        await t.spin("candy-jar-clusters");
        const r = await lastRound(t);
        const o = r.outcome;
        if (o.spins.length === 1 && events(o, "grid").some((g) => g.tumble > 0) && !events(o, "random_multiplier").some((e) => e.value > 1)) round = r;
      }
      expect(round, "no base-game win with a tumble and no multiplier in 25 rounds");
      expect(round.stake_minor === 20, `stake ${round.stake_minor}`);
      await paysMatch(t, round);
      await t.page.check("[data-testid=turbo]");
      await t.assertDrawn("candy-after-win");
      await layout(t, "candy-after-win");
      await t.shot("win-tumble");
      const win = await t.page.locator("[data-testid=win]").innerText();
      expect(win.startsWith(credits(round.outcome.total_win) + " "), `win meter ${win}, round ${round.outcome.total_win}`);
      const line = await t.page.locator("[data-testid=candy-winline]").innerText();
      const paid = events(round.outcome, "cluster_win").map((e) => credits(e.win));
      expect(line === "" || paid.some((p) => line.includes(`pays ${p}`)) || line.includes(credits(round.outcome.spins.at(-1).win)), `win line ${line}, paid ${paid}`);
      // after the round the cycle lights a cluster the server paid and names the round's total,
      // the WIN meter's figure
      if (round.outcome.spins.at(-1).events.some((e) => e.type === "cluster_win" || e.type === "jackpot")) {
        // in credits and money, as the WIN meter says it (a playtest read wins in credits only,
        // beside a stake and balance in euros)
        expect(line.endsWith(`TOTAL WIN ${win}`) && win.includes("("), `the win cycle says "${line}", the round won ${round.outcome.total_win}, the WIN meter reads ${win}`);
        expect(Number(await t.page.getAttribute("[data-testid=candy-screen]", "data-cycle")) >= 1, "no cluster lit after the round");
      }
      await checkBalance(t, "candy-jar-clusters");
    },
  },
  {
    name: "candy: the random multiplier and the 10,000x win cap (test-only game)",
    gameFiles: [CAP],
    async run(t) {
      await open(t, "candy-cap");
      await t.page.check("[data-testid=turbo]");
      // every moment titled MAX WIN as it opens (turbo keeps it 300 ms): its words and whether it
      // covers the whole stage (the playtest: a plaque, no moment, at the game's 10,000x)
      // and every random multiplier's badge as it lands: its words, its size and its figure's
      // (a reviewer saw only a small box beside the grid)
      await t.page.evaluate(() => {
        window.__maxWins = [];
        window.__multDrops = [];
        new MutationObserver((changes) => {
          for (const node of changes.flatMap((c) => [...c.addedNodes])) {
            if (node instanceof HTMLElement && node.dataset.testid === "candy-mult-drop") {
              // where it rests, half way through its landing (it comes in from above the grid)
              const landing = node.getAnimations().find((a) => a.animationName === "candy-mult-land");
              const at = landing?.currentTime;
              if (landing) landing.currentTime = landing.effect.getComputedTiming().duration / 2;
              const r = node.getBoundingClientRect(), g = document.querySelector("[data-testid=reels-window]").getBoundingClientRect();
              if (landing) landing.currentTime = at;
              const figure = node.querySelector("b");
              window.__multDrops.push({ text: figure?.textContent ?? "", width: Math.round(node.offsetWidth), px: figure ? parseFloat(getComputedStyle(figure).fontSize) : 0,
                onGrid: r.left + r.width / 2 > g.left && r.left + r.width / 2 < g.right && r.top + r.height / 2 > g.top && r.top + r.height / 2 < g.bottom });
            }
            if (!(node instanceof HTMLElement) || node.dataset.testid !== "moment" || !/^MAX WIN/.test(node.querySelector(".moment-title")?.textContent ?? "")) continue;
            const r = node.getBoundingClientRect(), s = document.querySelector("[data-testid=stage]").getBoundingClientRect();
            window.__maxWins.push({ text: node.innerText.replace(/\s+/g, " "), covers: r.left <= s.left + 1 && r.top <= s.top + 1 && r.right >= s.right - 1 && r.bottom >= s.bottom - 1 });
          }
        }).observe(document.body, { childList: true, subtree: true });
      });
      const round = await spinUntil(t, "candy-cap", (o) => o.win_capped && events(o, "random_multiplier").some((e) => e.value > 1), 6, "capped round with a multiplier",
        () => t.page.evaluate(() => { window.__maxWins = []; window.__multDrops = []; }));
      // the round's MAX WIN moment: once, over the whole stage, the amount in credits and money
      // and the cap's multiple, before the round ended (the page is idle again)
      const maxWins = await t.page.evaluate(() => window.__maxWins);
      const said = maxWins[0]?.text ?? "";
      expect(maxWins.length === 1, `the capped round showed ${maxWins.length} MAX WIN moments: ${JSON.stringify(maxWins)}`);
      expect(maxWins[0].covers, `the MAX WIN moment does not cover the stage: "${said}"`);
      expect(said.includes(`${credits(round.outcome.total_win)} credits`) && said.includes(money(round.outcome.total_win * round.denomination)) && said.includes("10,000× the bet"),
        `the MAX WIN moment says "${said}", the round won ${credits(round.outcome.total_win)} credits (${money(round.outcome.total_win * round.denomination)}), the cap 10,000× the bet`);
      const mult = events(round.outcome, "random_multiplier").find((e) => e.value > 1).value;
      expect((await t.page.locator("[data-testid=candy-multiplier]").innerText()) === `x${mult}`, "the multiplier badge");
      const drops = await t.page.evaluate(() => window.__multDrops);
      expect(drops.some((d) => d.text === `x${mult}` && d.onGrid && d.width >= 140 && d.px >= 48), `the multiplier x${mult} landed as ${JSON.stringify(drops)}, not a badge 140 px or more wide on the grid with its figure 48 px or more`);
      const cap = t.page.locator("[data-testid=candy-cap]");
      expect(await cap.isVisible(), "no win cap message");
      const text = await cap.innerText();
      expect(text.includes("MAX WIN 10,000× REACHED") && text.includes(credits(round.outcome.total_win)), `cap message: ${text}`);
      expect(round.outcome.total_win === 10000 * round.outcome.bet.cost, `capped total ${round.outcome.total_win}`);
      await t.assertDrawn("candy-cap");
      await layout(t, "candy-cap");
      await t.shot("win-cap");
      await checkBalance(t, "candy-cap");
    },
  },
  {
    name: "candy: the jars, free spins with modifiers, wilds, extra spins and a jackpot (test-only game)",
    gameFiles: [FS],
    async run(t) {
      await open(t, "candy-fs");
      await t.page.check("[data-testid=turbo]");
      const jarsPage = (await t.api("/api/v1/games/candy-fs")).info.help.sections.find((s) => s.id === "jars");
      const trigger = /receive (\d+) or more candies in one spin/.exec(jarsPage.blocks.filter((b) => b.kind === "p").flatMap((b) => b.parts).map((p) => (typeof p === "string" ? p : p.strong ?? "")).join(""))[1];
      let sawFree = false, sawJackpot = false, shotFree = false, shotIntro = false;
      await recordIntros(t);
      await recordMoments(t);
      // each jackpot's moment as it ends (its count done): what it said
      await t.page.evaluate(() => {
        window.__jackpotMoments = [];
        new MutationObserver((records) => {
          for (const r of records) for (const el of r.removedNodes) if (el instanceof HTMLElement && el.dataset.testid === "moment" && el.classList.contains("jackpot")) window.__jackpotMoments.push(el.textContent.replace(/\s+/g, " "));
        }).observe(document.body, { childList: true, subtree: true });
      });
      for (let i = 0; i < 8 && !(sawFree && sawJackpot); i++) {
        await t.page.locator("[data-testid=play]:not([disabled])").waitFor({ timeout: 30000 });
        await t.page.click("[data-testid=play]");
        if (!shotIntro) {
          // the free-spins intro: a moment with the spins awarded (turbo keeps it 300 ms)
          const intro = t.page.locator("[data-testid=moment].fs-intro");
          const idle = t.page.locator("[data-testid=game-candy-fs][data-flow=idle]");
          await intro.or(idle).first().waitFor({ timeout: 60000 });
          if (await intro.count()) {
            // the title as the card came (recordIntros): turbo's 300 ms card may be gone by a
            // read here (a fresh clone's run read "" from one removed between the two reads)
            const title = (await t.page.evaluate(() => window.__intros.at(-1)?.title)) ?? "";
            expect(/^\d+ FREE SPINS/.test(title), `free-spins intro title: ${title}`);
            shotIntro = true;
          }
        }
        if (!shotFree) {
          // mid-round: the counter shows while the free spins play
          const counter = t.page.locator("[data-testid=candy-counter]:visible");
          const idle = t.page.locator("[data-testid=game-candy-fs][data-flow=idle]");
          await counter.or(idle).first().waitFor({ timeout: 60000 });
          if (await counter.count()) {
            await t.assertDrawn("candy-free-spins");
            await layout(t, "candy-free-spins");
            await t.shot("free-spins");
            shotFree = true;
          }
        }
        await t.page.locator("[data-testid=game-candy-fs][data-flow=idle]").waitFor({ timeout: 90000 });
        const round = await lastRound(t);
        const o = round.outcome;
        // the jars show the base spin's candies, and together how far they came toward the
        // trigger the pages state (they said "0" with no target)
        const jars = events(o, "jars")[0];
        for (const j of ["wild", "free_spins", "jackpots"]) {
          const n = await t.page.locator(`[data-testid=jar-${j}]`).getAttribute("data-count");
          expect(Number(n) === jars[j], `jar ${j} shows ${n}, the round ${jars[j]}`);
        }
        const progress = (await t.page.locator("[data-testid=jar-progress]").innerText()).trim();
        const got = jars.wild + jars.free_spins + jars.jackpots;
        expect(progress === (got >= trigger ? `${got} ✓` : `${got} / ${trigger}`), `the jars' progress says "${progress}", the round's jars ${JSON.stringify(jars)}, the rule ${trigger}`);
        if (o.spins.length > 1) {
          sawFree = true;
          await introPictured(t, o);
          for (const j of ["wild", "free_spins", "jackpots"]) {
            const lit = await t.page.locator(`[data-testid=modifier-${j}]`).getAttribute("data-lit");
            expect(lit === String(o.modifiers.includes(j)), `modifier ${j} lit=${lit}, round modifiers ${o.modifiers}`);
          }
          const free = o.spins.filter((s) => s.kind === "free");
          const counter = t.page.locator("[data-testid=candy-counter]");
          const last = o.spins.at(-1);
          if (last.kind === "free") expect((await counter.getAttribute("data-spin")) === String(free.length), `counter ${await counter.innerText()} after ${free.length} free spins`);
          const total = await t.page.locator("[data-testid=candy-total]").innerText();
          expect(total.includes(`TOTAL WIN ${credits(o.total_win)}`), `bonus total ${total}, round ${o.total_win}`);
          const win = await t.page.locator("[data-testid=win]").innerText();
          expect(win.startsWith(credits(o.total_win) + " "), `win meter ${win}, round ${o.total_win}`);
          if (o.modifiers.includes("free_spins")) {
            const awarded = Math.max(events(o, "free_spins_triggered")[0].spins, ...events(o, "extra_free_spins").map((e) => e.spins_awarded));
            if (last.kind === "free") expect((await counter.getAttribute("data-of")) === String(awarded), `counter of ${await counter.getAttribute("data-of")}, awarded ${awarded}`);
          }
        }
        const won = events(o, "jackpot");
        if (won.length) {
          sawJackpot = true;
          for (const j of new Set(won.map((e) => e.jackpot))) {
            expect((await t.page.locator(`[data-testid=jackpot-${j}]`).getAttribute("data-won")) === "true", `jackpot ${j} not lit`);
          }
          const lastWin = won.at(-1);
          const label = await t.page.locator(`[data-testid=jackpot-${lastWin.jackpot}-win]`).innerText();
          // in money, like the other pills (1 credit = 1 cent here: o.bet.denomination)
          expect(label.startsWith(money(lastWin.win * o.bet.denomination)), `jackpot ${lastWin.jackpot} shows ${label}, won ${lastWin.win} credits`);
          // its moment said the win in credits and in money, as the ladder does (it said a bare
          // "200" beside a pill reading "€2.00")
          const said = (await t.page.evaluate(() => window.__jackpotMoments)).at(-1) ?? "";
          expect(said.includes(`${lastWin.jackpot} JACKPOT`) && said.includes(`${credits(lastWin.win)} credits`) && said.includes(money(lastWin.win * o.bet.denomination)), `the ${lastWin.jackpot} jackpot's moment said "${said}", the round won ${credits(lastWin.win)} credits (${money(lastWin.win * o.bet.denomination)})`);
          await momentsFullScreen(t, "jackpot", "candy-fs");
          await layout(t, "candy-jackpot");
          await t.shot("jackpot");
        }
        await checkBalance(t, "candy-fs");
      }
      expect(sawFree && sawJackpot, `free spins ${sawFree}, jackpot ${sawJackpot} in 8 rounds`);
      expect(shotFree, "no free spins seen while playing");
    },
  },
  {
    name: "candy: recovery after a reload in the middle of free spins (test-only game)",
    gameFiles: [FS],
    async run(t) {
      await open(t, "candy-fs");
      await t.page.check("[data-testid=turbo]"); // kept across the reload: the rounds and the rest of the free spins quicker
      const before = (await t.api("/api/v1/session")).balance_minor;
      let reloaded = false;
      for (let i = 0; i < 6 && !reloaded; i++) {
        await t.page.locator("[data-testid=play]:not([disabled])").waitFor({ timeout: 30000 });
        await t.page.click("[data-testid=play]");
        const counter = t.page.locator("[data-testid=candy-counter]:visible");
        const idle = t.page.locator("[data-testid=game-candy-fs][data-flow=idle]");
        await counter.or(idle).first().waitFor({ timeout: 60000 });
        if (await counter.count()) {
          await t.page.reload();
          reloaded = true;
          // the resumed free spins show the jars as the round's first spin filled them (they
          // read 0 / 3 after a reload): the counts of its jars event, the trigger's jars lit
          const round = await lastRound(t);
          const jars = round.outcome.spins[0].events.find((e) => e.type === "jars");
          const resumed = t.page.locator("[data-testid=game-candy-fs][data-recovered]");
          await resumed.waitFor({ timeout: 30000 });
          await t.page.locator("[data-testid=candy-counter]:visible").waitFor({ timeout: 30000 });
          const shown = await t.page.evaluate(() => Object.fromEntries(["wild", "free_spins", "jackpots"].map((j) => [j, Number(document.querySelector(`[data-testid=jar-${j}]`).dataset.count)])));
          expect(JSON.stringify(shown) === JSON.stringify({ wild: jars.wild, free_spins: jars.free_spins, jackpots: jars.jackpots }), `the jars after a reload ${JSON.stringify(shown)}, the round's ${JSON.stringify(jars)}`);
          await t.shot("reload-jars");
        }
      }
      expect(reloaded, "no free spins to interrupt in 6 rounds");
      // The round was decided and settled at bet time: the reloaded screen shows the server's
      // balance, the win included, and is ready to play (the rest of the free spins play out
      // first: the jars' check and its screenshot above took part of the time that gives them)
      await t.page.locator("[data-testid=game-candy-fs][data-flow=idle] [data-testid=play]:not([disabled])").waitFor({ timeout: 60000 });
      const session = await t.api("/api/v1/session");
      expect(session.open_rounds.length === 0, `open rounds after reload: ${session.open_rounds.length}`);
      const round = await lastRound(t);
      expect(round.status === "closed" && round.outcome.spins.length > 1, `interrupted round ${round.status}`);
      const rounds = (await t.api("/api/v1/rounds?limit=10")).rounds.filter((r) => r.game === "candy-fs");
      const net = rounds.reduce((a, r) => a - r.stake_minor + (r.win_minor ?? 0), 0);
      expect(session.balance_minor === before + net, `balance ${session.balance_minor}, expected ${before + net}`);
      await checkBalance(t, "candy-fs");
      await t.assertDrawn("candy-after-reload");
      await layout(t, "candy-after-reload");
      await t.shot("after-reload");
    },
  },
  {
    name: "candy: phone 390x844",
    viewport: { width: 390, height: 844 },
    // the test-only game whose jars start Free Spins often: its rounds win, and end on the free
    // spins' total, without depending on the shipped reels' chance (a win in 10 rounds flaked)
    gameFiles: [FS],
    async run(t) {
      await open(t, "candy-fs");
      await idleBoardDrawn(t, "candy-phone-before");
      await layout(t, "candy-phone-idle");
      await jarLabelsBelong(t, "phone idle");
      await t.shot("phone-idle");
      const [left, right] = await t.page.evaluate(bareUnderHalves);
      expect(left <= PHONE_BARE_PX && right <= PHONE_BARE_PX, `the shelf under the grid lies bare ${left} px under its left half, ${right} px under its right half (at most ${PHONE_BARE_PX})`);
      // the room under the ladder pictures the modifiers, each with what it brings (the pages')
      const legend = await t.page.locator("[data-testid=candy-mod-legend] .mod-row").allInnerTexts();
      expect(legend.length === 3 && legend.every((r) => /\d/.test(r)), `the modifiers under the ladder: ${JSON.stringify(legend)}`);
      await jarsExplained(t, "phone", false);
      // the rule under the jars pictured (its sentence read as a paragraph on the phone too)
      const rulePics = await t.page.locator("[data-testid=jar-rule-pics] svg:visible").count();
      const ruleBox = await t.page.locator("[data-testid=jar-rule]").boundingBox();
      expect(rulePics >= 3 && ruleBox.height <= 56, `the phone's rule under the jars: ${rulePics} candies pictured, ${Math.round(ruleBox.height)} px high`);
      const game = await t.api("/api/v1/games/candy-fs");
      await ladderAt(t, game, 20, "phone first bet");
      await t.page.click("[data-testid=candy-bet-plus]");
      await ladderAt(t, game, 40, "phone after +");
      // the bet menu opens whole on the screen (a player's first menu ran off the left edge, its
      // lowest bets cut at x = 0)
      await t.page.click("[data-testid=candy-bet-value]");
      const menu = await t.page.locator("[data-testid=candy-bet-menu]").boundingBox();
      expect(menu && menu.x >= 0 && menu.x + menu.width <= 390, `the bet menu lies at ${JSON.stringify(menu)} on a 390 px screen`);
      await t.page.keyboard.press("Escape");
      await t.page.locator("[data-testid=candy-bet-menu]").waitFor({ state: "hidden" });
      await t.page.check("[data-testid=turbo]");
      await recordMoments(t);
      // a free-spins round with a win, so that the win line shows under the grid and the free
      // spins end on their total: a moment over the whole phone screen, as on a desktop
      await spinUntil(t, "candy-fs", (o) => o.total_win > 0 && o.spins.length > 1, 8, "free-spins round with a win");
      await momentsFullScreen(t, "fs-outro", "phone");
      expect((await t.page.locator("[data-testid=candy-screen]").getAttribute("data-board")) === "round", "the round's grid did not replace the idle board");
      await t.assertDrawn("candy-phone-after");
      await layout(t, "candy-phone-after-win");
      await t.shot("phone");
      for (const id of ["play", "candy-bet-plus", "candy-bet-value", "jar-wild", "candy-jackpots"]) {
        const box = await t.page.locator(`[data-testid=${id}]`).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 390 && box.y >= 0 && box.y + box.height <= 844, `${id} is off the phone screen: ${JSON.stringify(box)}`);
      }
      await checkBalance(t, "candy-fs");
    },
  },
];
