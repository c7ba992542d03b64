// A real `reelforge serve` for the end-to-end tests: a fresh SQLite file in a temporary
// folder, a free loopback port, the test operators' config, the built client (web/dist).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, openSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";

const here = dirname(fileURLToPath(import.meta.url));
export const WEB = resolve(here, "..", "..");
export const REPO = resolve(WEB, "..");

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => res(port)); });
    s.on("error", rej);
  });
}

/** Operators for the tests: default rules (EUR), GB rules (GBP). `games` may add
 * test-only game files: [{ operator, key, gameFile }]. */
export function writeConfig(dir, extraGames = []) {
  const key = join(dir, "launch.key");
  writeFileSync(key, randomBytes(32).toString("hex"));
  // demo-lab: the game lab of `make run` (settings.py EXAMPLE_GAMES), the format's example games.
  const shipped = (op) => (op === "demo-lab"
    ? [["ways-example", "ways-example-v1"], ["anywhere-example", "anywhere-example-v1"], ["cluster-mult-example", "cluster-mult-example-v1"], ["modes-example", "modes-example-v1"], ["sticky-example", "sticky-example-v1"], ["sticky-redraw-example", "sticky-redraw-example-v1"]]
    : [["cluedo", "cluedo-v1"], ["cops-n-robbers", "cops-n-robbers-v1"], ["candy-jar-clusters", "candy-jar-clusters-v1"]]);
  const games = (op) => shipped(op).map(([k, id]) => `[[operators.games]]\nkey = "${k}"\ngame_id = "${id}"\n`).join("")
    + extraGames.filter((g) => g.operator === op).map((g) => `[[operators.games]]\nkey = "${g.key}"\ngame_file = "${g.gameFile}"\n${g.choiceTimeoutS ? `choice_timeout_s = ${g.choiceTimeoutS}\n` : ""}`).join("");
  const op = (id, currency, jurisdiction, balance = 100000) => `[[operators]]\nid = "${id}"\ncurrency = "${currency}"\njurisdiction = "${jurisdiction}"\nsecret_file = "${key}"\ndemo_balance_minor = ${balance}\n${games(id)}`;
  const path = join(dir, "operators.toml");
  // poor: 99 credits of 1 cent, under Cluedo's 100-credit BET MAX.
  // Any other operator an extra game names is one more default-rules EUR operator (the gallery
  // keeps its test games out of the lobby it photographs).
  const others = [...new Set(extraGames.map((g) => g.operator))].filter((id) => !["demo", "demo-gb", "poor", "demo-lab"].includes(id));
  writeFileSync(path, [op("demo", "EUR", "default"), op("demo-gb", "GBP", "GB"), op("poor", "EUR", "default", 99), op("demo-lab", "EUR", "default"), ...others.map((id) => op(id, "EUR", "default"))].join("\n"));
  return path;
}

export async function startServer({ extraGames = [], startTimeoutMs = 900_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "reelforge-e2e-"));
  mkdirSync(join(dir, "var"));
  const port = await freePort();
  const config = writeConfig(dir, extraGames);
  // A copy of the build: a `make web` elsewhere in the tree (it empties web/dist first) must not
  // pull the page from under a running test.
  cpSync(join(WEB, "dist"), join(dir, "dist"), { recursive: true });
  const bin = process.env.REELFORGE_BIN ?? join(REPO, ".venv", "bin", "reelforge");
  const log = join(dir, "server.log");
  const out = openSync(log, "a");
  const child = spawn(bin, ["serve", "--port", String(port), "--database-url", `sqlite:///${join(dir, "e2e.db")}`, "--config", config], {
    cwd: dir, stdio: ["ignore", out, out],
    env: { ...process.env, REELFORGE_VAR_DIR: join(dir, "var"), REELFORGE_WEB_DIR: join(dir, "dist") },
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`reelforge serve exited ${child.exitCode}:\n${readFileSync(log, "utf8").slice(-3000)}`);
    try {
      const r = await fetch(`${base}/health`);
      if (r.ok) break;
    } catch { /* not yet listening */ }
    if (Date.now() > deadline) throw new Error(`reelforge serve not ready after ${startTimeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // A back-office manager for the back office's scenarios (`reelforge staff add`, the password
  // on standard input as an operator would pipe it).
  const staff = { name: "e2e-manager", password: randomBytes(12).toString("hex") };
  const added = spawnSync(bin, ["staff", "add", "--role", "manager", "--database-url", `sqlite:///${join(dir, "e2e.db")}`, staff.name], {
    cwd: dir, input: staff.password + "\n", encoding: "utf8", env: process.env,
  });
  if (added.status !== 0) {
    child.kill("SIGTERM");
    throw new Error(`reelforge staff add failed (${added.status}): ${added.stderr}`);
  }
  return {
    base, dir, log, staff,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([new Promise((r) => child.once("exit", r)), new Promise((r) => setTimeout(r, 15000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
