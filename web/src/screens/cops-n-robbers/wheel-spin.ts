// The gamble wheels' geometry and their run: how much of a wheel is drawn green for the
// server's chance and in which slices, where the wheel comes to rest under its pointer for the
// result the server sent, and how it slows into that stop. Pure (no DOM): the unit tests check
// that a won spin always stops on green and a lost one on red. The outcome is the server's;
// these only show it.

/** The smallest share a wheel draws for either colour (the seed: at its minimum size the true
 * chance of the green may be less than what is shown; red gets the same floor so that a loss
 * always has a red segment to stop on). */
export const MIN_SHARE = 0.04;

/** The green share drawn for the server's exact chance `share` (0..1): none for 0, all for 1,
 * otherwise kept between MIN_SHARE and 1 - MIN_SHARE. */
export function shownShare(share: number): number {
  if (!(share > 0)) return 0;
  if (share >= 1) return 1;
  return Math.min(1 - MIN_SHARE, Math.max(MIN_SHARE, share));
}

/** The pointer's run: full turns before it settles, and how long it takes (ms). The playtest
 * read the result "1.2 s later, no suspense": the run lasts under 3 s, slowing all the way
 * (pointerAngle), a little over 1 s in turbo; the result is written once it stops. */
export const SPIN_TURNS = 4;
export const SPIN_MS = { normal: 2800, fast: 1200 } as const;
/** A tap or Space this soon after the run starts does not end it: the player's own second tap
 * on a wheel (a wheel now spins when tapped) skipped the suspense it was asking for. */
export const SKIP_AFTER_MS = 600;

/** One slice of a drawn wheel: `from`..`to` in fractions of the turn clockwise from the
 * wheel's top, green (the win) or red (the loss), and its `shade` (0 or 1): neighbouring slices
 * of one colour alternate shades, so every slice reads as a slice of a prize wheel. */
export interface Slice { from: number; to: number; green: boolean; shade: 0 | 1 }

/** The slices a wheel is drawn in: 12 (10 where the rarer colour is split five ways). */
export const SLICES = 12;
/** The narrowest slice the rarer colour is split into (a fraction of the turn): a sliver under
 * 10 degrees did not read as a prize on a phone's wheel. */
export const MIN_SLICE = 10 / 360;

/** A prize wheel for a green share `shown` (shownShare's): the green split into equal slices
 * and the red into as many, interleaved green, red, green, red, so the green slices together
 * are exactly `shown` of the turn (the odds stay true: each colour's slices are equal, only
 * their number is the wheel's). The rarer colour is split into as many slices as keep each at
 * least MIN_SLICE wide (at most 6); each of the commoner colour's slices is then split into
 * shades so the wheel has 10 to 12 slices. A wheel of one colour (0 or 1) is 12 shades of it. */
export function wheelSlices(shown: number): Slice[] {
  if (!(shown > 0) || shown >= 1) {
    return Array.from({ length: SLICES }, (_, i) => ({ from: i / SLICES, to: (i + 1) / SLICES, green: shown >= 1, shade: (i % 2) as 0 | 1 }));
  }
  const greenRare = shown <= 0.5;
  const pairs = Math.max(1, Math.min(SLICES / 2, Math.floor((Math.min(shown, 1 - shown) + 1e-12) / MIN_SLICE)));
  const parts = Math.max(1, Math.round((SLICES - pairs) / pairs));
  const out: Slice[] = [];
  for (let p = 0; p < pairs; p++) {
    // each pair's bounds as a fraction of the whole (no drift from summing widths)
    const start = p / pairs, mid = start + shown / pairs, end = (p + 1) / pairs;
    for (const [green, from, to] of [[true, start, mid], [false, mid, end]] as const) {
      const n = green === greenRare ? 1 : parts;
      for (let k = 0; k < n; k++) out.push({ from: from + ((to - from) * k) / n, to: k === n - 1 ? to : from + ((to - from) * (k + 1)) / n, green, shade: (k % 2) as 0 | 1 });
    }
  }
  return out;
}

/** The green share of a drawn wheel (what its green slices add up to). */
export function greenShare(slices: readonly Slice[]): number {
  return slices.reduce((sum, s) => sum + (s.green ? s.to - s.from : 0), 0);
}

/** The wheel's angle (degrees clockwise from its top) that comes to rest under the pointer:
 * `turns` full turns, then a point in the middle 70% of one of the wheel's green slices when
 * `won`, of its red ones when not, the slice and the point placed by `u` in [0, 1) (random: the
 * wheel does not stop on the same spot every time). Throws when the drawn wheel has no slice of
 * that colour (the server's result could not be shown on it). */
export function pointerStop(won: boolean, slices: readonly Slice[], u: number, turns = SPIN_TURNS): number {
  const mine = slices.filter((s) => s.green === won && s.to > s.from);
  if (!mine.length) throw new Error(`a ${won ? "won" : "lost"} spin cannot stop on a wheel drawn ${(greenShare(slices) * 100).toFixed(2)}% green`);
  if (!(u >= 0 && u < 1)) throw new Error(`pointerStop: u must lie in [0, 1), got ${u}`);
  const x = u * mine.length, k = Math.min(mine.length - 1, Math.floor(x));
  const s = mine[k]!;
  return turns * 360 + (s.from + (s.to - s.from) * (0.15 + 0.7 * (x - k))) * 360;
}

/** Whether an angle of the wheel (degrees clockwise from its top) lies on a green slice. */
export function onGreen(angle: number, slices: readonly Slice[]): boolean {
  const a = (((angle % 360) + 360) % 360) / 360;
  return slices.find((s) => a >= s.from && a < s.to)?.green ?? false;
}

/** The wheel turns, the pointer at the top stands still: the clockwise turn (degrees) that
 * brings the wheel's angle `stop` (pointerStop's) under the pointer, after as many full turns. */
export function landingTurn(stop: number): number {
  const a = ((stop % 360) + 360) % 360;
  return Math.floor(stop / 360) * 360 + (360 - a) % 360;
}

/** The wheel's angle under the top pointer once the wheel has turned `turn` degrees clockwise. */
export function underPointer(turn: number): number {
  return (((-turn) % 360) + 360) % 360;
}

/** The pointer's angle at `elapsed` ms of a run of `ms` ms to `end` degrees: fast at first,
 * slowing to a stop (a cubic ease-out: a quartic one had done 85% of its turns at 40% of the
 * run and crept for the rest, read as stopped), exactly `end` from `ms` on. */
export function pointerAngle(end: number, elapsed: number, ms: number): number {
  if (ms <= 0 || elapsed >= ms) return end;
  const t = Math.max(0, elapsed) / ms;
  return end * (1 - (1 - t) ** 3);
}

/** A label's width per character, in ems of its size (the display face's capitals, wide). */
export const LABEL_EM = 0.62;

/** Where a segment's word is drawn on a wheel of radius 100 (the SVG's units) for the arc from
 * `from` to `to` (fractions of the turn clockwise from the top): at the arc's middle, level
 * where the arc is wide enough for a word across it, else along the radius (reading outwards,
 * never upside down), its size what the arc's width leaves. Null for no arc. */
export function segmentLabel(from: number, to: number, chars = 4): { x: number; y: number; rotate: number; size: number } | null {
  const arc = to - from;
  if (!(arc > 0)) return null;
  const mid = (from + to) / 2 * 2 * Math.PI;
  const r = arc >= 0.999 ? 0 : arc >= 0.3 ? 56 : 64;
  const x = r * Math.sin(mid), y = -r * Math.cos(mid);
  // level: as wide as the row of the wheel it stands on allows, inside the rim's lights (92)
  // ("SUPER BONUS" at 22 ran off the wheel on a phone)
  if (arc >= 0.3) return { x, y, rotate: 0, size: Math.min(22, (2 * (Math.sqrt(92 ** 2 - y ** 2) - Math.abs(x))) / (LABEL_EM * chars)) };
  // along the radius: the word's height is what the arc's chord at r leaves
  const deg = (from + to) / 2 * 360 - 90;
  const rotate = deg > 90 ? deg - 180 : deg;
  return { x, y, rotate, size: Math.max(9, Math.min(20, 0.7 * 2 * r * Math.sin(Math.PI * arc))) };
}

/** The hub's radius on a wheel of radius 100 (a slice's word starts outside it). */
export const HUB_R = 24;
/** The least size a slice's word is drawn at (smaller, the slice is left bare). */
export const MIN_LABEL = 8;

/** Where a slice's word goes (segmentLabel's place), its size cut so that a word along the
 * radius fits between the hub and the rim's lights; null where it would be under MIN_LABEL. */
export function sliceLabel(from: number, to: number, chars: number): { x: number; y: number; rotate: number; size: number } | null {
  const at = segmentLabel(from, to, chars);
  if (!at) return null;
  const r = Math.hypot(at.x, at.y);
  const size = to - from >= 0.3 ? at.size : Math.min(at.size, (2 * Math.min(r - HUB_R, 92 - r)) / (LABEL_EM * chars));
  return size >= MIN_LABEL ? { ...at, size } : null;
}
