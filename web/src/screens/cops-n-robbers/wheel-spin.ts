// The gamble wheels' geometry and the pointer's run: how much of a wheel is drawn green for
// the server's chance, where the pointer stops for the result the server sent, and how it
// slows into that stop. Pure (no DOM): the unit tests check that a won spin always stops on
// green and a lost one on red. The outcome is the server's; these only show it.

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

/** The pointer's final angle in degrees clockwise from the top (the green arc starts at the top
 * and runs clockwise over `shown` of the turn): `turns` full turns, then a point in the middle
 * 70% of the green arc when `won`, of the red arc when not, placed by `u` in [0, 1) (random:
 * the pointer does not stop on the same spot every time). Throws when the drawn wheel has no
 * arc of that colour (the server's result could not be shown on it). */
export function pointerStop(won: boolean, shown: number, u: number, turns = SPIN_TURNS): number {
  const from = won ? 0 : shown * 360, to = won ? shown * 360 : 360;
  if (!(to - from > 0)) throw new Error(`a ${won ? "won" : "lost"} spin cannot stop on a wheel drawn ${(shown * 100).toFixed(2)}% green`);
  if (!(u >= 0 && u < 1)) throw new Error(`pointerStop: u must lie in [0, 1), got ${u}`);
  return turns * 360 + from + (to - from) * (0.15 + 0.7 * u);
}

/** Whether an angle (degrees clockwise from the top) points at the green arc of a wheel drawn
 * `shown` green. */
export function onGreen(angle: number, shown: number): boolean {
  const a = ((angle % 360) + 360) % 360;
  return a < shown * 360;
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
