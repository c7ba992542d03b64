// What is displayed is the stored outcome (standards.md A12, GLI-19 4.5.2(c)): the client draws
// no outcome of its own. Its source has two random calls and neither decides anything shown as
// a result: request ids (net/api.ts) and where, inside the arc of the colour the server decided,
// the wheel's pointer comes to rest (cops-n-robbers/wheel.ts, pointerStop(won, ...)).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");
const RANDOM = /Math\.random|getRandomValues|randomUUID|crypto\.subtle/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.ts$/.test(name) ? [path] : [];
  });
}

describe("the client's own randomness", () => {
  it("decides nothing shown: only request ids and the wheel pointer's rest inside the server's result", () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(20);
    const uses = files.flatMap((file) => readFileSync(file, "utf8").split("\n")
      .filter((line) => RANDOM.test(line))
      .map((line) => `${relative(SRC, file).split("\\").join("/")}: ${line.trim()}`)).sort();
    expect(uses).toEqual([
      "net/api.ts: globalThis.crypto.getRandomValues(bytes);",
      "screens/cops-n-robbers/wheel.ts: const stop = pointerStop(won, this.slices, Math.random());",
    ]);
  });
});
