// The RTP chart's geometry, pure (the unit tests read it): actual RTP against rounds played,
// the expected RTP as a line and its band (from the game's SD, narrowing as rounds add up) as
// a shaded area. One point per UTC day, cumulative. Drawn as inline SVG by reports.ts: no
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
  const values: number[] = [];
  for (const p of points) {
    values.push(p.actual_rtp);
    if (p.theoretical_rtp !== null) values.push(p.theoretical_rtp);
    if (p.band) values.push(Math.max(0, p.band[0]), p.band[1]);
  }
  let low = values.length ? Math.min(...values) : 0;
  let high = values.length ? Math.max(...values) : 1;
  if (high - low < 1e-9) { low -= 0.05; high += 0.05; }
  const span = high - low;
  low -= span * 0.05; high += span * 0.05;
  const maxRounds = Math.max(1, ...points.map((p) => p.rounds));
  const x = (rounds: number) => PAD.left + (rounds / maxRounds) * (width - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - low) / (high - low)) * (height - PAD.top - PAD.bottom);
  const line = (pts: [number, number][]) => pts.map(([a, b], i) => `${i ? "L" : "M"}${a.toFixed(1)},${b.toFixed(1)}`).join(" ");
  const banded = points.filter((p) => p.band !== null);
  const band = banded.length
    ? line([...banded.map((p): [number, number] => [x(p.rounds), y(p.band![1])]),
      ...[...banded].reverse().map((p): [number, number] => [x(p.rounds), y(Math.max(0, p.band![0]))])]) + " Z"
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
