// Free play (GLI-19 4.9.1, standards.md I12): a demo player's balance meter says it holds play
// money, in currency and in credits; the session says so; and a round moves that balance alone
// (the demo operator's own accounts), at the same game files' odds as every operator's.
function expect(cond, message) {
  if (!cond) throw new Error(message);
}

export const tests = [
  {
    name: "free play: the balance meter is labelled demo play money and a round moves only the demo balance",
    async run(t) {
      await t.page.goto(`${t.base}/demo?operator=demo`);
      await t.page.locator("[data-testid=lobby]").waitFor({ timeout: 150000 });
      const me = await t.api("/api/v1/session");
      expect(me.demo === true, `a demo player's session is not marked demo: ${JSON.stringify(me.demo)}`);
      const { games } = await t.api("/api/v1/games");
      const cluedo = games.find((g) => g.key === "cluedo");
      expect(cluedo.game_id === "cluedo-v1", `the demo plays ${cluedo.game_id}, not the shipped cluedo-v1`);
      await t.page.goto(`${t.base}/#/game/cluedo`);
      await t.page.locator("[data-testid=game-cluedo] [data-testid=play]:not([disabled])").waitFor({ timeout: 60000 });
      const label = t.page.locator("[data-testid=game-cluedo] [data-testid=balance-label]");
      // Cluedo opens in credits (its rules' unit); the toggle shows the money, labelled alike
      const first = (await label.textContent()).trim();
      expect(first === "Demo credits", `balance label: ${first}`);
      expect(/play money/.test(await label.getAttribute("title")), "the label's title does not say play money");
      await t.page.click("[data-testid=game-cluedo] [data-testid=balance-toggle]");
      const second = (await label.textContent()).trim();
      expect(second === "Demo balance", `the label after the toggle: ${second}`);
      // A round: the demo balance moves by the round's stake and win, and by nothing else.
      const before = me.balance_minor;
      await t.page.click("[data-testid=game-cluedo] [data-testid=play]");
      let rounds = [];
      for (let i = 0; i < 100 && !rounds.length; i++) {
        rounds = (await t.api("/api/v1/rounds?game=cluedo&limit=5")).rounds.filter((r) => r.status === "closed" || r.status === "outcome_committed");
        if (!rounds.length) await t.page.waitForTimeout(200);
      }
      expect(rounds.length === 1, `one round expected, found ${rounds.length}`);
      const [r] = rounds;
      const full = await t.api(`/api/v1/rounds/${r.round_id}`);
      const player = full.ledger.filter((m) => m.account === "player");
      expect(player[0].balance_after_minor === before - r.stake_minor, `the stake left ${player[0].balance_after_minor}, not ${before} - ${r.stake_minor}`);
    },
  },
];
