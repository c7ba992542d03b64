// Phone and keyboard checks (issue 14, item 10) and the options kept across a reload (item 6).
// Each game at 390x844 and 1440x900: every control on screen, none overlapping another, none
// over the reels' part of the canvas (the design leaves its lower HUD_SHARE to the console,
// render/app.ts, or the reels' window the screen reports); Tab reaches every control; Space
// spins. Screenshots of each.
const GAMES = ["cluedo", "cops-n-robbers", "candy-jar-clusters"];
const SIZES = [{ width: 1440, height: 900 }, { width: 390, height: 844 }];
// render/app.ts: DESIGNS and HUD_SHARE (landscape 1440x900 keeps 20% for the console, portrait
// 390x844 36%).
const DESIGN = { landscape: { width: 1440, height: 900, hud: 0.2 }, portrait: { width: 390, height: 844, hud: 0.36 } };

function expect(cond, message) {
  if (!cond) throw new Error(message);
}

/** The visible, enabled controls of the header and the game screen, each tagged data-a11y=i,
 * with their boxes and the reels' box (the design rect less its HUD share). */
function layout(design) {
  const stage = document.querySelector("[data-testid=stage]").getBoundingClientRect();
  const d = stage.width < stage.height ? design.portrait : design.landscape;
  const s = Math.min(stage.width / d.width, stage.height / d.height);
  const x = stage.left + (stage.width - d.width * s) / 2, y = stage.top + (stage.height - d.height * s) / 2;
  // The reels' own window where the screen reports it (every game does: layout.mjs needs it);
  // the design rect less its HUD share is wider than the reels (Candy's jars, tappable, stand
  // beside the grid inside it).
  const win = document.querySelector("[data-testid=reels-window]")?.getBoundingClientRect();
  const reels = win && win.width > 1 ? { left: win.left, top: win.top, right: win.right, bottom: win.bottom }
    : { left: x, top: y, right: x + d.width * s, bottom: y + d.height * s * (1 - d.hud) };
  const all = [...document.querySelectorAll("header a[href], header button, .game a[href], .game button, .game select, .game input, .game [tabindex]:not([tabindex='-1'])")];
  const controls = all.filter((e) => !e.disabled && e.getClientRects().length > 0 && !e.closest("[hidden]") && getComputedStyle(e).visibility !== "hidden");
  return {
    reels, viewport: { width: innerWidth, height: innerHeight },
    scrolls: document.documentElement.scrollWidth > innerWidth + 1,
    controls: controls.map((e, i) => {
      e.dataset.a11y = String(i);
      const r = e.getBoundingClientRect();
      return { i, id: e.getAttribute("data-testid") ?? e.getAttribute("aria-label") ?? `${e.tagName}:${e.textContent.trim().slice(0, 20)}`,
        inGame: !!e.closest(".game"), box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
        contains: controls.map((o, j) => (o !== e && e.contains(o) ? j : -1)).filter((j) => j >= 0) };
    }),
  };
}

const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

async function checkLayout(t, key, size) {
  const { reels, viewport, controls, scrolls } = await t.page.evaluate(layout, DESIGN);
  const where = `${key} at ${size.width}x${size.height}`;
  expect(!scrolls, `${where}: the page scrolls sideways`);
  expect(controls.some((c) => c.id === "play"), `${where}: no PLAY among ${controls.map((c) => c.id)}`);
  for (const c of controls) {
    const b = c.box;
    expect(b.left >= -1 && b.top >= -1 && b.right <= viewport.width + 1 && b.bottom <= viewport.height + 1,
      `${where}: ${c.id} is off-screen (${Math.round(b.left)},${Math.round(b.top)}-${Math.round(b.right)},${Math.round(b.bottom)})`);
    if (c.inGame) expect(overlap(b, reels) <= 4, `${where}: ${c.id} lies over the reels (control ${JSON.stringify(b)}, reels ${JSON.stringify(reels)})`);
  }
  for (const a of controls) for (const b of controls) {
    if (a.i >= b.i || a.contains.includes(b.i) || b.contains.includes(a.i)) continue;
    expect(overlap(a.box, b.box) <= 4, `${where}: ${a.id} overlaps ${b.id}`);
  }
  return controls;
}

async function tabReachesAll(t, key, size, controls) {
  await t.page.evaluate(() => (document.activeElement instanceof HTMLElement) && document.activeElement.blur());
  const reached = new Set();
  for (let i = 0; i < controls.length + 6; i++) {
    await t.page.keyboard.press("Tab");
    reached.add(await t.page.evaluate(() => document.activeElement?.getAttribute("data-a11y")));
  }
  const missed = controls.filter((c) => !reached.has(String(c.i))).map((c) => c.id);
  expect(missed.length === 0, `${key} at ${size.width}x${size.height}: Tab never reaches ${missed}`);
}

async function spaceSpins(t, key) {
  const screen = t.page.locator(`[data-testid=game-${key}]`);
  await t.page.locator("[data-testid=play]:not([disabled])").waitFor({ timeout: 30000 });
  const before = (await t.api("/api/v1/rounds?limit=100")).rounds.length;
  await t.page.evaluate(() => (document.activeElement instanceof HTMLElement) && document.activeElement.blur());
  await t.page.keyboard.press("Space");
  await screen.and(t.page.locator("[data-flow=request], [data-flow=play], [data-flow=settle]")).waitFor({ timeout: 5000 }).catch(() => {});
  await screen.and(t.page.locator("[data-flow=idle], [data-flow=choice]")).waitFor({ timeout: 60000 });
  const after = (await t.api("/api/v1/rounds?limit=100")).rounds.length;
  expect(after === before + 1, `${key}: Space played ${after - before} rounds`);
  if ((await screen.getAttribute("data-flow")) === "choice") {
    await t.page.locator("[data-testid=choice] button", { hasText: /COLLECT|TAKE WIN|NO THANKS/ }).first().click();
    await screen.and(t.page.locator("[data-flow=idle]")).waitFor({ timeout: 30000 });
  }
}

/** Counts WebAudio sources started, "music" or "sfx" by the bus they sound through:
 * render/sound.ts makes its gains master, music bus, effects bus in that order on unlock, and
 * every source reaches one of the two buses through what it is connected to. */
function countSound() {
  window.__sound = { music: 0, sfx: 0 };
  const C = globalThis.BaseAudioContext?.prototype, N = globalThis.AudioNode?.prototype, P = globalThis.AudioScheduledSourceNode?.prototype;
  if (!C || !N || !P) return;
  const createGain = C.createGain;
  C.createGain = function (...a) {
    const g = createGain.apply(this, a);
    this.__gains = (this.__gains ?? 0) + 1;
    if (this.__gains === 2) g.__bus = "music";
    if (this.__gains === 3) g.__bus = "sfx";
    return g;
  };
  const connect = N.connect;
  N.connect = function (to, ...a) { this.__to = to; return connect.call(this, to, ...a); };
  const start = P.start;
  P.start = function (...a) {
    let n = this;
    while (n && !n.__bus) n = n.__to;
    if (n) window.__sound[n.__bus]++;
    return start.apply(this, a);
  };
}

export const tests = [
  {
    name: "a11y: each game at 390x844 and 1440x900, controls on screen and clear of the reels, Tab reaches all, Space spins",
    async run(t) {
      await t.page.goto(`${t.base}/demo?operator=demo`);
      await t.page.locator("[data-testid=lobby]").waitFor({ timeout: 150000 });
      for (const size of SIZES) {
        await t.page.setViewportSize(size);
        for (const key of GAMES) {
          await t.page.goto(`${t.base}/#/game/${key}`);
          await t.page.locator(`[data-testid=game-${key}] [data-testid=play]:not([disabled])`).waitFor({ timeout: 30000 });
          if (await t.page.locator("[data-testid=turbo]").count()) await t.page.check("[data-testid=turbo]");
          await t.page.waitForTimeout(150); // the stage fits its host on the next frame
          const controls = await checkLayout(t, key, size);
          await tabReachesAll(t, key, size, controls);
          // Space spins: Cluedo at the desktop size (the CI budget; the GB test plays Candy Jar
          // with Space).
          if (size.width > 1000 && key === "cluedo") await spaceSpins(t, key);
          await checkLayout(t, key, size);
          await t.shot(`${key}-${size.width}x${size.height}`);
        }
      }
    },
  },
  {
    name: "a11y: options kept across a reload: quality drawn, sound, effects, music, intro; turbo too",
    options: { quality: "LOW", audio: true, sfx: true, music: true, intro: true },
    async run(t) {
      const canvas = t.page.locator("canvas").first();
      const look = async () => { await t.page.waitForTimeout(200); return { width: await canvas.evaluate((c) => c.width), png: await canvas.screenshot() }; };
      const sound = () => t.page.evaluate(() => window.__sound);
      const playable = async () => {
        await t.page.locator("[data-testid=game-cluedo] [data-testid=play]:not([disabled])").waitFor({ timeout: 30000 });
        await t.page.check("[data-testid=turbo]"); // default rules: turbo, shorter spins
      };
      const collect = async () => {
        if (!(await t.page.locator("[data-testid=game-cluedo][data-flow=choice]").count())) return;
        await t.page.click("[data-testid=gamble-collect]"); // the offer's COLLECT (or the cards')
        await t.page.locator("[data-testid=game-cluedo][data-flow=idle]").waitFor({ timeout: 30000 });
      };
      await t.page.addInitScript(countSound);
      // Everything on, LOW: the intro, then the ambient pad (from the gesture), effects on a spin.
      await t.page.goto(`${t.base}/demo?operator=demo#/game/cluedo`);
      await t.page.locator("[data-testid=intro]").waitFor({ timeout: 150000 });
      // The first visit's intro is a card over the reels, clear of PLAY; remembered once read.
      await t.page.locator("[data-testid=game-cluedo] [data-testid=play]").waitFor();
      const card = await t.rect("[data-testid=intro]"), play = await t.rect("[data-testid=play]");
      expect(card.x + card.width <= play.x || play.x + play.width <= card.x || card.y + card.height <= play.y || play.y + play.height <= card.y, `the intro ${JSON.stringify(card)} covers PLAY ${JSON.stringify(play)}`);
      await t.page.click("[data-testid=intro-continue]");
      expect(JSON.parse(await t.page.evaluate(() => localStorage.getItem("reelforge.intro-seen"))).includes("cluedo"), "the intro read is not remembered");
      await playable();
      expect((await canvas.getAttribute("data-quality")) === "LOW", "LOW not applied");
      const low = await look();
      expect((await sound()).music > 0, "music on, but the game's loop did not start");
      await t.spin("cluedo");
      expect((await sound()).sfx > 0, "sound effects on, but none played on a spin");
      await collect();
      // MEDIUM, no effects, no music, no intro: kept across the reload, and drawn differently.
      await t.page.click("[data-testid=nav-options]");
      for (const k of ["sfx", "music", "intro"]) await t.page.uncheck(`[data-testid=opt-${k}]`);
      await t.page.selectOption("[data-testid=opt-quality]", "MEDIUM");
      await t.page.click("[data-testid=opt-close]");
      await t.page.reload();
      await t.page.locator("[data-testid=game-cluedo] [data-testid=play]:not([disabled])").waitFor({ timeout: 30000 });
      expect(await t.page.isChecked("[data-testid=turbo]"), "turbo off again after a reload (the playtest)");
      await playable();
      expect((await t.page.locator("[data-testid=intro]").count()) === 0, "the intro came back after switching it off");
      expect((await canvas.getAttribute("data-quality")) === "MEDIUM", "MEDIUM not kept");
      const medium = await look();
      expect(medium.width > low.width, `MEDIUM draws ${medium.width} px wide, LOW ${low.width}`);
      expect(!medium.png.equals(low.png), "MEDIUM and LOW look the same on screen");
      await t.assertDrawn("medium");
      await t.spin("cluedo");
      const quiet = await sound();
      expect(quiet.sfx === 0 && quiet.music === 0, `effects and music off, yet ${JSON.stringify(quiet)} started`);
      await collect();
      await t.page.click("[data-testid=nav-options]");
      for (const k of ["sfx", "music", "intro"]) expect(!(await t.page.isChecked(`[data-testid=opt-${k}]`)), `${k} switched back on`);
      expect(await t.page.isChecked("[data-testid=opt-audio]"), "sound switched off");
      await t.shot("options-kept", "[data-testid=options] .dialog");
      // Sound off altogether (effects, music and the intro on): the intro shows, nothing sounds.
      for (const k of ["sfx", "music", "intro"]) await t.page.check(`[data-testid=opt-${k}]`);
      await t.page.uncheck("[data-testid=opt-audio]");
      await t.page.click("[data-testid=opt-close]");
      await t.page.reload();
      await t.page.locator("[data-testid=intro]").waitFor({ timeout: 30000 });
      await t.shot("intro-back");
      await t.page.click("[data-testid=intro-continue]");
      await playable();
      await t.page.waitForTimeout(200);
      const off = await sound();
      expect(off.sfx === 0 && off.music === 0, `sound off, yet ${JSON.stringify(off)} started`);
      await t.page.click("[data-testid=nav-options]");
      expect(!(await t.page.isChecked("[data-testid=opt-audio]")), "sound switched back on");
      expect(await t.page.isChecked("[data-testid=opt-sfx]") && await t.page.isChecked("[data-testid=opt-music]"), "effects or music not kept on");
    },
  },
];
