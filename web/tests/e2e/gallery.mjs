// The gallery (`make gallery`): every game in its key states at 1440x900 and 390x844, as one HTML
// page of screenshots (web/gallery/index.html) for a reviewer to judge the whole look at a
// glance. Against a real `reelforge serve` (tests/e2e/server.mjs) with the e2e tests' game
// files that reach features often (the "gallery" operator's, so that the lobby photographed, the
// demo operator's, shows the three games). It plays each game as a player would (PLAY, GAMBLE, COLLECT)
// and takes a screenshot whenever something new shows: a moment (a feature's intro or outro, a
// celebration, the jackpot), a win, a free spin, a choice. Each screenshot is checked: the
// stage is not blank and the layout check (layout.mjs) finds nothing over the reels; the
// command fails, naming the screenshot, when one is not.
//   GALLERY_SPINS  rounds per test game (default 8), GALLERY_SIZES (default 1440x900,390x844),
//   GALLERY_ONLY   a part of a plan's name (cluedo, cops, candy).
import { chromium } from "playwright-core";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, WEB } from "./server.mjs";
import { colourStats, decodePng } from "./png.mjs";
import { layoutProblems } from "./layout.mjs";

const OUT = join(WEB, "gallery");
const SPINS = Number(process.env.GALLERY_SPINS ?? 8);
const SIZES = (process.env.GALLERY_SIZES ?? "1440x900,390x844").split(",").map((s) => s.split("x").map(Number));
const ONLY = process.env.GALLERY_ONLY;
// --disable-gpu-rasterization as run.mjs says why: page tiles in Skia's software raster, not through
// SwiftShader's emulated GL (screenshots ten times faster; the game canvas is still WebGL).
const ARGS = ["--headless", "--no-sandbox", "--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-gpu-rasterization", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const file = (name) => `${WEB}/tests/e2e/games/${name}.toml`;

/** What is played: each game's own key (idle, its information page, plain rounds) and its test
 * games (the same rules on reels that reach a feature often). */
const PLAN = [
  { name: "Cluedo MegaJackpots", module: "cluedo", keys: ["cluedo", "cluedo-win", "cluedo-fs", "cluedo-jp"] },
  { name: "Cops n Robbers Big Money Christmas", module: "cops-n-robbers", keys: ["cops-n-robbers", "cops-win", "cops-bonus"] },
  { name: "Candy Jar Clusters", module: "candy-jar-clusters", keys: ["candy-jar-clusters", "candy-fs", "candy-cap"] },
].filter((p) => !ONLY || p.module.includes(ONLY) || p.name.toLowerCase().includes(ONLY));
const EXTRA = [
  ["cluedo-win", "cluedo-e2e-win-v1"], ["cluedo-fs", "cluedo-e2e-fs-v1"], ["cluedo-jp", "cluedo-e2e-jp-v1"],
  ["cops-win", "cops-n-robbers-e2e-win-v1"], ["cops-bonus", "cops-n-robbers-e2e-bonus-v1"],
  ["candy-fs", "candy-jar-clusters-e2e-fs-v1"], ["candy-cap", "candy-jar-clusters-e2e-cap-v1"],
].map(([key, f]) => ({ operator: "gallery", key, gameFile: file(f) }));

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const started = Date.now();
const server = await startServer({ extraGames: EXTRA });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ARGS });
const shots = []; // { plan, size, state, file, problems }

/** What the screen shows now that a reviewer should see, as state names. */
function statesNow(module) {
  return (() => {
    const game = document.querySelector("section.game");
    if (!game) return [];
    const seen = [];
    const visible = (el) => !!el && !el.hidden && el.getBoundingClientRect().width > 0;
    for (const m of document.querySelectorAll("[data-testid=moment]")) {
      const title = m.querySelector(".moment-title")?.textContent?.trim() ?? "";
      seen.push(`moment: ${title || m.className}`);
    }
    const info = document.querySelector("[data-testid=spin-info]");
    const inFeature = !!info?.textContent && visible(info.closest(".field") ?? info);
    // the counter's figures left out of the state's name: one screenshot of a free spin, not one per spin
    if (inFeature) seen.push(/free|spin/i.test(info.textContent) ? "a free spin" : `in a feature: ${info.textContent.trim().replace(/\d[\d,]*/g, "n").split(/\s+/).slice(0, 2).join(" ")}`);
    // A win's banner names its line and amount: one screenshot of a win (and one of a win in
    // a feature); any other banner by its first words (a feature's name).
    const banner = [...document.querySelectorAll(".banner")].find(visible);
    const words = banner?.textContent?.trim() ?? "";
    if (banner) seen.push(/pays|^line|^cluster/i.test(words) ? (inFeature ? "a win in a feature" : "a win") : `banner: ${words.split(/[\s:,]+/).slice(0, 2).join(" ")}`);
    // Candy Jar names a cluster's win on its win line under the grid, not on a banner (the
    // gallery had no cluster win of it)
    const winLine = document.querySelector("[data-testid=candy-winline]");
    if (!banner && visible(winLine) && /pays/i.test(winLine.textContent ?? "")) seen.push(inFeature ? "a win in a feature" : "a win");
    // Candy Jar's random multiplier lands as a badge on the grid (mult-drop.ts), no banner
    if (visible(document.querySelector("[data-testid=candy-mult-drop]"))) seen.push("the random multiplier");
    if (visible(document.querySelector("[data-testid=jackpot-notice]"))) seen.push("the jackpot notice");
    if (visible(document.querySelector("[data-testid=gamble], [data-testid=wheel-gamble]"))) seen.push("the gamble");
    else if (visible(document.querySelector("[data-testid=gamble-offer]"))) seen.push("gamble or collect");
    else if (visible(document.querySelector("[data-testid=choice]"))) seen.push(`a choice (${game.dataset.flow})`);
    return seen;
  })();
}

async function capture(page, plan, size, state) {
  const n = shots.length;
  const name = `${String(n).padStart(3, "0")}-${plan.module}-${size[0]}-${state}`.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(0, 90) + ".png";
  // a moment photographed as it reads, not as it comes in: its amount counted, its pictures in
  // (the reviewer saw boards half empty and "997" still counting); at most 4 s
  if (state.startsWith("moment")) {
    await page.waitForFunction(() => {
      const m = document.querySelector("[data-testid=moment]");
      if (!m) return true;
      const a = m.querySelector("[data-testid=moment-amount]");
      const counted = !a || a.textContent.replace(/\D/g, "") === a.dataset.to;
      const settled = m.getAnimations({ subtree: true }).every((x) => x.effect?.getComputedTiming().iterations === Infinity || x.playState === "finished");
      return counted && settled;
    }, null, { timeout: 4000, polling: 100 }).catch(() => {});
  }
  // A moment or a win's caption may end while its frame is taken: on a loaded machine a
  // screenshot took 20 to 26 s (cluedo9's measure), and the Mystery Bonus (then 2.6 s) and a
  // free spin's 0.9 s caption were gone from the frames named after them (the reviewer saw
  // neither). Watched through the shot: a state that ended before it is tried again later.
  const transient = state.startsWith("moment") || /win/.test(state);
  if (transient) {
    await page.evaluate(() => {
      window.__galleryEnded = false;
      window.__galleryWatch?.disconnect();
      window.__galleryWatch = new MutationObserver((records) => {
        for (const r of records) {
          if (r.type === "childList" && [...r.removedNodes].some((n) => n.nodeType === 1 && n.matches("[data-testid=moment]"))) window.__galleryEnded = true;
          if (r.type === "attributes" && r.target.matches(".banner") && r.target.hidden) window.__galleryEnded = true;
        }
      });
      window.__galleryWatch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"] });
    });
    // gone already (while a moment's count was awaited): the shot is a miss
    if (!(await page.evaluate(statesNow, plan.module)).includes(state)) await page.evaluate(() => { window.__galleryEnded = true; });
  }
  // the reels are laid out a frame after what covers them changed size (as t.layout waits)
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const problems = plan.module === "lobby" || state === "information page" ? [] : await page.evaluate(layoutProblems).catch((e) => [`layout check failed: ${e.message}`]);
  const png = await page.screenshot({ path: join(OUT, name), timeout: 180_000 }); // a loaded machine took over 30 s (playwright's default) for one 1440x900 frame, and lost the whole gallery
  const ended = transient && await page.evaluate(() => { window.__galleryWatch?.disconnect(); return window.__galleryEnded; });
  const key = `${size.join("x")} ${plan.module} ${state}`;
  const { distinct, topShare } = colourStats(decodePng(png));
  if (distinct < 16 || topShare > 0.9) problems.push(`the screen looks blank (${distinct} colours, top colour ${(topShare * 100).toFixed(0)}%)`);
  const shot = { plan: plan.name, size: size.join("x"), state: ended ? `${state} (it ended during the shot: the frame may not show it)` : state, file: name, problems };
  // one shot a state: a later try's replaces a missed one (kept meanwhile, named so)
  const before = missed.get(key);
  if (before) {
    if (before.shot.file !== name) rmSync(join(OUT, before.shot.file), { force: true }); // (the same number again: overwritten)
    shots.splice(shots.indexOf(before.shot), 1);
  }
  shots.push(shot);
  if (!ended) { missed.delete(key); return true; }
  const tries = (before?.tries ?? 0) + 1;
  missed.set(key, { tries, shot });
  console.log(`gallery: ${key} ended during its shot (try ${tries} of ${MISSES}): taken again when it next shows`);
  return tries >= MISSES;
}
/** States that ended while their frame was taken: how often, and the shot kept meanwhile. */
const missed = new Map();
const MISSES = 4;

async function explore(page, plan, key, size, seen) {
  await page.goto(`${server.base}/#/game/${key}`);
  const screen = page.locator(`[data-testid=game-${key}][data-module=ready]`);
  await screen.locator("canvas").waitFor({ timeout: 120000 });
  await page.waitForTimeout(1200);
  if (key === plan.module) await capture(page, plan, size, "idle");
  // the jackpot's test game pays it at the maximum bet only (the seed's rule): two rounds show it
  const jackpot = key === "cluedo-jp";
  if (jackpot) await page.click(`[data-testid=game-${key}] [data-testid=bet-max]`);
  for (let i = 0; i < (jackpot ? 2 : key === plan.module ? Math.ceil(SPINS / 2) : SPINS); i++) {
    const play = page.locator(`[data-testid=game-${key}] [data-testid=play]:not([disabled])`);
    await play.waitFor({ timeout: 60000 });
    // a notice over the console (the jackpot's claim) is read, photographed once and closed first
    const notice = page.locator("[data-testid=jackpot-notice-ok]:visible");
    if (jackpot && await notice.count()) {
      if (!seen.has("the jackpot notice")) { seen.add("the jackpot notice"); await capture(page, plan, size, "the jackpot notice"); }
      await notice.click();
    }
    await play.click();
    const deadline = Date.now() + 90000;
    await page.waitForTimeout(150);
    while (Date.now() < deadline) {
      for (const state of await page.evaluate(statesNow, plan.module)) {
        if (seen.has(state)) continue;
        seen.add(state);
        if (!(await capture(page, plan, size, state))) seen.delete(state); // gone before its frame: the next one

      }
      const ok = page.locator("[data-testid=jackpot-notice-ok]:visible");
      if (await ok.count()) { await ok.click(); continue; }
      const flow = await screen.getAttribute("data-flow");
      if (flow === "idle") break;
      if (flow === "choice") {
        // Gamble once to see the cards, then collect; any other choice: collect with PLAY's
        // "COLLECT & PLAY" on the next round.
        const offer = page.locator("[data-testid=gamble-offer]:visible");
        if (!seen.has("the gamble") && await offer.count()) { await offer.click(); await page.waitForTimeout(700); continue; }
        const collect = page.locator("[data-testid=gamble-collect]:visible, [data-testid=collect]:visible");
        if (await collect.count()) await collect.first().click().catch(() => {});
        break;
      }
      await page.waitForTimeout(180);
    }
  }
}

let failed = false;
try {
  for (const size of SIZES) {
    const context = await browser.newContext({ viewport: { width: size[0], height: size[1] } });
    await context.addInitScript(() => { if (!localStorage.getItem("reelforge.options")) localStorage.setItem("reelforge.options", JSON.stringify({ quality: "HIGH", intro: false, music: false })); });
    const page = await context.newPage();
    page.on("pageerror", (e) => { console.error(`page error: ${e.message}`); failed = true; });
    await page.goto(`${server.base}/demo?operator=demo`);
    await page.locator("[data-testid=lobby]").waitFor({ timeout: 150000 });
    await page.waitForTimeout(800);
    await capture(page, { name: "Lobby", module: "lobby" }, size, "lobby");
    // The games are played as the "gallery" operator's player: its lobby holds the test games too.
    await page.goto(`${server.base}/demo?operator=gallery`);
    await page.locator("[data-testid=lobby]").waitFor({ timeout: 150000 });
    for (const plan of PLAN) {
      const seen = new Set();
      for (const key of plan.keys) await explore(page, plan, key, size, seen);
      await page.goto(`${server.base}/#/info/${plan.module}`);
      await page.waitForTimeout(1500);
      await capture(page, plan, size, "information page");
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const groups = [...new Set(shots.map((s) => s.plan))];
const html = `<!doctype html><meta charset="utf-8"><title>reelforge gallery</title>
<style>body{background:#111;color:#eee;font:14px system-ui;margin:16px}h2{margin:24px 0 8px}.row{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
figure{margin:0;background:#1d1d1d;padding:6px;border-radius:6px}figure img{display:block;height:340px;width:auto}figcaption{max-width:560px}.bad{outline:3px solid #e33}.bad figcaption{color:#f88}</style>
<h1>reelforge gallery</h1><p>${shots.length} screenshots, ${new Date().toISOString()}; each checked: not blank, nothing over the reels.</p>
${groups.map((g) => `<h2>${esc(g)}</h2><div class="row">${shots.filter((s) => s.plan === g).map((s) => `<figure class="${s.problems.length ? "bad" : ""}"><a href="${s.file}"><img src="${s.file}" loading="lazy"></a><figcaption>${esc(s.size)}: ${esc(s.state)}${s.problems.map((p) => `<br>${esc(p)}`).join("")}</figcaption></figure>`).join("")}</div>`).join("\n")}`;
writeFileSync(join(OUT, "index.html"), html);
const bad = shots.filter((s) => s.problems.length);
for (const s of bad) console.error(`gallery: ${s.file}: ${s.problems.join("; ")}`);
console.log(`gallery: ${shots.length} screenshots in ${((Date.now() - started) / 1000).toFixed(0)} s; open ${join(OUT, "index.html")}`);
if (bad.length || failed) process.exit(1);
