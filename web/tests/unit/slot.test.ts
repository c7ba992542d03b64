import { describe, expect, it } from "vitest";
import { loadOptions, saveOptions, DEFAULT_OPTIONS } from "../../src/core/options";
import { SessionStore } from "../../src/core/session";
import { ReelModel } from "../../src/slot/reel-model";
import { clusterCells, lineCells, waysCells } from "../../src/slot/paylines";
import { fixture } from "./fixtures";
import { memoryStorage } from "./memory-storage";


describe("reel model", () => {
  it("lands exactly on the window it is given, whatever the strip", () => {
    const reel = new ReelModel(["A", "B", "C", "D"], 3);
    reel.start(20);
    for (let i = 0; i < 7; i++) reel.update(0.033);
    reel.land(["X", "Y", "Z"], 5);
    let landed = false;
    for (let i = 0; i < 1000 && !landed; i++) landed = reel.update(0.016);
    expect(landed).toBe(true);
    expect(reel.state).toBe("idle");
    expect(reel.visible()).toEqual(["X", "Y", "Z"]);
    expect(reel.update(1)).toBe(false);
  });
  it("shows a window at once for a resumed round", () => {
    const reel = new ReelModel(["A"], 2);
    reel.show(["Q", "K"]);
    expect(reel.visible()).toEqual(["Q", "K"]);
  });
  it("refuses a window of the wrong height", () => {
    expect(() => new ReelModel(["A"], 3).land(["A"], 1)).toThrow();
  });
});

describe("win cells", () => {
  it("follows a payline from the leftmost reel", () => {
    const lines = fixture("cluedo").info.paylines ?? [];
    expect(lineCells(lines, 4, 3)).toEqual([[0, 0], [1, 1], [2, 2]]);
    expect(() => lineCells(lines, 21, 3)).toThrow();
  });
  it("finds a cluster of the size the server paid, wilds included", () => {
    const grid = [["A", "A", "B"], ["W", "B", "B"], ["A", "B", "C"]];
    // A at (0,0) (0,1) (2,0), joined through the wild at (1,0): one group of 4.
    const found = clusterCells(grid, "A", 4, new Set(["W"]));
    expect(found.length).toBe(1);
    expect(new Set(found[0]?.map(([r, w]) => `${r},${w}`))).toEqual(new Set(["0,0", "0,1", "1,0", "2,0"]));
    expect(clusterCells(grid, "A", 3, new Set(["W"]))).toEqual([]);
  });
  it("covers a ways win's symbol and wilds on its reels from reel 1, nothing beyond", () => {
    const window = [["A", "B", "C"], ["W", "A", "A"], ["B", "C", "A"], ["A", "A", "A"]];
    expect(waysCells(window, "A", 3, new Set(["W"]))).toEqual([[0, 0], [1, 0], [1, 1], [1, 2], [2, 2]]);
  });
});

describe("options and session", () => {
  it("keeps options, refusing unknown stored values per key", () => {
    const m = memoryStorage();
    expect(loadOptions(m)).toEqual(DEFAULT_OPTIONS);
    saveOptions(m, { ...DEFAULT_OPTIONS, quality: "LOW", music: false });
    expect(loadOptions(m)).toMatchObject({ quality: "LOW", music: false, sfx: true });
    m.setItem("reelforge.options", JSON.stringify({ quality: "ULTRA", audio: "yes" }));
    expect(loadOptions(m)).toEqual(DEFAULT_OPTIONS);
    m.setItem("reelforge.options", "{not json");
    expect(loadOptions(m)).toEqual(DEFAULT_OPTIONS);
  });
  it("keeps the session token and the balance of the latest answer", () => {
    const m = memoryStorage();
    const store = new SessionStore(m);
    const jurisdiction = { name: "GB", autoplay: false, turbo: false, min_round_interval_ms: 2500, max_stake_minor: 500, jackpots: true, gamble: true, one_game_at_a_time: true };
    store.applySession("tok", { player: "p", operator: "gb", currency: "GBP", balance_minor: 1000, in_play_minor: 0, open_rounds: [], session: { id: 1, started_at_us: 0, expires_at_us: 0, net_minor: 0 }, jurisdiction, wallet: "ledger", demo: false });
    expect(store.savedToken()).toBe("tok");
    const seen: number[] = [];
    store.subscribe((s) => seen.push(s.balanceMinor));
    store.applyRound({ round_id: "r", status: "outcome_committed", balance_minor: 980 } as never);
    expect(store.state?.openRounds.length).toBe(1);
    store.applyRound({ round_id: "r", status: "closed", balance_minor: 1020 } as never);
    expect(store.state?.openRounds.length).toBe(0);
    expect(seen).toEqual([1000, 980, 1020]);
    store.forget();
    expect(store.savedToken()).toBeNull();
  });
});
