// The information pages (issue 14, item 7): for each game, from the server's description
// (`info`): the paytable in credits at the current bet (the one selected on the game's
// screen), the rules, the RTP of each mode and the maximum win.
function expect(cond, message) {
  if (!cond) throw new Error(message);
}
const pct = (v) => `${(v * 100).toFixed(2)}%`;

export const tests = [
  {
    name: "info pages: each game's paytable at the current bet, rules, RTP and max win",
    async run(t) {
      await t.page.goto(`${t.base}/demo?operator=demo`);
      await t.page.locator("[data-testid=lobby]").waitFor({ timeout: 150000 });
      const { games } = await t.api("/api/v1/games");
      for (const key of ["cluedo", "cops-n-robbers", "candy-jar-clusters"]) {
        const g = games.find((x) => x.key === key);
        // The game's screen, then its information page from the header's link.
        await t.page.goto(`${t.base}/#/game/${key}`);
        await t.page.locator(`[data-testid=game-${key}] [data-testid=play]`).waitFor({ timeout: 30000 });
        if (key === "cluedo") await t.page.click("[data-testid=line-bet-plus]"); // 2 x 20: the current bet
        if (key === "candy-jar-clusters") await t.page.click("[data-testid=candy-bet-plus]"); // coin value 2
        await t.page.click("[data-testid=nav-info]");
        await t.page.locator("[data-testid=info]").waitFor({ timeout: 30000 });
        const text = await t.page.locator("[data-testid=info]").innerText();
        for (const r of g.rtp) expect(text.includes(pct(r.value)), `${key}: RTP ${pct(r.value)} (${r.mode}) not shown`);
        expect(text.includes(`Maximum win: ${g.max_win.credits.toLocaleString("en")} credits`) && text.includes(`${g.max_win.x.toLocaleString("en")}x`), `${key}: max win ${g.max_win.credits} / ${g.max_win.x}x not shown`);
        expect((await t.page.locator("[data-testid=info] h2:text-is('Rules') + ul li").count()) > 0, `${key}: no rules`);
        // The paytable at the current bet: every symbol of the game's table, each pay x the bet per line.
        const bet = key === "cops-n-robbers" ? g.default_bet : { lines: g.default_bet.lines, bet_per_line: g.default_bet.bet_per_line + 1 };
        const stake = g.bets.find((b) => b.lines === bet.lines && b.bet_per_line === bet.bet_per_line).stake_credits;
        const caption = await t.page.locator("[data-testid=paytable-bet]").innerText();
        expect(caption.includes(`at a bet of ${stake.toLocaleString("en")} credits`), `${key}: paytable not at the current bet ${stake}: ${caption}`);
        const rows = await t.page.locator("[data-testid=paytable] tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
        const names = Object.fromEntries(g.info.symbols.map((s) => [s.id, s.name]));
        expect(rows.length === g.info.pays.table.length, `${key}: ${rows.length} paytable rows, the game has ${g.info.pays.table.length}`);
        for (const [i, row] of g.info.pays.table.entries()) {
          expect(rows[i][0] === (names[row.symbol] ?? row.symbol), `${key}: row ${i} is ${rows[i][0]}, not ${row.symbol}`);
          const [, top] = row.pays[row.pays.length - 1];
          const shown = (top * bet.bet_per_line).toLocaleString("en");
          expect(rows[i].slice(1).includes(shown), `${key}: ${row.symbol} pays ${top} x ${bet.bet_per_line} = ${shown}, shown ${rows[i]}`);
        }
        for (const m of g.info.pays.mixed ?? []) expect(text.includes(m.name), `${key}: mixed pay ${m.name} not shown`);
        await t.shot(`info-${key}`);
      }
    },
  },
];
