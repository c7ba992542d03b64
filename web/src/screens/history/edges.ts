// A scrolled list's edges: where it cuts a line (more of it above its top, below its bottom),
// the edge fades (history.css `.account[data-fade]`), so no half line reads as text (the
// gallery's reviewer: "What happened" cut mid-line at its scroll edges). Its lines differ in
// height (headings, wrapped lines), so no one visible height is a whole number of them.

/** Which edges of a list scrolled to `top` (of `scrollHeight`, `clientHeight` shown) have
 * more beyond them, as the list's data-fade says it: "top", "bottom", both, or "". */
export function cutEdges(top: number, clientHeight: number, scrollHeight: number): string {
  const above = top > 0.5;
  const below = top + clientHeight < scrollHeight - 0.5;
  return [above ? "top" : "", below ? "bottom" : ""].filter(Boolean).join(" ");
}

/** Keep `list`'s data-fade up to date as it scrolls or changes size. */
export function fadeEdges(list: HTMLElement): void {
  const mark = () => { list.dataset.fade = cutEdges(list.scrollTop, list.clientHeight, list.scrollHeight); };
  list.addEventListener("scroll", mark, { passive: true });
  new ResizeObserver(mark).observe(list);
  mark();
}

/** The height in CSS px of `list`'s fade (its --fade, in em): a line brought into view is put
 * below it, where it reads at full ink. */
export function fadePx(list: HTMLElement): number {
  const style = getComputedStyle(list);
  return (parseFloat(style.getPropertyValue("--fade")) || 0) * parseFloat(style.fontSize);
}
