// TODO(game helper): cops-n-robbers's own screen. Until then the generic rendering: the reels or grid
// from the game file, every outcome event played by genericHandlers, the generic choices.
// Replace symbols (artwork), handlers (per event type), hooks, createView and replay here;
// see web/README.md "Adding a game screen".
import { genericHandlers } from "../game/handlers";
import { registerGame } from "../game/registry";

registerGame({
  key: "cops-n-robbers",
  status: "todo",
  symbols: {},
  handlers: (game) => genericHandlers(game),
});
