// The options and settings dialog: graphics quality, all sound on/off, the effects, the music,
// the games' intros (the same setting, in the same words, as the intro card's own box). Changes
// apply at once and are kept (localStorage).
import { QUALITIES, type Options, type OptionsStore } from "../core/options";
import { h } from "./dom";
import { INTRO_SETTING, forgetIntros } from "./intro";

export function openOptions(store: OptionsStore, onClose?: () => void): HTMLElement {
  const o = store.get();
  const quality = h("select", { id: "opt-quality", "data-testid": "opt-quality" });
  for (const q of QUALITIES) quality.append(h("option", { value: q, selected: q === o.quality }, q));
  const box = (key: keyof Options, label: string) => {
    const input = h("input", { type: "checkbox", id: `opt-${key}`, "data-testid": `opt-${key}`, checked: Boolean(o[key]) });
    input.addEventListener("change", () => {
      // the intro switched on again: every game's first-visit card comes back
      if (key === "intro" && input.checked) forgetIntros(localStorage);
      store.set({ [key]: input.checked } as Partial<Options>);
    });
    return h("p", {}, h("label", { for: `opt-${key}` }, input, " ", label));
  };
  quality.addEventListener("change", () => store.set({ quality: quality.value as Options["quality"] }));
  const done = h("button", { "data-testid": "opt-close" }, "Close");
  const overlay = h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-label": "Options", "data-testid": "options" },
    h("div", { class: "dialog" }, h("h2", {}, "Options"),
      h("fieldset", {}, h("legend", {}, "Graphics"), h("label", { for: "opt-quality" }, "Quality "), quality),
      h("fieldset", {}, h("legend", {}, "Settings"), box("audio", "All sound"), box("music", "Music"), box("sfx", "Effects"), box("intro", INTRO_SETTING)),
      done));
  const close = () => { overlay.remove(); onClose?.(); };
  done.addEventListener("click", close);
  overlay.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  document.body.append(overlay);
  quality.focus();
  return overlay;
}
