// The back office's jackpot claims and corrections in Chromium: a jackpot won by a player shows
// in the Jackpot claims section; the manager verifies it and pays the first instalment (the
// player's balance rises by it); the pools table shows each pool's ceiling and overflow; a
// correction the manager proposes waits for another manager (its own Approve is disabled).
import { WEB } from "./server.mjs";

const JP = { operator: "demo", key: "cluedo-jp", gameFile: `${WEB}/tests/e2e/games/cluedo-e2e-jp-v1.toml` };

function expect(cond, message) {
  if (!cond) throw new Error(message);
}

async function player(base) {
  const r = await fetch(`${base}/demo?operator=demo`, { redirect: "manual" });
  const launch = new URL(r.headers.get("location"), base).searchParams.get("launch");
  const opened = await (await fetch(`${base}/api/v1/sessions`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ launch_token: launch }) })).json();
  const token = opened.session_token;
  const call = async (path, body) => {
    const res = await fetch(base + path, { method: body ? "POST" : "GET", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, body: await res.json() };
  };
  return { call };
}

export const tests = [
  {
    name: "backoffice control: a manager verifies a jackpot claim, pays its first instalment, proposes a correction",
    gameFiles: [JP],
    allowErrors: ["status of 401"],
    async run(t) {
      const p = await player(t.base);
      const won = await p.call(`/api/v1/games/${JP.key}/rounds`, { request_id: crypto.randomUUID(), lines: 20, bet_per_line: 5 });
      expect(won.status === 200 && won.body.jackpot_claim, `the jackpot round: ${JSON.stringify(won).slice(0, 400)}`);
      const claim = won.body.jackpot_claim;
      const external = (await p.call("/api/v1/session")).body.player;

      await t.page.goto(`${t.base}/backoffice`);
      await t.page.locator("[data-testid=office-signin]").waitFor({ timeout: 30000 });
      await t.page.fill("#office-name", t.staff.name);
      await t.page.fill("#office-password", t.staff.password);
      await t.page.click("[data-testid=office-signin-submit]");
      await t.page.locator("[data-testid=office-who]").waitFor({ timeout: 30000 });

      // the pools table: the ceiling (none configured here) and the overflow
      const pools = await t.page.locator("[data-testid=office-pools-table] thead").innerText({ timeout: 15000 });
      expect(pools.includes("Ceiling") && pools.includes("Overflow"), `pools headings: ${pools}`);

      // verify the claim, then pay instalment 0 from the page
      await t.page.click(`[data-testid=office-claim-verify-${claim.id}]`);
      await t.page.locator(`[data-testid=office-claim-${claim.id}] tr[data-state=verified]`).waitFor({ timeout: 15000 });
      const before = (await p.call("/api/v1/session")).body.balance_minor;
      await t.page.click(`[data-testid=office-claim-instalments-${claim.id}] summary`);
      await t.page.click(`[data-testid=office-instalment-pay-${claim.id}-0]`);
      const paidRow = t.page.locator(`[data-testid=office-instalments-${claim.id}] tr`, { hasText: `by ${t.staff.name}` });
      await paidRow.waitFor({ timeout: 15000 });
      const after = (await p.call("/api/v1/session")).body.balance_minor;
      const first = claim.instalments[0].amount_minor;
      expect(after - before === first, `the balance rose by ${after - before}, the first instalment is ${first}`);
      await t.shot("claims-1440", "[data-testid=office-claims]");

      // a correction: proposed here, its Approve disabled for the one who proposed it
      await t.page.fill("#office-corr-operator", "demo");
      await t.page.fill("#office-corr-player", String(external));
      await t.page.fill("#office-corr-amount", "250");
      await t.page.fill("#office-corr-reason", "goodwill after a support ticket");
      await t.page.click("[data-testid=office-correction-propose]");
      const proposed = t.page.locator("[data-testid=office-corrections-table] tr[data-state=proposed]");
      await proposed.waitFor({ timeout: 15000 });
      const approve = proposed.locator("button", { hasText: "Approve" });
      expect(await approve.isDisabled(), "the proposer's own Approve button is enabled");
      expect(((await p.call("/api/v1/session")).body.balance_minor) === after, "a proposal moved money");
      await t.shot("corrections-1440", "[data-testid=office-corrections]");

      await t.page.setViewportSize({ width: 390, height: 844 });
      await t.page.waitForTimeout(200);
      const { scroll, width } = await t.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
      expect(scroll <= width, `390x844: the page is ${scroll} px wide (sideways scrolling)`);
      await t.page.locator("[data-testid=office-claims]").scrollIntoViewIfNeeded();
      await t.shot("claims-390");
    },
  },
];
