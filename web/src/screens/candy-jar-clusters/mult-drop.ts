// The random multiplier's moment: a large candy badge ("x5") that drops onto the middle of the
// grid with a bounce, holds, and shrinks away toward the panel's badge, which keeps it for the
// spin. A reviewer saw only a small box in the panel and a plain banner: the multiplier is the
// news of the spin, so it lands where the player looks. Like the moments (ui/moment.ts) a tap on
// it or Space ends it early, and turbo plays it in 300 ms; under reduced motion it only fades
// (candy.css).
import { sleep } from "../../core/timing";
import { h } from "../../ui/dom";

/** Shows the badge in `host` (the Candy overlay, which carries the grid's --reels-*) for `ms`
 * (fast: at most 300); resolves when it is gone. */
export async function dropMultiplier(host: HTMLElement, value: number, o: { ms: number; fast?: boolean }): Promise<void> {
  const ms = o.fast ? Math.min(o.ms, 300) : o.ms;
  const badge = h("div", { class: "mult-drop", role: "status", "data-testid": "candy-mult-drop", "data-layout": "over-reels", "data-value": String(value), "data-chars": String(Math.min(5, `x${value}`.length)), style: `--ms:${ms}ms` },
    h("span", { class: "swirl", "aria-hidden": "true" }),
    h("b", {}, `x${value}`),
    h("small", {}, "MULTIPLIER"));
  host.append(badge);
  let end: () => void = () => {};
  const skipped = new Promise<void>((resolve) => { end = resolve; });
  const skip = (e: Event) => {
    if (e instanceof KeyboardEvent && e.code !== "Space" && e.key !== " ") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    end();
  };
  badge.addEventListener("pointerdown", skip);
  document.addEventListener("keydown", skip, true);
  try {
    await Promise.race([sleep(ms), skipped]);
  } finally {
    document.removeEventListener("keydown", skip, true);
    badge.remove();
  }
}
