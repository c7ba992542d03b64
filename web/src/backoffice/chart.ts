// The RTP chart's geometry, pure (the unit tests read it): actual RTP against rounds played,
// one point per UTC day, cumulative; the expected RTP as a line and its band (from the game's
// SD, narrowing as rounds add up) as a shaded funnel. Drawn as inline SVG by reports.ts: no
// chart library, nothing fetched at run time.

export interface SeriesPoint {
  day: string; rounds: number; actual_rtp: number; theoretical_rtp: number | null;
  band: [number, number] | null; inside: boolean | null;
}

export interface ChartGeometry {
  width: number; height: number;
  band: string;              // SVG path of the band's area ("" without a band)
  expected: string;          // SVG path of the expected RTP ("" without a figure)
  actual: string;            // SVG path of the actual RTP
  dots: { x: number; y: number; inside: boolean | null; label: string }[];
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string }[];
}

const PAD = { left: 48, right: 12, top: 10, bottom: 28 };

/** The chart's shapes in a `width` x `height` box: x from 0 rounds to the last point's, y over
 * every value shown (the band's lower end at 0 at most: no game returns less than nothing). */
export function chartGeometry(points: SeriesPoint[], width = 640, height = 260): ChartGeometry {
  // The band as a funnel over the rounds played: at n rounds its half-width is the last
  // point's times sqrt(N / n) (the SD of an RTP falls as one over the root of the rounds, at
  // the stakes played), from N / 16 rounds (4 times as wide) to the N rounds played so far.
  const last = [...points].reverse().find((p) => p.band !== null && p.theoretical_rtp !== null);
  const funnel: { rounds: number; low: number; high: number }[] = [];
  if (last !== undefined) {
    const n = last.rounds, expected = last.theoretical_rtp!, half = last.band![1] - expected;
    const first = n / 16;  // fractions of a round too: the formula holds for any n > 0
    for (let k = 0; k <= 32; k++) {
      const at = first + ((n - first) * k) / 32;
      const wide = half * Math.sqrt(n / at);
      funnel.push({ rounds: at, low: Math.max(0, expected - wide), high: expected + wide });
    }
  }
  const values: number[] = [];
  for (const p of points) {
    values.push(p.actual_rtp);
    if (p.theoretical_rtp !== null) values.push(p.theoretical_rtp);
  }
  for (const f of funnel) values.push(f.low, f.high);
  let low = values.length ? Math.min(...values) : 0;
  let high = values.length ? Math.max(...values) : 1;
  if (high - low < 1e-9) { low -= 0.05; high += 0.05; }
  const span = high - low;
  low = Math.max(Math.min(low, 0), low - span * 0.05); high += span * 0.05;  // no axis below 0% unless a value is
  const maxRounds = Math.max(1, ...points.map((p) => p.rounds));
  const x = (rounds: number) => PAD.left + (rounds / maxRounds) * (width - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - low) / (high - low)) * (height - PAD.top - PAD.bottom);
  const line = (pts: [number, number][]) => pts.map(([a, b], i) => `${i ? "L" : "M"}${a.toFixed(1)},${b.toFixed(1)}`).join(" ");
  const band = funnel.length
    ? line([...funnel.map((f): [number, number] => [x(f.rounds), y(f.high)]),
      ...[...funnel].reverse().map((f): [number, number] => [x(f.rounds), y(f.low)])]) + " Z"
    : "";
  const figured = points.filter((p) => p.theoretical_rtp !== null);
  const first = figured[0];
  const expected = first !== undefined
    ? line([[x(0), y(first.theoretical_rtp!)], ...figured.map((p): [number, number] => [x(p.rounds), y(p.theoretical_rtp!)])])
    : "";
  const actual = line(points.map((p) => [x(p.rounds), y(p.actual_rtp)]));
  const dots = points.map((p) => ({ x: x(p.rounds), y: y(p.actual_rtp), inside: p.inside,
    label: `${p.day}: ${p.rounds} rounds, actual ${(p.actual_rtp * 100).toFixed(2)}%` }));
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const v = low + f * (high - low);
    return { y: y(v), label: `${(v * 100).toFixed(v * 100 >= 1000 ? 0 : 1)}%` };
  });
  const xTicks = [0, 0.5, 1].map((f) => ({ x: x(f * maxRounds), label: String(Math.round(f * maxRounds)) }));
  return { width, height, band, expected, actual, dots, yTicks, xTicks };
}
