// Cluedo's bet controls, as the seed describes them: the LINE BET box (credits per line, 1-5)
// and the LINES box (paylines, 1-20), each with a minus and a plus arrow and a value that can
// be dragged between them; BET MAX (5 credits on 20 lines) disabled under 100 credits; the
// TOTAL BET in credits (the seed's meter bar: the view writes the last/current proposition's).
// Only bets the server offers can be chosen (a stake limit removes the others).
import type { GameView } from "../../net/types";
import { h } from "../../ui/dom";
import type { BetControls } from "../game/registry";

const MAX_BET = { lines: 20, bet_per_line: 5 };
const DRAG_PX = 18; // pointer travel per step when dragging a value

function stepper(label: string, testid: string, value: () => number, set: (v: number) => boolean, can: (v: number) => boolean): { el: HTMLElement; update(): void } {
  const minus = h("button", { "aria-label": `${label} down`, "data-testid": `${testid}-minus` }, "−");
  const shown = h("output", { class: "stepper-value", "data-testid": testid, tabindex: 0, role: "spinbutton", "aria-label": label, style: "display:inline-block;min-width:2.5em;text-align:center;cursor:ew-resize;touch-action:none;user-select:none" });
  const plus = h("button", { "aria-label": `${label} up`, "data-testid": `${testid}-plus` }, "+");
  minus.addEventListener("click", () => set(value() - 1));
  plus.addEventListener("click", () => set(value() + 1));
  shown.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft" || e.key === "ArrowDown") { e.preventDefault(); set(value() - 1); }
    if (e.key === "ArrowRight" || e.key === "ArrowUp") { e.preventDefault(); set(value() + 1); }
  });
  // Click and drag between the arrows to select a value.
  let drag: { x: number; from: number } | null = null;
  shown.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, from: value() }; shown.setPointerCapture(e.pointerId); });
  shown.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const target = drag.from + Math.round((e.clientX - drag.x) / DRAG_PX);
    if (target !== value()) set(target);
  });
  const end = () => { drag = null; };
  shown.addEventListener("pointerup", end);
  shown.addEventListener("pointercancel", end);
  const el = h("div", { class: "field", role: "group", "aria-label": label }, h("span", { class: "label" }, label), h("span", {}, minus, shown, plus));
  return {
    el,
    update() {
      shown.textContent = String(value());
      shown.setAttribute("aria-valuenow", String(value()));
      minus.disabled = !can(value() - 1);
      plus.disabled = !can(value() + 1);
    },
  };
}

export function cluedoBetControls(controls: BetControls, _game: GameView): HTMLElement {
  const offered = (lines: number, bpl: number) => controls.bets.some((b) => b.lines === lines && b.bet_per_line === bpl);
  const lineBet = stepper("LINE BET", "line-bet", () => controls.selected().bet_per_line,
    (v) => controls.select({ lines: controls.selected().lines, bet_per_line: v }),
    (v) => controls.enabled() && offered(controls.selected().lines, v));
  const lines = stepper("LINES", "lines", () => controls.selected().lines,
    (v) => controls.select({ lines: v, bet_per_line: controls.selected().bet_per_line }),
    (v) => controls.enabled() && offered(v, controls.selected().bet_per_line));
  const maxStake = MAX_BET.lines * MAX_BET.bet_per_line;
  const betMax = h("button", { "data-testid": "bet-max", title: `${MAX_BET.bet_per_line} credits on each of ${MAX_BET.lines} lines` }, "BET MAX");
  betMax.addEventListener("click", () => controls.select(MAX_BET));
  const update = () => {
    lineBet.update();
    lines.update();
    betMax.disabled = !controls.enabled() || controls.balanceCredits() < maxStake || !offered(MAX_BET.lines, MAX_BET.bet_per_line);
  };
  controls.onChange(update);
  update();
  // under the steppers, where the shell's money total was (cluedo.css): the console stays one row
  const total = h("span", { class: "cluedo-total" }, "TOTAL BET ", h("output", { "data-testid": "meter-bet" }, "—"), " credits");
  return h("div", { class: "cluedo-bet", style: "display:flex;flex-direction:column;align-items:center;gap:2px" },
    h("div", { style: "display:flex;gap:8px;align-items:end;flex-wrap:wrap;justify-content:center" }, lineBet.el, lines.el, betMax), total);
}
