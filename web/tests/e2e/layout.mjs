// The layout check every screen state an e2e test reaches can run (t.layout): no control or
// message overlaps the reels' window or another control, and no button's words wrap. Runs in
// the page; returns the problems found, in words.
export function layoutProblems() {
  const problems = [];
  const win = document.querySelector("[data-testid=reels-window]");
  const shown = (el) => {
    if (el.closest("[hidden]")) return false;
    const st = getComputedStyle(el);
    if (st.visibility === "hidden" || st.display === "none" || Number(st.opacity) === 0) return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  // What a player reads or presses; a modal dialog (options, intro) is a state of its own.
  const selector = "h1, button, select, input, output, [role=status]:not(:empty), [role=alert]:not(:empty), [data-layout=decoration]";
  const game = document.querySelector("section.game");
  if (!game) return ["no game screen"];
  const items = [...game.querySelectorAll(selector)].filter((el) => shown(el) && !el.closest("[aria-modal=true]") && !el.closest("[data-layout=over-reels]"));
  const name = (el) => {
    const id = el.getAttribute("data-testid") ?? el.getAttribute("aria-label") ?? el.className ?? "";
    return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ""} "${(el.textContent ?? "").trim().slice(0, 30)}"`;
  };
  const overlap = (a, b) => {
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 2 && h > 2;
  };
  const winBox = win && win.getBoundingClientRect().width > 1 ? win.getBoundingClientRect() : null;
  if (!winBox) problems.push("the screen reports no reels window ([data-testid=reels-window])");
  const boxes = items.map((el) => ({ el, box: el.getBoundingClientRect() }));
  for (const { el, box } of boxes) {
    if (winBox && overlap(box, winBox)) problems.push(`${name(el)} overlaps the reels' window`);
    if (el.tagName === "BUTTON") {
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      if (lines > 1) problems.push(`${name(el)}: its words wrap onto ${lines} lines`);
    }
    if (box.right > innerWidth + 1 || box.left < -1) problems.push(`${name(el)} lies outside the page (${Math.round(box.left)}..${Math.round(box.right)} of ${innerWidth})`);
  }
  // A winning line's number drawn on the canvas (a phone's compact badges, render/reels.ts):
  // in the margin beside the window, not over the symbols at its sides (the gallery's reviewer
  // at 390x844). The screen lists them: design px of the reels, the window at 0,0.
  const drawn = game.querySelector("[data-line-badges]")?.dataset.lineBadges;
  if (winBox && drawn) {
    const { width, badges } = JSON.parse(drawn);
    const k = winBox.width / width;
    for (const [line, x, y, r] of badges) {
      const box = { left: winBox.left + (x - r) * k, right: winBox.left + (x + r) * k, top: winBox.top + (y - r) * k, bottom: winBox.top + (y + r) * k };
      if (overlap(box, winBox)) problems.push(`line ${line}'s badge (${Math.round(box.left)}..${Math.round(box.right)}) lies over the reels' window (${Math.round(winBox.left)}..${Math.round(winBox.right)}), on a symbol`);
    }
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
    if (overlap(a.box, b.box)) problems.push(`${name(a.el)} overlaps ${name(b.el)}`);
  }
  return problems;
}

/** Two CSS px rectangles ({x, y, width, height}; null: takes no room) share some area. */
export const rectsOverlap = (a, b) => !!(a && b && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height);

/** The tallest band (CSS px) between the reels' window and the HUD over the console in which the
 * game shows nothing across the reels' width: no decoration of the screen ([data-layout=
 * decoration]: its signs, jars, meters) lies in it. Runs in the page. */
export function emptyUnderReels() {
  const win = document.querySelector("[data-testid=reels-window]")?.getBoundingClientRect();
  const hud = document.querySelector("section.game .hud")?.getBoundingClientRect();
  if (!win || !hud) return null;
  const shown = (el) => {
    if (el.closest("[hidden]")) return false;
    const st = getComputedStyle(el);
    if (st.visibility === "hidden" || st.display === "none" || Number(st.opacity) === 0) return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  const spans = [...document.querySelectorAll("section.game [data-layout=decoration]")]
    .filter((el) => !el.closest(".hud") && shown(el))
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.right > win.left && r.left < win.right && r.bottom > win.bottom && r.top < hud.top)
    .map((r) => [Math.max(win.bottom, r.top), Math.min(hud.top, r.bottom)])
    .sort((a, b) => a[0] - b[0]);
  let at = win.bottom, widest = 0;
  for (const [top, bottom] of spans) {
    widest = Math.max(widest, top - at);
    at = Math.max(at, bottom);
  }
  return { band: Math.max(widest, hud.top - at), reelsBottom: win.bottom, hudTop: hud.top };
}
