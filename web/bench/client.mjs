// The browser client's benchmark (issues 14 and 22): `make bench-web`.
// Against a real `reelforge serve` on a fresh SQLite file (tests/e2e/server.mjs), in headless
// chromium, on two profiles: desktop (1440x900, device pixel ratio 1) and a mid-range phone
// (390x844, DPR 2.625, touch, the CPU throttled 4x through the DevTools protocol):
//   (a) frames per second and frame times per scene, at each graphics quality: each game's
//       reels or grid spinning (from PLAY to the first win or the round's end), Cluedo's win
//       presentation (from the first win shown to the round's end: lines, count-up,
//       celebrations; on the e2e tests' cluedo-win game) and Candy Jar's tumble sequence (on
//       the candy-cap game, whose every spin tumbles). Counted with requestAnimationFrame
//       (every frame the browser produced) and, beside it, the frames in which the page issued
//       WebGL draw calls (what Pixi drew: LOW draws every 2nd frame); frame times are the gaps
//       between rAF ticks, against the 16.7 ms budget of 60 fps.
//   (b) the first load: every response of a first navigation (the operator's launch into a
//       game, a fresh browser context, nothing cached), its bytes as sent and gzipped as
//       Starlette's GZipMiddleware would (level 9, bodies of 500 bytes or more).
//   (c) the time from navigation to a playable screen (PLAY enabled), median of BENCH_LOADS
//       cold loads on loopback.
// A measurement: it never fails on a goal. Options (environment):
//   BENCH_GL     chromium's GL flags (default: --use-gl=angle --use-angle=swiftshader
//                --enable-unsafe-swiftshader), BENCH_SPINS rounds per game and quality (3),
//   BENCH_LOADS  cold loads (7), BENCH_TUMBLE_ROUNDS candy-cap rounds (1, each tumbles many
//   times), BENCH_QUALITIES desktop qualities (HIGH,LOW), BENCH_PHONE_QUALITIES (HIGH),
//   BENCH_PHONE_THROTTLE (4).
// What it can show here: the client's own cost per frame on this CPU with WebGL in software
// (SwiftShader), a pessimistic stand-in for a GPU: a scene that holds 60 fps here holds it on
// any GPU. What it cannot: real GPU fill rate, a phone's GPU and thermal limits, vsync. On a
// machine with a GPU it runs unchanged; BENCH_GL="" (or --use-angle=vulkan) uses the GPU.
import { chromium } from "playwright-core";
import { gzipSync } from "node:zlib";
import { cpus, loadavg } from "node:os";
import { execFileSync } from "node:child_process";
import { startServer, WEB } from "../tests/e2e/server.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const GL = (process.env.BENCH_GL ?? "--use-gl=angle --use-angle=swiftshader --enable-unsafe-swiftshader").split(/\s+/).filter(Boolean);
const ARGS = ["--headless", "--no-sandbox", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...GL];
const SPINS = Number(process.env.BENCH_SPINS ?? 3);
const LOADS = Number(process.env.BENCH_LOADS ?? 7);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 90000);
const TUMBLE_ROUNDS = Number(process.env.BENCH_TUMBLE_ROUNDS ?? 1);
const QUALITIES = (process.env.BENCH_QUALITIES ?? "HIGH,LOW").split(",");
const PHONE_QUALITIES = (process.env.BENCH_PHONE_QUALITIES ?? "HIGH").split(",").filter(Boolean);
const THROTTLE = Number(process.env.BENCH_PHONE_THROTTLE ?? 4);
const PROFILES = {
  desktop: { name: "desktop 1440x900", viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 },
  phone: { name: `phone 390x844 DPR 2.625, CPU /${THROTTLE}`, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true, throttle: THROTTLE },
};
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

const t0 = Date.now();
const loadBefore = load();
// The tumble sequence on the test-only candy-cap game (the e2e tests' file: mostly cupcakes, so
// every spin tumbles many times), as the Candy Jar helper's bench/fps.mjs does.
const CAP = { operator: "demo", key: "candy-cap", gameFile: `${WEB}/tests/e2e/games/candy-jar-clusters-e2e-cap-v1.toml` };
const WIN = { operator: "demo", key: "cluedo-win", gameFile: `${WEB}/tests/e2e/games/cluedo-e2e-win-v1.toml` };
const server = await startServer({ extraGames: [CAP, WIN] });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
console.error(`bench-web: reelforge serve at ${server.base} (${((Date.now() - t0) / 1000).toFixed(1)} s), chromium ${browser.version()} ${GL.join(" ")}`);

/** Counts frames: every requestAnimationFrame tick (its time, negative when WebGL drew in it). */
function frameCounter() {
  const frames = [];
  let drew = false;
  window.__frames = frames;
  for (const P of [globalThis.WebGL2RenderingContext?.prototype, globalThis.WebGLRenderingContext?.prototype]) {
    if (!P) continue;
    for (const m of ["drawElements", "drawArrays", "drawElementsInstanced", "drawArraysInstanced"]) {
      const f = P[m];
      if (f) P[m] = function (...a) { drew = true; return f.apply(this, a); };
    }
  }
  const tick = (t) => { frames.push(drew ? -t : t); drew = false; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}

async function context(options, profile = PROFILES.desktop) {
  const { name: _name, throttle: _throttle, ...device } = profile;
  const ctx = await browser.newContext(device);
  await ctx.addInitScript((o) => localStorage.setItem("reelforge.options", JSON.stringify(o)), options);
  await ctx.addInitScript(frameCounter);
  return ctx;
}

const playable = (page) => page.waitForFunction(() => {
  const b = document.querySelector("[data-testid=play]");
  return b && !b.disabled ? performance.now() : null;
}, null, { polling: "raf", timeout: 120000 }).then((h) => h.jsonValue());

// --- warm the server: each game's first description computes its exact maximum win ----------
{
  const ctx = await context({ quality: "LOW", intro: false, music: false });
  const page = await ctx.newPage();
  for (const key of ["cluedo", "cops-n-robbers", "candy-jar-clusters", CAP.key, WIN.key]) {
    await page.goto(`${server.base}/demo?operator=demo#/game/${key}`);
    await playable(page);
  }
  await ctx.close();
}
console.error(`bench-web: server warm (${((Date.now() - t0) / 1000).toFixed(1)} s)`);

// --- (b) first load and (c) time to playable ------------------------------------------------
const LOAD_GAME = "candy-jar-clusters";
const loads = [];
let firstLoad = null;
for (let i = 0; i < LOADS; i++) {
  const ctx = await context({ quality: "HIGH", intro: false, music: true, audio: true, sfx: true });
  const page = await ctx.newPage();
  const responses = [];
  page.on("response", (r) => responses.push(r));
  await page.goto(`${server.base}/demo?operator=demo#/game/${LOAD_GAME}`);
  loads.push(await playable(page));
  if (i === 0) {
    firstLoad = [];
    for (const r of responses) {
      const url = new URL(r.url());
      const body = r.status() >= 300 && r.status() < 400 ? Buffer.alloc(0) : await r.body().catch(() => Buffer.alloc(0));
      const sizes = await r.request().sizes().catch(() => null);
      const type = (r.headers()["content-type"] ?? "").split(";")[0];
      const gz = body.length >= 500 ? gzipSync(body, { level: 9 }).length : body.length;
      firstLoad.push({ path: url.pathname, status: r.status(), type, encoding: r.headers()["content-encoding"] ?? "", bytes: body.length, wire: sizes ? sizes.responseBodySize : body.length, headers: sizes ? sizes.responseHeadersSize : 0, gzip: gz });
    }
  }
  await ctx.close();
}

// --- (a) frames per second ------------------------------------------------------------------
async function spinRounds(key, quality, spins = SPINS, profile = PROFILES.desktop) {
  const ctx = await context({ quality, intro: false, music: false }, profile);
  const page = await ctx.newPage();
  if (profile.throttle) await (await ctx.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: profile.throttle });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  const bets = [];
  page.on("response", async (r) => {
    if (r.request().method() === "POST" && /\/rounds$/.test(new URL(r.url()).pathname)) bets.push(r.json().catch(() => null));
  });
  await page.goto(`${server.base}/demo?operator=demo#/game/${key}`);
  await playable(page);
  const quality0 = await page.locator("canvas").getAttribute("data-quality");
  if (quality0 !== quality) throw new Error(`quality ${quality} not applied (${quality0})`);
  const canvas = await page.locator("canvas").evaluate((c) => `${c.width}x${c.height}`);
  await page.waitForTimeout(500);
  const rounds = [];
  for (let i = 0; i < spins; i++) {
    await playable(page);
    const start = await page.evaluate(() => {
      const el = document.querySelector("[data-testid=win]");
      window.__win = null;
      window.__obs?.disconnect();
      window.__obs = new MutationObserver(() => { if (window.__win === null && !/^0(\s|$)/.test(el.textContent)) window.__win = performance.now(); });
      window.__obs.observe(el, { childList: true, characterData: true, subtree: true });
      return performance.now();
    });
    await page.click("[data-testid=play]");
    await page.waitForFunction(() => document.querySelector("[data-flow]")?.dataset.flow === "request" || document.querySelector("[data-flow]")?.dataset.flow === "play", null, { polling: "raf" }).catch(() => {});
    // a round still playing after ROUND_MS is measured so far (and ends this context's rounds)
    let cut = false;
    const end = await page.waitForFunction(() => {
      const f = document.querySelector("[data-flow]")?.dataset.flow;
      return f === "idle" || f === "choice" ? performance.now() : null;
    }, null, { polling: "raf", timeout: ROUND_MS }).then((h) => h.jsonValue(), () => { cut = true; return page.evaluate(() => performance.now()); });
    const { win, frames } = await page.evaluate(() => ({ win: window.__win, frames: window.__frames.splice(0) }));
    const round = await bets[bets.length - 1];
    const events = (round?.outcome?.spins ?? []).flatMap((s) => s.events);
    const tumbles = events.filter((e) => e.type === "grid" && e.tumble > 0).length;
    const spinsPlayed = round?.outcome?.spins?.length ?? 1;
    rounds.push({ start, win, end, frames, tumbles, spinsPlayed, cut });
    if (cut) break;
    if ((await page.locator("[data-flow=choice]").count()) > 0) {
      await page.locator("[data-testid=choice] button", { hasText: /COLLECT|NO THANKS/ }).first().click();
      await page.locator("[data-flow=idle]").waitFor({ timeout: 60000 });
    }
  }
  await ctx.close();
  return { canvas, rounds, errors };
}

const quantile = (xs, q) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] : null);

function rate(rounds, from, to) {
  let ms = 0, raf = 0, drawn = 0;
  const gaps = [];
  for (const r of rounds) {
    const a = from(r), b = to(r);
    if (a === null || b === null || b <= a) continue;
    ms += b - a;
    let prev = null;
    for (const t of r.frames) {
      const at = Math.abs(t);
      if (at < a || at > b) continue;
      raf++;
      if (t < 0) drawn++;
      if (prev !== null) gaps.push(at - prev);
      prev = at;
    }
  }
  if (!ms) return null;
  return { raf: (raf * 1000) / ms, drawn: (drawn * 1000) / ms, s: ms / 1000, p50: quantile(gaps, 0.5), p95: quantile(gaps, 0.95), over: gaps.length ? gaps.filter((g) => g > 1000 / 60 * 1.5).length / gaps.length : null };
}

const fps = [];
const spinning = (r) => r.start, firstWin = (r) => r.win, stopped = (r) => r.win ?? r.end, ended = (r) => r.end;
const SCENES = [
  { what: "Cluedo: reels spinning", key: "cluedo", from: spinning, to: stopped },
  { what: "Cops n Robbers: reels spinning", key: "cops-n-robbers", from: spinning, to: stopped },
  { what: "Candy Jar: grid drops in", key: "candy-jar-clusters", from: spinning, to: stopped },
  { what: "Cluedo: win presentation (cluedo-win)", key: WIN.key, from: firstWin, to: ended, won: true },
  { what: "Candy Jar: tumble sequence (candy-cap)", key: CAP.key, from: firstWin, to: ended, won: true, spins: TUMBLE_ROUNDS },
];
const runs = [...QUALITIES.map((q) => [PROFILES.desktop, q]), ...PHONE_QUALITIES.map((q) => [PROFILES.phone, q])];
for (const [profile, quality] of runs) {
  for (const scene of SCENES) {
    const played = await spinRounds(scene.key, quality, scene.spins ?? SPINS, profile);
    const rounds = scene.won ? played.rounds.filter((r) => r.win !== null) : played.rounds;
    const cut = played.rounds.some((r) => r.cut) ? `, cut at ${ROUND_MS / 1000} s` : "";
    const tumbles = scene.key === CAP.key ? rounds.reduce((s, r) => s + r.tumbles, 0) : undefined;
    fps.push({ profile: profile.name, quality, what: scene.what + cut, canvas: played.canvas, n: rounds.length, errors: played.errors, tumbles, ...rate(rounds, scene.from, scene.to) });
  }
  console.error(`bench-web: ${profile.name} ${quality} done (${((Date.now() - t0) / 1000).toFixed(0)} s, load ${load()})`);
}
const renderer = await (async () => {
  const page = await browser.newPage();
  const r = await page.evaluate(() => {
    const gl = document.createElement("canvas").getContext("webgl2");
    const ext = gl?.getExtension("WEBGL_debug_renderer_info");
    return gl ? (ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)) : "no WebGL2";
  });
  await page.close();
  return r;
})();
await browser.close();
await server.stop();

// --- the report -----------------------------------------------------------------------------
const f1 = (x) => (x === undefined || x === null ? "—" : x.toFixed(1));
const kb = (b) => (b / 1024).toFixed(1);
const sorted = [...loads].sort((a, b) => a - b);
const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
const sum = (k) => firstLoad.reduce((s, r) => s + r[k], 0);
const cpu = cpus()[0]?.model ?? "?";
let lscpu = "";
try { lscpu = execFileSync("nproc", { encoding: "utf8" }).trim(); } catch { /* no nproc */ }
const out = [];
out.push(`Machine: ${cpu}, ${lscpu || cpus().length} cores; load average (1, 5, 15 min) ${loadBefore} before, ${load()} after; chromium ${browser.version()} headless, ${GL.join(" ")}; WebGL renderer: ${renderer}.`);
out.push("");
out.push("(a) Frames per second and frame times while animating (rAF: requestAnimationFrame ticks; drawn: the ticks in which the page issued WebGL draw calls; frame time: the gap between ticks, budget 16.7 ms; over: the share of frames longer than 25 ms, a dropped frame at 60 fps)");
out.push("");
out.push("| profile | quality | canvas px | scene | rounds | seconds measured | rAF fps | drawn fps | frame time p50 / p95 (ms) | over | page errors |");
out.push("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
const pct = (x) => (x === null || x === undefined ? "—" : `${(x * 100).toFixed(0)}%`);
for (const r of fps) out.push(`| ${r.profile} | ${r.quality} | ${r.canvas} | ${r.what}${r.tumbles !== undefined ? ` (${r.tumbles} tumbles)` : ""} | ${r.n} | ${f1(r.s)} | ${f1(r.raf)} | ${f1(r.drawn)} | ${f1(r.p50)} / ${f1(r.p95)} | ${pct(r.over)} | ${r.errors.length ? `${r.errors.length}: ${[...new Set(r.errors.map((e) => e.split("\n")[0].slice(0, 80)))].join("; ")}` : 0} |`);
out.push("");
out.push(`(b) First load (a launch into ${LOAD_GAME}, fresh context): ${firstLoad.length} responses`);
out.push("");
out.push("| path | status | type | sent as | body bytes | on the wire | gzip -9 (as GZipMiddleware) |");
out.push("| --- | --- | --- | --- | --- | --- | --- |");
for (const r of firstLoad) out.push(`| ${r.path.replace(/[0-9a-f]{8,}/g, "…")} | ${r.status} | ${r.type} | ${r.encoding || "identity"} | ${r.bytes} | ${r.wire} | ${r.gzip} |`);
out.push(`| total | | | | ${kb(sum("bytes"))} KiB | ${kb(sum("wire"))} KiB (+ ${kb(sum("headers"))} KiB headers) | ${kb(sum("gzip"))} KiB |`);
out.push(`Goal: under 1.5 MB gzipped with the art and fonts: ${sum("gzip") < 1.5 * 1024 * 1024 ? "met" : "NOT met"} (${(sum("gzip") / 1024 / 1024).toFixed(2)} MiB).`);
out.push("");
out.push(`(c) Navigation to PLAY enabled (loopback, cold context, HIGH, desktop): median ${median.toFixed(0)} ms of ${loads.length} (${sorted.map((x) => x.toFixed(0)).join(", ")} ms); goal under 2 s: ${median < 2000 ? "met" : "NOT met"}`);
out.push("");
out.push("What this shows: the client's cost per frame on this CPU with WebGL drawn in software (SwiftShader), a pessimistic stand-in for a GPU. What it cannot: a GPU's fill rate, a phone's GPU and heat, vsync; on a machine with a GPU the same command measures the GPU (BENCH_GL=\"\").");
console.log(out.join("\n"));
console.error(`bench-web: done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
