// What each jar collects and what it does, in the words of the server's information pages (the
// "jars" section: "Yellow candy: collected in the jar marked WILD, for Free Spins with the WILD
// modifier."; "When the jars receive 3 or more candies in one spin, Free Spins start"), so the
// jars on screen explain themselves with the sheet's rules, never the client's. No Pixi.
import type { GameInfo, HelpPart } from "../../net/types";
import { JAR_NAMES, JARS, type Jar } from "./handlers";

export interface JarCaption {
  /** The candy it collects ("Yellow candy"). */
  candy: string;
  /** What it is for ("Free Spins with the WILD modifier"). */
  gives: string;
}

export interface JarRules {
  captions: Map<Jar, JarCaption>;
  /** Candies in one spin that start Free Spins (null: the pages do not say). */
  trigger: number | null;
  /** The pages say the jars are emptied after every spin (the count starts again each spin). */
  emptiedEverySpin: boolean;
}

const textOf = (p: HelpPart): string => (typeof p === "string" ? p : "strong" in p ? p.strong : "");
const COLLECTED = /^(.+?):\s*collected in the jar marked\s*$/i;
const GIVES = /^,?\s*for\s+(.+?)\.?$/i;
const TRIGGER = /receive (\d+) or more candies in one spin/i;
const EMPTIED = /jars are emptied after every spin/i;

/** The captions of the jars the pages describe (a jar they do not describe has none). */
export function jarRules(info: Pick<GameInfo, "help">): JarRules {
  const captions = new Map<Jar, JarCaption>();
  let trigger: number | null = null;
  let emptiedEverySpin = false;
  const section = info.help?.sections.find((s) => s.id === "jars");
  for (const block of section?.blocks ?? []) {
    if (block.kind === "p") {
      const said = block.parts.map(textOf).join("");
      const m = TRIGGER.exec(said);
      if (m) trigger = Number(m[1]);
      if (EMPTIED.test(said)) emptiedEverySpin = true;
    }
    if (block.kind !== "ul") continue;
    for (const item of block.items) {
      const named = item.findIndex((p) => typeof p === "object" && "strong" in p);
      if (named < 1) continue;
      const jar = JARS.find((j) => JAR_NAMES[j] === textOf(item[named]!));
      const candy = COLLECTED.exec(item.slice(0, named).map(textOf).join(""));
      const gives = GIVES.exec(item.slice(named + 1).map(textOf).join("").trim());
      if (jar && candy && gives) captions.set(jar, { candy: candy[1]!.trim(), gives: gives[1]!.trim() });
    }
  }
  return { captions, trigger, emptiedEverySpin };
}

/** The line under the jars: how many candies, of which colours (the jars' captions: "Yellow
 * candy"), start Free Spins in one spin, and that the jars empty after every spin where the
 * pages say so (the counter beside it starts again at 0 each spin), in the sheet's plain words;
 * `short`: a phone's, without the colours (the jars' lids show them), at 12 px in half the width. */
export function triggerLine(rules: JarRules, short = false): string {
  if (short) return `${rules.trigger} or more candies in one spin start FREE SPINS${rules.emptiedEverySpin ? " · jars empty every spin" : ""}`;
  const colours = JARS.flatMap((j) => {
    const m = /^(\w+) candy$/i.exec(rules.captions.get(j)?.candy ?? "");
    return m ? [m[1]!.toLowerCase()] : [];
  });
  const which = colours.length > 1 ? `${colours.slice(0, -1).join(", ")} or ${colours.at(-1)} ` : "";
  return `${rules.trigger} or more ${which}candies in one spin start FREE SPINS${rules.emptiedEverySpin ? " · the jars empty after every spin" : ""}`;
}

const SUPER = /every (\d+) (.+?) symbols? collected awards? a super spin/i;

/** What a SUPER SPIN takes, from the pages ("Every 5 Extra Free Spin symbols collected award a
 * SUPER SPIN"): how many of which symbol; null where they do not say. */
export function superSpinEvery(info: Pick<GameInfo, "help">): { every: number; symbol: string } | null {
  for (const section of info.help?.sections ?? []) {
    for (const block of section.blocks) {
      const texts = block.kind === "ul" ? block.items.map((i) => i.map(textOf).join("")) : "parts" in block ? [block.parts.map(textOf).join("")] : [];
      for (const t of texts) {
        const m = SUPER.exec(t);
        if (m) return { every: Number(m[1]), symbol: m[2]! };
      }
    }
  }
  return null;
}

/** The symbols collected toward the next SUPER SPIN, in words: how many of how many. */
export function extraLine(toward: number, rule: { every: number; symbol: string } | null): string {
  return rule === null ? `SUPER SPIN: ${toward} EXTRA symbols collected toward it` : `SUPER SPIN: ${toward} of ${rule.every} ${rule.symbol} symbols collected`;
}

/** The SUPER SPIN meter: a pip per symbol the rule takes, `lit` of them collected, and the
 * count; where the pages give no rule, the count alone (extraLine says it in words). */
export function extraMeter(toward: number, rule: { every: number; symbol: string } | null): { pips: number; lit: number; count: string } {
  return rule === null ? { pips: 0, lit: 0, count: String(toward) } : { pips: rule.every, lit: Math.min(toward, rule.every), count: `${toward} / ${rule.every}` };
}

/** A candy's place in a jar's glass (art/jar-back.svg, art/jar-front.svg): its centre and
 * diameter in the art's units (a JAR_BOX), and a tilt in degrees so the pile looks tipped in. */
export interface PileSlot { x: number; y: number; d: number; tilt: number }

/** The jar art's box (its viewBox), in its units. */
export const JAR_BOX = { width: 120, height: 124 } as const;
/** The glass's inside where candies lie: its width at the body, its floor, and the neck's
 * bottom, which a full jar's top candy reaches. */
const INSIDE = { left: 12, right: 108, floor: 116, neck: 34 } as const;

/** Where `capacity` candies lie in a jar, bottom row first, as large as the glass lets them:
 * rows of `cols` and `cols - 1` in turn, each candy resting in the hollow between two below it
 * (one column: a stack), the last row's few in its middle. The shipped trigger's 3 fill the
 * glass up to its neck: two on the floor, one on them. */
export function pileSlots(capacity: number): PileSlot[] {
  const n = Math.max(1, Math.floor(capacity));
  const width = INSIDE.right - INSIDE.left, height = INSIDE.floor - INSIDE.neck;
  const layout = (cols: number) => {
    const step = cols > 1 ? Math.sqrt(3) / 2 : 1;
    const rows: number[] = [];
    for (let placed = 0; placed < n; rows.push(Math.min(n - placed, rows.length % 2 && cols > 1 ? cols - 1 : cols)), placed += rows.at(-1)!);
    return { cols, step, rows, d: Math.min(width / cols, height / (1 + step * (rows.length - 1))) };
  };
  let best = layout(1);
  for (let cols = 2; cols <= n; cols++) {
    const next = layout(cols);
    if (next.d > best.d + 1e-9) best = next;
  }
  const { cols, step, rows, d } = best;
  const mid = (INSIDE.left + INSIDE.right) / 2;
  let index = 0;
  return rows.flatMap((k, r) => {
    const full = r % 2 && cols > 1 ? cols - 1 : cols;
    const start = Math.floor((full - k) / 2);
    return Array.from({ length: k }, (_, i) => ({
      x: mid + (start + i - (full - 1) / 2) * d, y: INSIDE.floor - d / 2 - r * step * d, d, tilt: ((index++ * 47) % 60) - 30,
    }));
  });
}

/** What a jar draws for `count` candies collected this spin toward `capacity` (the trigger the
 * pages state): a candy per candy up to it, and full from it on (the count says the rest). */
export function jarFill(count: number, capacity: number): { pieces: number; full: boolean } {
  const cap = Math.max(1, capacity);
  return { pieces: Math.max(0, Math.min(count, cap)), full: count >= cap };
}
