// The intro screen before a game (options: "intro screen"): the game's name and description.
import type { GameView } from "../net/types";
import type { AppContext } from "../screens/context";
import { h } from "./dom";

export function showIntro(game: GameView, app: AppContext): Promise<void> {
  return new Promise((resolve) => {
    const again = h("input", { type: "checkbox", checked: true, id: "intro-again" });
    const go = h("button", { "data-testid": "intro-continue" }, "Continue");
    const overlay = h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-label": `${game.title} intro`, "data-testid": "intro" },
      h("div", { class: "dialog" }, h("h2", {}, game.title), h("p", {}, game.info.description),
        h("p", {}, h("label", { for: "intro-again" }, again, " Show this intro next time")), go));
    const close = () => {
      app.sound.unlock();
      if (!again.checked) app.options.set({ intro: false });
      overlay.remove();
      resolve();
    };
    go.addEventListener("click", close);
    overlay.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
    document.body.append(overlay);
    go.focus();
  });
}
