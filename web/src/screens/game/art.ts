// What a game's screen needs before it draws its first frame, wherever it is drawn (the game,
// the history's replays): the bundled faces and the module's SVG art decoded.
import { fontsReady } from "../../render/fonts";
import { loadSymbolArt } from "../../render/symbols";
import type { GameModule } from "./registry";

export function artReady(module: GameModule | undefined): Promise<void> {
  return Promise.all([fontsReady(), loadSymbolArt([module?.symbols ?? {}], module?.theme?.art ?? [])]).then(() => undefined);
}
