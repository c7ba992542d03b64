// The back office in Chromium: a manager signs in, reads today's meters after a round the test
// played as a player, downloads them as CSV, reads the actual against theoretical RTP and its chart, looks up the round and the
// player, disables a game (a player's next round is refused)
// and enables it again; the page at 1440x900 and at 390x844.

function money(minor) {  // EUR, as the page writes it: integer arithmetic only
  return `€${Math.floor(minor / 100).toLocaleString("en")}.${String(minor % 100).padStart(2, "0")}`;
}

function expect(cond, message) {
  if (!cond) throw new Error(message);
}

/** A demo player's session token, through the operator's launch as the lobby gets one. */
async function player(base, operator = "demo") {
  const r = await fetch(`${base}/demo?operator=${operator}`, { redirect: "manual" });
  const launch = new URL(r.headers.get("location"), base).searchParams.get("launch");
  const opened = await (await fetch(`${base}/api/v1/sessions`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ launch_token: launch }) })).json();
  const token = opened.session_token;
  const call = async (path, body) => {
    const res = await fetch(base + path, { method: body ? "POST" : "GET", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, body: await res.json() };
  };
  return { call, bet: (game) => call(`/api/v1/games/${game}/rounds`, { request_id: crypto.randomUUID(), lines: 20, bet_per_line: 1 }) };
}

async function signIn(t) {
  await t.page.goto(`${t.base}/backoffice`);
  await t.page.locator("[data-testid=office-signin]").waitFor({ timeout: 30000 });
  await t.page.fill("#office-name", t.staff.name);
  await t.page.fill("#office-password", t.staff.password);
  await t.page.click("[data-testid=office-signin-submit]");
  await t.page.locator("[data-testid=office-who]").waitFor({ timeout: 30000 });
}

async function noSideways(t, label) {
  const { scroll, width } = await t.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll <= width, `${label}: the page is ${scroll} px wide in a ${width} px window (sideways scrolling)`);
}

export const tests = [
  {
    name: "backoffice: a manager signs in, reads today's meters after a round, disables and re-enables a game",
    // Chromium logs every 401 answer as a console error: the page's "who is signed in?" before
    // sign-in, the wrong password and the check after sign-out are each one, on purpose.
    allowErrors: ["status of 401"],
    async run(t) {
      const p = await player(t.base);
      const round = await p.bet("candy-jar-clusters");
      expect(round.status === 200 && round.body.status === "closed", `the round: ${JSON.stringify(round)}`);
      // another player's Cluedo round left open at its gamble: the funds held in it are listed
      const holder = await player(t.base);
      let open = null;
      for (let i = 0; i < 300 && !open; i++) {
        const r = await holder.bet("cluedo");
        expect(r.status === 200, `a Cluedo round: ${JSON.stringify(r)}`);
        if (r.body.status !== "closed") open = r.body;
      }
      expect(open, "no Cluedo round offered a gamble in 300 rounds");

      // a wrong password is refused with the server's sentence, and nothing opens
      await t.page.goto(`${t.base}/backoffice`);
      await t.page.fill("#office-name", t.staff.name);
      await t.page.fill("#office-password", "not the password");
      await t.page.click("[data-testid=office-signin-submit]");
      const refusal = await t.page.locator("[data-testid=office-signin] [data-testid=office-error]:not([hidden])").innerText({ timeout: 15000 });
      expect(refusal.includes("no account with this name and password"), `refusal: ${refusal}`);

      await signIn(t);
      expect((await t.page.locator("[data-testid=office-who]").innerText()).includes("manager"), "not signed in as a manager");
      // the page's meters are the API's, and the API's count the round just played
      const day = new Date().toISOString().slice(0, 10);
      const api = await t.page.evaluate(async (d) => (await fetch(`/backoffice/api/meters?from=${d}&to=${d}`)).json(), day);
      const meter = api.meters.find((m) => m.operator === "demo" && m.game === "candy-jar-clusters" && m.mode === "base");
      expect(meter && meter.rounds >= 1 && meter.turnover_minor >= round.body.stake_minor, `meters: ${JSON.stringify(api.meters)}`);
      const shown = t.page.locator('[data-testid=office-meters-table] tr[data-game="demo/candy-jar-clusters/base/EUR"]');
      await shown.waitFor({ timeout: 15000 });
      const cells = await shown.locator("td").allInnerTexts();
      expect(cells[3] === String(meter.rounds), `rounds shown ${cells[3]}, the API says ${meter.rounds}`);
      const csv = await t.page.evaluate(async () => {
        const href = document.querySelector("[data-testid=office-meters-csv]").getAttribute("href");
        const r = await fetch(href);
        return { type: r.headers.get("content-type"), text: await r.text() };
      });
      expect(csv.type.startsWith("text/csv") && csv.text.startsWith("day,operator,game,mode,currency,rounds,turnover_minor"), `CSV: ${csv.type} ${csv.text.slice(0, 120)}`);
      expect(csv.text.includes(`${day},demo,candy-jar-clusters,base,EUR,${meter.rounds},${meter.turnover_minor},${meter.wins_minor},`), `CSV lacks the meter row: ${csv.text}`);
      // actual against theoretical RTP: the page's row is the API's, with its band and verdict
      const rtpRow = t.page.locator('[data-testid=office-rtp-table] tr[data-game="demo/candy-jar-clusters/base/EUR"]');
      await rtpRow.waitFor({ timeout: 120000 });
      const report = await t.page.evaluate(async (d) => (await fetch(`/backoffice/api/rtp?from=${d}&to=${d}&operator=demo&game=candy-jar-clusters`)).json(), day);
      const candy = report.rtp.find((r) => r.mode === "base");
      const rtpShown = await rtpRow.locator("td").allInnerTexts();
      expect(candy && candy.band && rtpShown[3] === String(candy.rounds) && rtpShown[7] === (candy.inside ? "inside" : "OUTSIDE"),
        `RTP row ${JSON.stringify(rtpShown)}, the API says ${JSON.stringify(candy)}`);
      const heldRow = t.page.locator("[data-testid=office-held-table] tr", { hasText: open.round_id });
      await heldRow.waitFor({ timeout: 15000 });
      const heldCells = await heldRow.locator("td").allInnerTexts();
      expect(heldCells[3] === "cluedo" && heldCells[5] === money(open.stake_minor), `held row ${JSON.stringify(heldCells)} for a stake of ${open.stake_minor}`);
      await t.shot("meters-1440");
      await noSideways(t, "1440x900");

      // the RTP chart of a game played today: the actual line and the band, drawn as SVG
      const option = t.page.locator("[data-testid=office-chart-game] option", { hasText: "demo · candy-jar-clusters · base · EUR" }).first();
      await option.waitFor({ state: "attached", timeout: 120000 });
      await t.page.selectOption("[data-testid=office-chart-game]", { label: (await option.textContent()) ?? "" });
      await t.page.locator("[data-testid=office-rtp-chart] [data-testid=office-rtp-band]").waitFor({ timeout: 120000 });
      expect(await t.page.locator("[data-testid=office-rtp-chart] circle").count() >= 1, "no point on the RTP chart");
      // the round just played, looked up: its stake, and the player's own ledger movements
      await t.page.fill("[data-testid=office-round-form-round]", round.body.round_id);
      await t.page.click("[data-testid=office-round-form] button");
      const summary = await t.page.locator("[data-testid=office-round-summary]").innerText({ timeout: 15000 });
      expect(summary.includes(round.body.round_id) && summary.includes(`stake ${money(round.body.stake_minor)}`), `round lookup: ${summary}`);
      // the player looked up: the session with its rounds and net position
      const me = (await p.call("/api/v1/session")).body;
      await t.page.fill("[data-testid=office-player-form-operator]", "demo");
      await t.page.fill("[data-testid=office-player-form-player]", String(me.player));
      await t.page.click("[data-testid=office-player-form] button");
      const sessionRow = t.page.locator("[data-testid=office-player-sessions] tr").nth(1);
      await sessionRow.waitFor({ timeout: 15000 });
      const sessions = await sessionRow.locator("td").allInnerTexts();
      const net = round.body.win_minor - round.body.stake_minor;
      expect(sessions[3] === "1" && sessions[4] === (net > 0 ? "+" : "") + (net < 0 ? "-" + money(-net) : money(net)), `player lookup: ${JSON.stringify(sessions)}`);
      await t.shot("reports-1440", "[data-testid=office-reports]");

      // disable Cluedo for the demo operator: a player's new round is refused
      const row = t.page.locator("[data-testid=office-game-row-demo-cluedo]");
      await t.page.click("[data-testid=office-game-demo-cluedo]");
      await t.page.locator("[data-testid=office-game-row-demo-cluedo][data-state=off]").waitFor({ timeout: 15000 });
      expect((await row.innerText()).includes(`by ${t.staff.name}`), `the row: ${await row.innerText()}`);
      const refused = await p.bet("cluedo");
      expect(refused.status === 403 && refused.body.error.code === "GAME_DISABLED", `a disabled game's round: ${JSON.stringify(refused)}`);
      await t.shot("game-disabled-1440", "[data-testid=office-games]");

      await t.page.click("[data-testid=office-game-demo-cluedo]");
      await t.page.locator("[data-testid=office-game-row-demo-cluedo][data-state=on]").waitFor({ timeout: 15000 });
      const again = await p.bet("cluedo");
      expect(again.status === 200, `after enabling: ${JSON.stringify(again)}`);

      // the significant-events log (H4): the wrong password and both switches, as the server logged them
      await t.page.reload();
      const events = t.page.locator("[data-testid=office-events-table]");
      await events.waitFor({ timeout: 30000 });
      const kinds = await events.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-kind")));
      expect(kinds.includes("staff.sign_in_failed") && kinds.filter((k) => k === "game.switched").length >= 2 && kinds.includes("server.started"),
        `events: ${JSON.stringify(kinds)}`);
      await t.page.locator("[data-testid=office-events]").scrollIntoViewIfNeeded();
      await t.shot("events-1440", "[data-testid=office-events]");

      await t.page.setViewportSize({ width: 390, height: 844 });
      await t.page.waitForTimeout(200);
      await noSideways(t, "390x844");
      await t.shot("meters-390");
      await t.page.locator("[data-testid=office-games]").scrollIntoViewIfNeeded();
      await t.shot("games-390");

      await t.page.click("[data-testid=office-signout]");
      await t.page.locator("[data-testid=office-signin]").waitFor({ timeout: 15000 });
      const after = await t.page.evaluate(async () => (await fetch("/backoffice/api/session")).status);
      expect(after === 401, `after sign-out the session answers ${after}`);
    },
  },
];
