// End-to-end tests: Debian's chromium (playwright-core, never a downloaded browser) against a
// real `reelforge serve` on a fresh SQLite file. Screenshots go to web/test-results/; a test
// fails on an empty render (a canvas of one colour). Run: npm run e2e (after npm run build).
//   E2E_ONLY=<substring> runs the tests whose name contains it; E2E_JOBS=<n> runs n at a time (3);
//   E2E_PROFILE=1 says after each test where its time went (navigation, waits, screenshots...)
//   and writes test-results/durations.json (copy it over tests/e2e/durations.json, the order
//   the scenarios start in, when scenarios come or go or change much).
import { chromium } from "playwright-core";
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync, existsSync, rmSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startServer, WEB } from "./server.mjs";
import { colourStats, decodePng } from "./png.mjs";
import { layoutProblems } from "./layout.mjs";
import { tests as baseTests } from "./tests.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
// WebGL on ANGLE's SwiftShader (software, no GPU needed): with --disable-gpu, headless chromium's
// screenshots left the top of a game canvas white (a band over the reels and grids), though
// the page drew it.
// A test may ask for `browser: "software"`: --disable-gpu, Chromium's software compositing, as a
// player's browser without GPU acceleration draws (where the reels' top rows once went blank).
const SOFTWARE_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
// --disable-gpu-rasterization: Debian's /usr/bin/chromium adds --enable-gpu-rasterization, which
// rasterises the page's tiles through SwiftShader's emulated GL (chrome://gpu: "Hardware
// accelerated on all pages"); Skia's own software raster does the same work for far less CPU:
// three 1440x900 screenshots of the lobby took 19 s, then 1.9 s. Screenshots, clicks and
// waits all wait for those frames. WebGL and compositing stay on SwiftShader as above.
const ARGS = ["--headless", "--no-sandbox", "--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-gpu-rasterization", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const RESULTS = join(WEB, "test-results");
const MAX_FPS_KEY = "reelforge.dev.maxFps"; // read by the client's Stage (src/render/app.ts)
const MAX_FPS = Number(process.env.E2E_MAX_FPS ?? 4);

if (!existsSync(join(WEB, "dist", "index.html"))) {
  console.error("e2e: web/dist is not built (npm run build)");
  process.exit(2);
}
if (!existsSync(CHROMIUM)) {
  console.error(`e2e: no browser at ${CHROMIUM} (make chromium)`);
  process.exit(2);
}
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

// tests.mjs, then every tests/e2e/*.tests.mjs (one file per game's scenarios), by name.
const E2E = join(WEB, "tests", "e2e");
const tests = [...baseTests];
for (const file of readdirSync(E2E).filter((f) => f.endsWith(".tests.mjs")).sort()) {
  tests.push(...(await import(pathToFileURL(join(E2E, file)).href)).tests);
}

const only = process.env.E2E_ONLY;
const t0 = Date.now();
// Test-only game files (same rules, reels that hit a feature often) are served as extra games
// of the test operators: a test lists them as gameFiles: [{ operator, key, gameFile }].
// Scenarios may share a test game: each (operator, key) is configured once.
const wanted = tests.flatMap((t) => (only && !t.name.includes(only) ? [] : t.gameFiles ?? []));
const extraGames = [...new Map(wanted.map((g) => [`${g.operator}/${g.key}`, g])).values()];
const server = await startServer({ extraGames });
console.log(`e2e: reelforge serve at ${server.base} ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (log ${server.log})`);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
let softwareBrowser = null;
const browserFor = async (test) => {
  if (test.browser !== "software") return browser;
  softwareBrowser ??= await chromium.launch({ executablePath: CHROMIUM, args: SOFTWARE_ARGS });
  return softwareBrowser;
};

/** The helpers every test gets. */
function kit(page, name) {
  return {
    page, base: server.base, staff: server.staff,
    async shot(label, selector = null) {
      const path = join(RESULTS, `${name}-${label}.png`.replace(/[^A-Za-z0-9_.-]+/g, "_"));
      await (selector ? page.locator(selector).first() : page).screenshot({ path });
      return path;
    },
    /** An element's CSS px rectangle on the page (null when absent or taking no room). */
    rect(selector) {
      return page.evaluate((sel) => {
        const el = document.querySelector(sel);
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return r.width && r.height ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
      }, selector);
    },
    /** The screen as it is now: no control or message over the reels' window or another
     * control, no button's words wrapped (layout.mjs); a screenshot either way. */
    async layout(label) {
      const settle = async () => {
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await page.waitForTimeout(150);
      };
      // The screen is judged as the player sees it, settled: a round may reach its next state
      // (a choice panel opening) between the wait and the measurement, and the reels are laid
      // out again in the frame that follows. A problem still there a settled frame later is real.
      await settle();
      let path = await this.shot(`layout-${label}`);
      let problems = await page.evaluate(layoutProblems);
      if (problems.length) {
        await settle();
        path = await this.shot(`layout-${label}`);
        problems = await page.evaluate(layoutProblems);
      }
      if (problems.length) throw new Error(`layout ${label} (${path}):\n  ${problems.join("\n  ")}`);
    },
    /** The game canvas is drawn: many colours, none covering nearly all of it. */
    async assertDrawn(label) {
      const canvas = page.locator("canvas").first();
      await canvas.waitFor({ state: "visible", timeout: 30000 });
      const path = join(RESULTS, `${name}-${label}-canvas.png`.replace(/[^A-Za-z0-9_.-]+/g, "_"));
      const png = decodePng(await canvas.screenshot({ path }));
      const { distinct, topShare } = colourStats(png);
      if (png.width < 50 || png.height < 50 || distinct < 16 || topShare > 0.9)
        throw new Error(`${label}: the canvas looks empty (${png.width}x${png.height}, ${distinct} colours, top colour ${(topShare * 100).toFixed(1)}%) ${path}`);
    },
    /** The session token this tab keeps, and an API call with it from the test. */
    async api(path, init = {}) {
      const token = await page.evaluate(() => sessionStorage.getItem("reelforge.session"));
      const r = await fetch(server.base + path, { ...init, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...(init.headers ?? {}) } });
      return r.json();
    },
    /** Press PLAY and wait for the round to settle or stop at a choice. */
    async spin(game) {
      const screen = page.locator(`[data-testid=game-${game}]`);
      await page.locator("[data-testid=play]:not([disabled])").waitFor({ timeout: 30000 });
      await page.click("[data-testid=play]");
      await screen.and(page.locator("[data-flow=idle], [data-flow=choice]")).waitFor({ timeout: 60000 });
      return screen.getAttribute("data-flow");
    },
  };
}

// E2E_PROFILE: the page's and locators' methods timed by kind, each test's own (a call made
// inside another timed call counts once, in the outer one's kind).
const profile = new AsyncLocalStorage();
const KINDS = {
  navigate: ["goto", "reload", "goBack", "goForward", "waitForURL", "waitForLoadState"],
  wait: ["waitFor", "waitForSelector", "waitForFunction"],
  sleep: ["waitForTimeout"],
  screenshot: ["screenshot"],
  act: ["click", "check", "uncheck", "fill", "selectOption", "press", "focus", "setViewportSize", "type", "hover", "dispatchEvent"],
  read: ["evaluate", "innerText", "textContent", "getAttribute", "isHidden", "isVisible", "isDisabled", "isChecked", "inputValue", "count", "allInnerTexts", "boundingBox"],
};
function timeMethods(proto) {
  for (const [kind, names] of Object.entries(KINDS)) for (const name of names) {
    const original = proto[name];
    if (typeof original !== "function" || original.profiled) continue;
    const timed = function (...args) {
      const p = profile.getStore();
      if (!p || p.inside) return original.apply(this, args);
      p.inside = true;
      const started = performance.now();
      const done = () => { p.inside = false; p.ms[kind] = (p.ms[kind] ?? 0) + performance.now() - started; };
      try {
        const r = original.apply(this, args);
        if (r && typeof r.then === "function") return r.finally(done);
        done();
        return r;
      } catch (e) { done(); throw e; }
    };
    timed.profiled = true;
    proto[name] = timed;
  }
}
// CPU seconds of this runner, the server and the browsers (this process and its descendants,
// those reaped included), from /proc: on a shared machine the wall time says how busy the
// neighbours were, the CPU time what the tests cost. null where there is no /proc.
function cpuSeconds() {
  try {
    const stats = readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // after the command's name
        return { pid: Number(pid), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
      } catch { return null; } // gone meanwhile
    }).filter(Boolean);
    const ours = new Set([process.pid]);
    for (let grew = true; grew;) {
      grew = false;
      for (const s of stats) if (!ours.has(s.pid) && ours.has(s.ppid)) { ours.add(s.pid); grew = true; }
    }
    return stats.filter((s) => ours.has(s.pid)).reduce((a, s) => a + s.ticks, 0) / 100; // USER_HZ
  } catch { return null; }
}
const profiled = (p) => Object.entries(p.ms).sort((a, b) => b[1] - a[1]).map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)}`).join(", ");

// A scenario that fails is run once more, alone, after the others (Playwright Test's `retries`
// in CI): on a shared two-core machine a wait can run out while another scenario's animation
// holds both cores. One that fails twice fails the run; one that passes the second time is named
// FLAKY at the end, with its first failure, so an intermittent fault stays in sight. Both lists
// are repeated at the end because CI shows only the output's tail.
const RETRIES = Number(process.env.E2E_RETRIES ?? 1);
const failures = []; // { test, message }
const durations = {}; // E2E_PROFILE writes them to test-results/durations.json
async function runOne(test) {
  if (process.env.E2E_PROFILE) return profile.run({ inside: false, ms: {}, cpu: cpuSeconds() }, () => runTest(test));
  return runTest(test);
}
async function runTest(test) {
  const started = Date.now();
  const context = await (await browserFor(test)).newContext({ viewport: test.viewport ?? { width: 1440, height: 900 }, ...test.context }); // context: e.g. { timezoneId, locale }
  // LOW quality unless a test stores other options: a software-rendered browser draws faster.
  await context.addInitScript((opts) => { if (!localStorage.getItem("reelforge.options")) localStorage.setItem("reelforge.options", JSON.stringify(opts)); }, test.options ?? { quality: "LOW", intro: false, music: false });
  // The canvas drawn at most E2E_MAX_FPS frames a second (default 4; 0: uncapped). Under
  // SwiftShader every frame the page shows costs the GPU process about 130 ms of CPU at
  // 1440x900 (22 ms at 390x844), so any animation saturates the two cores whatever its frame
  // rate; animations run on the wall clock, so fewer frames show the same states at the same
  // times. Measured: the phone celebration scenario 59.5 -> 40.5 CPU s at 4 (benchmarks/RESULTS.md).
  await context.addInitScript((n) => { if (!localStorage.getItem(n[0])) localStorage.setItem(n[0], n[1]); }, [MAX_FPS_KEY, String(test.maxFps ?? MAX_FPS)]);
  const page = await context.newPage();
  if (process.env.E2E_PROFILE) {
    timeMethods(Object.getPrototypeOf(page));
    timeMethods(Object.getPrototypeOf(page.locator("body")));
    timeMethods(Object.getPrototypeOf(page.keyboard));
  }
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  try {
    await test.run(kit(page, test.name));
    const real = errors.filter((e) => !(test.allowErrors ?? []).some((a) => e.includes(a)));
    if (real.length) throw new Error(`page errors: ${real.join(" | ")}`);
    console.log(`ok   ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    durations[test.name] = Math.round((Date.now() - started) / 1000);
    const p = profile.getStore();
    if (p) console.log(`     time (s): ${jobs === 1 && p.cpu !== null ? `CPU ${(cpuSeconds() - p.cpu).toFixed(1)}; ` : ""}${profiled(p)}, other ${((Date.now() - started - Object.values(p.ms).reduce((a, b) => a + b, 0)) / 1000).toFixed(1)}`);
  } catch (exc) {
    failures.push({ test, message: String(exc.message ?? exc).split("\n")[0].slice(0, 300) });
    console.log(`FAIL ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s): ${exc.stack ?? exc}`);
    await page.screenshot({ path: join(RESULTS, `${test.name}-failure.png`.replace(/[^A-Za-z0-9_.-]+/g, "_")) }).catch(() => {});
  } finally {
    await context.close();
  }
}

// Scenarios are independent (each its own demo player and browser context): E2E_JOBS of them
// at a time (default 3 on CI's 2 cores: with 2, the e2e used 1.56 of them, much of a scenario
// waiting on animations' wall-clock time and the server; a scenario that fails under the
// crowding is run again alone, above), the longest first (durations.json, seconds a scenario took; one it does not name counts as long) so
// that no long one starts last while the other job runs dry.
const DURATIONS = join(E2E, "durations.json");
const took = existsSync(DURATIONS) ? JSON.parse(readFileSync(DURATIONS, "utf8")) : {};
const testsStarted = Date.now();
const cpuAtStart = process.env.E2E_PROFILE ? cpuSeconds() : null;
const queue = tests.filter((t) => !only || t.name.includes(only)).sort((a, b) => (took[b.name] ?? Infinity) - (took[a.name] ?? Infinity));
const jobs = Math.max(1, Number(process.env.E2E_JOBS ?? 3));
await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, async () => {
  for (let test = queue.shift(); test; test = queue.shift()) await runOne(test);
}));
const flaky = [];
for (let round = 0; round < RETRIES && failures.length; round++) {
  const again = failures.splice(0);
  for (const first of again) {
    console.log(`     ${first.test.name}: run again, alone`);
    const before = failures.length;
    await runOne(first.test);
    if (failures.length === before) flaky.push(first);
  }
}
const cpuNow = process.env.E2E_PROFILE ? cpuSeconds() : null; // before the browsers' processes go
if (process.env.E2E_PROFILE) writeFileSync(join(RESULTS, "durations.json"), `${JSON.stringify(durations, null, 1)}\n`);
await browser.close();
await softwareBrowser?.close();
await server.stop();
for (const f of flaky) console.log(`FLAKY  ${f.test.name}: passed when run again; it first failed with: ${f.message}`);
for (const f of failures) console.log(`FAILED ${f.test.name}: ${f.message}`);
const failed = failures.length;
console.log(`e2e: ${failed ? `${failed} failed` : "all passed"}${flaky.length ? ` (${flaky.length} flaky)` : ""} in ${((Date.now() - t0) / 1000).toFixed(1)} s (tests ${((Date.now() - testsStarted) / 1000).toFixed(1)} s${cpuNow !== null && cpuAtStart !== null ? `, CPU ${(cpuNow - cpuAtStart).toFixed(1)} s` : ""}); screenshots in ${RESULTS}`);
process.exit(failed ? 1 : 0);
