// The default replay of a stored round on the history page: the game's reels (its module's
// symbols and view), the round's outcome played by its module's handlers, quickly. A module
// with its own `replay` hook replaces this.
import type { Outcome } from "../../core/outcome";
import { EventPlayer } from "../../core/player";
import { formatCredits } from "../../core/money";
import type { GameView } from "../../net/types";
import { Stage } from "../../render/app";
import type { Quality } from "../../core/options";
import { h } from "../../ui/dom";
import { PixiSlotView } from "./generic";
import { artReady } from "./art";
import { genericHandlers, genericHooks } from "./handlers";
import type { GameModule, SlotView } from "./registry";

export async function genericReplay(host: HTMLElement, module: GameModule | undefined, game: GameView, outcome: Outcome, quality: Quality): Promise<() => void> {
  const overlay = h("div", { style: "position:absolute;inset:0;pointer-events:none" });
  const winOut = h("output", { "data-testid": "replay-win" });
  const info = h("output", {});
  host.append(overlay, h("div", { style: "position:absolute;left:8px;bottom:8px;z-index:1" }, "Win: ", winOut, " ", info));
  const stage = new Stage(host, quality);
  await Promise.all([stage.init(), artReady(module)]);
  host.insertBefore(stage.app.canvas, overlay);
  const deps = {
    stage, game, overlay, symbols: module?.symbols ?? {}, theme: module?.theme,
    setWin: (c: number) => { winOut.textContent = formatCredits(c); },
    setSpinInfo: (t: string) => { info.textContent = t; },
    sound: () => {},
  };
  const view = module?.createView ? module.createView(deps) : new PixiSlotView(deps, { winLabelsUnder: true });
  const player = new EventPlayer<SlotView>((module?.handlers ?? genericHandlers)(game), module?.hooks ?? genericHooks(game));
  let stopped = false;
  void (async () => {
    try {
      view.spinStart();
      const won = await player.play(view, outcome, { fast: true });
      if (!stopped) { deps.setWin(won); host.dataset.replayed = "true"; }
    } catch (exc) {
      if (!stopped) info.textContent = String((exc as Error).message);
    }
  })();
  return () => {
    stopped = true;
    view.destroy();
    stage.destroy();
  };
}

