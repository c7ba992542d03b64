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
      // One label in every game (the playtest read "DEMO CREDITS" in Cluedo, "DEMO BALANCE" in
      // the others); Cluedo counts in credits (its rules' unit), the money under them.
      const first = (await label.textContent()).trim();
      expect(first === "Demo balance", `Cluedo's balance label: ${first}`);
      expect(/play money/.test(await label.getAttribute("title")), "the label's title does not say play money");
      // the meters are written on the screen's first render after the session (CI once read both empty)
      await t.page.waitForFunction(() => ["credits", "balance"].every((id) => document.querySelector(`[data-testid=game-cluedo] [data-testid=${id}]`)?.textContent?.trim()), null, { timeout: 10000 });
      const inCredits = (await t.page.locator("[data-testid=game-cluedo] [data-testid=credits]").innerText()).trim();
      const inMoney = (await t.page.locator("[data-testid=game-cluedo] [data-testid=balance]").innerText()).trim();
      const euros = `€${Math.floor(me.balance_minor / 100).toLocaleString("en")}.${String(me.balance_minor % 100).padStart(2, "0")}`;
      expect(inCredits === (me.balance_minor / cluedo.denomination).toLocaleString("en") && inMoney === euros,
        `Cluedo's meter shows ${inCredits} credits and ${inMoney}, the session ${me.balance_minor} minor units at ${cluedo.denomination} a credit`);
      const under = await t.rect("[data-testid=game-cluedo] [data-testid=balance]");
      const over = await t.rect("[data-testid=game-cluedo] [data-testid=credits]");
      expect(under && over && under.y >= over.y + over.height - 1, `the money ${JSON.stringify(under)} is not under the credits ${JSON.stringify(over)}`);
      // another game: the money, the credits at a tap, the label the same throughout
      await t.page.goto(`${t.base}/#/game/cops-n-robbers`);
      await t.page.locator("[data-testid=game-cops-n-robbers] [data-testid=play]:not([disabled])").waitFor({ timeout: 60000 });
      const cops = t.page.locator("[data-testid=game-cops-n-robbers] [data-testid=balance-label]");
      expect((await cops.textContent()).trim() === "Demo balance", `Cops' balance label: ${await cops.textContent()}`);
      await t.page.click("[data-testid=game-cops-n-robbers] [data-testid=balance-toggle]");
      const toggled = (await cops.textContent()).trim();
      const figure = await t.page.locator("[data-testid=game-cops-n-robbers] .balance-credits").innerText();
      expect(toggled === "Demo balance" && /credits/i.test(figure), `after the toggle: label ${toggled}, figure ${figure}`);
      await t.page.goto(`${t.base}/#/game/cluedo`);
      await t.page.locator("[data-testid=game-cluedo] [data-testid=play]:not([disabled])").waitFor({ timeout: 60000 });
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
