// The information page's table of contents follows the reading: the section being read is
// lit (aria-current). No DOM here: the page measures, this chooses.

/** Where the sections stand in the scroller's view, in px from its top edge. */
export interface SpyView {
  /** Each section's top, in page order. */
  tops: number[];
  /** The view's height. */
  height: number;
  /** Scrolled to the end: the last sections may never reach the reading line. */
  atEnd: boolean;
  /** The section last picked in the table of contents, if any. */
  picked: number | null;
}

/** The section being read: the last one whose top has passed the reading line (a third down
 * the view), the first before any has. At the end of the page the sections that never reach the
 * line are in view together: the one picked in the contents if it is among them, else the last. */
export function currentSection(v: SpyView): number {
  if (!v.tops.length) return -1;
  const line = v.height / 3;
  let current = 0;
  v.tops.forEach((top, i) => { if (top <= line) current = i; });
  if (v.atEnd) {
    const inView = v.tops.map((top, i) => [top, i] as const).filter(([top]) => top >= 0 && top < v.height).map(([, i]) => i);
    if (v.picked !== null && (v.picked === current || inView.includes(v.picked))) return v.picked;
    if (inView.length) return Math.max(current, inView[inView.length - 1] as number);
  }
  return current;
}
