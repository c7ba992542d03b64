// The outcome fixtures exported from the server's own round code (tools/export_web_fixtures.py).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { GameInfo } from "../../src/net/types";

export interface FixtureRound { kind: string; seed: number; outcome: Record<string, unknown> }
export interface Fixture { key: string; game_id: string; family: string; info: GameInfo; rounds: FixtureRound[] }

const here = dirname(fileURLToPath(import.meta.url));
export const GAME_KEYS = ["cluedo", "cops-n-robbers", "candy-jar-clusters", "anywhere-example", "holdwin-example", "cluster-mult-example"] as const;

export function fixture(key: string): Fixture {
  return JSON.parse(readFileSync(join(here, "..", "fixtures", `${key}.json`), "utf8")) as Fixture;
}
