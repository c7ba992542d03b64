// The shared win presentation, anticipation and sound: which celebration a win earns, which
// reels spin on in anticipation, which game sounds like what, and that the music and effects
// switches are obeyed.
import { describe, expect, it, vi } from "vitest";
vi.mock("pixi.js", () => import("./pixi-stub"));
import { celebrationLines, gambleBonusCost, maySound, winTier } from "../../src/core/celebration";
import { DEFAULT_OPTIONS, type Options } from "../../src/core/options";
import { anticipatingReels } from "../../src/render/reels";
import { Sound } from "../../src/render/sound";
import { themeFor } from "../../src/render/sound-themes";
import { anticipationOf } from "../../src/screens/game/generic";
import { fixture } from "./fixtures";

describe("gambleBonusCost", () => {
  it("measures a bonus won at the gamble against the credits given up for it, so 118 for 1,000 staked celebrates nothing", () => {
    // held 1,058, staked 1,000 on the bonus wheel (58 kept), the bonus paid 60: 118 in all
    expect(gambleBonusCost(10, 1058, 118, 60)).toBe(1000);
    expect(winTier(60, gambleBonusCost(10, 1058, 118, 60))).toBeNull();
    // a bonus worth 12x what was gambled still celebrates; never below the round's stake
    expect(winTier(12000, gambleBonusCost(10, 1000, 12000, 12000))).toBe("big");
    expect(gambleBonusCost(10, 4, 40, 40)).toBe(10);
    expect(gambleBonusCost(10, 500, null, 60)).toBe(500);
  });
});

describe("winTier", () => {
  it("names the trigger spin's win and the feature's apart where both paid (the gallery: FREE SPINS TOTAL 417 beside EPIC WIN 2,417)", () => {
    const spin = (kind: "base" | "free" | "bonus", win: number) => ({ kind, win });
    const fmt = (n: number) => n.toLocaleString("en");
    // Cluedo: 2,000 on the trigger spin, 417 over its free spins, 20 a spin
    const cluedo = { total_win: 2417, spins: [spin("base", 2000), spin("free", 0), spin("free", 417)] };
    expect(celebrationLines(cluedo, 20, "€24.17", false, fmt)).toEqual(["€24.17 · 120x the bet", "2,000 on the trigger spin + 417 in free spins"]);
    // Cops: the chase alone paid (the bonus outro's total is the meter's): one line
    const cops = { total_win: 153, spins: [spin("base", 0), spin("bonus", 100), spin("bonus", 53)] };
    expect(celebrationLines(cops, 10, "€1.53", false, fmt)).toEqual(["€1.53 · 15x the bet"]);
    const both = { total_win: 153, spins: [spin("base", 13), spin("bonus", 140)] };
    expect(celebrationLines(both, 10, "€1.53", true, fmt)).toEqual(["€1.53 · 15x what was gambled for it", "13 on the trigger spin + 140 in the bonus"]);
    // a base game win alone, or a capped round whose spins sum past its total: no split
    expect(celebrationLines({ total_win: 500, spins: [spin("base", 500)] }, 20, "€5.00", false, fmt)).toHaveLength(1);
    expect(celebrationLines({ total_win: 1000, spins: [spin("base", 600), spin("free", 900)] }, 20, "€10.00", false, fmt)).toHaveLength(1);
  });

  it("celebrates nothing at or below the cost, tiers at 10x, 30x, 100x", () => {
    expect(winTier(0, 100)).toBeNull();
    expect(winTier(100, 100)).toBeNull(); // a win equal to the cost is no win
    expect(winTier(999, 100)).toBeNull();
    expect(winTier(1000, 100)).toBe("big");
    expect(winTier(2999, 100)).toBe("big");
    expect(winTier(3000, 100)).toBe("mega");
    expect(winTier(10000, 100)).toBe("epic");
  });
  it("never celebrates a round that cost nothing, whatever it won", () => {
    expect(winTier(5000, 0)).toBeNull();
  });
});

describe("maySound (GB RTS 7B: no celebration of a return at or below the stake)", () => {
  const round = (total_win: number, cost: number) => ({ total_win, bet: { cost } });
  it("silences the win jingle of a round that won back its cost or less", () => {
    expect(maySound(true, round(20, 20))).toBe(false); // 20 lines x 1: a line paying 20 is no win
    expect(maySound(true, round(5, 20))).toBe(false); // a "loss disguised as a win"
    expect(maySound(true, round(21, 20))).toBe(true);
  });
  it("never silences a sound that does not celebrate, nor one outside a round", () => {
    expect(maySound(false, round(5, 20))).toBe(true);
    expect(maySound(true, null)).toBe(true);
  });
});

describe("anticipation", () => {
  const S = new Set(["BONUS"]);
  it("spins on the reels after two of three scatters have landed", () => {
    const w = [["A", "BONUS", "K"], ["Q", "J", "A"], ["BONUS", "K", "Q"], ["A", "K", "Q"], ["J", "Q", "K"]];
    expect(anticipatingReels(w, S, 3)).toEqual([false, false, false, true, true]);
  });
  it("does not when the feature is further than one symbol away", () => {
    const w = [["A", "BONUS", "K"], ["Q", "J", "A"], ["A", "K", "Q"], ["A", "K", "Q"], ["BONUS", "Q", "K"]];
    expect(anticipatingReels(w, S, 3)).toEqual([false, false, false, false, false]);
  });
  it("reads the symbols by role and the trigger count from the free games' award", () => {
    const info = { symbols: [{ id: "BONUS", name: "", role: "scatter" }, { id: "GOLD", name: "", role: "bonus" }, { id: "A", name: "", role: "regular" }], free_games: { trigger: "BONUS", award: [[4, 10], [5, 15]] as [number, number][], max_total_spins: 0, multiplier: 1, reel_set: "" } };
    const a = anticipationOf({ info } as never);
    expect([...(a?.symbols ?? [])].sort()).toEqual(["BONUS", "GOLD"]);
    expect(a?.need).toBe(4);
    expect(anticipationOf({ info: { ...info, free_games: undefined } } as never)?.need).toBe(3);
    expect(anticipationOf({ info: { symbols: [{ id: "A", name: "", role: "regular" }] } } as never)).toBeUndefined();
  });
  it("reads the symbols and count a game names as its feature's trigger (hold-and-win's 6 coins)", () => {
    const info = fixture("holdwin-example").info;
    const a = anticipationOf({ info } as never);
    expect([...(a?.symbols ?? [])]).toEqual(["COIN"]);
    expect(a?.need).toBe(6);
  });
});

describe("sound themes", () => {
  it("gives each game its own motif; test games sound like theirs; anything else the lobby's", () => {
    expect(themeFor("cluedo").name).toBe("noir");
    expect(themeFor("cops-n-robbers").name).toBe("jingle");
    expect(themeFor("candy-jar-clusters").name).toBe("marimba");
    expect(themeFor("cluedo-win").name).toBe("noir");
    expect(themeFor(null).name).toBe("pad");
    expect(themeFor("something-else").name).toBe("pad");
    expect(themeFor("cluedo").music.some((n) => n.voice === "bass")).toBe(true);
    expect(themeFor("cops-n-robbers").music.some((n) => n.voice === "sleigh")).toBe(true);
  });
});

/** A stand-in AudioContext that counts the sources started. */
function fakeContext() {
  const started: string[] = [];
  const param = () => ({ value: 0, setValueAtTime() {}, linearRampToValueAtTime() {}, exponentialRampToValueAtTime() {} });
  const node = (kind: string) => {
    const n: Record<string, unknown> = {
      gain: param(), frequency: param(), detune: param(), Q: param(), type: "", buffer: null,
      connect: (next: unknown) => next, disconnect() {}, start: () => started.push(kind), stop() {},
    };
    return n;
  };
  const ctx = {
    currentTime: 0, sampleRate: 8000, destination: node("destination"),
    createGain: () => node("gain"), createOscillator: () => node("osc"), createBiquadFilter: () => node("filter"),
    createBufferSource: () => node("noise"),
    createBuffer: (_c: number, n: number) => { const d = new Float32Array(n); return { getChannelData: () => d }; },
  };
  return { ctx: ctx as unknown as AudioContext, started };
}

describe("Sound", () => {
  const make = (o: Partial<Options>) => {
    const f = fakeContext();
    const s = new Sound({ ...DEFAULT_OPTIONS, ...o }, () => f.ctx);
    s.unlock();
    return { s, f };
  };
  it("plays effects only with audio and sfx on", () => {
    for (const [o, plays] of [[{}, true], [{ sfx: false }, false], [{ audio: false }, false]] as const) {
      const { s, f } = make({ music: false, ...o });
      s.play("spin");
      expect(f.started.length > 0).toBe(plays);
    }
  });
  it("plays the game's loop only with audio and music on, and stops it when music is switched off", () => {
    const { s, f } = make({ sfx: false });
    s.setTheme("cops-n-robbers");
    expect(s.themeName).toBe("jingle");
    expect(s.musicPlaying).toBe(true);
    expect(f.started.length).toBeGreaterThan(0); // the first notes are scheduled at once
    s.apply({ ...DEFAULT_OPTIONS, sfx: false, music: false });
    expect(s.musicPlaying).toBe(false);
    const off = make({ music: false });
    off.s.setTheme("cluedo");
    expect(off.s.musicPlaying).toBe(false);
    expect(off.f.started.length).toBe(0);
    s.apply({ ...DEFAULT_OPTIONS, music: true, audio: false });
    expect(s.musicPlaying).toBe(false);
  });
});

describe("lobby jackpot", () => {
  const meter = (pool: string, currency: string, amount_minor = 1) => ({ pool, currency, amount_minor, seed_minor: 1, contribution_bp: 1, wins: 0, enabled: true, updated_at_us: 0, ceiling_minor: null, overflow_minor: 0 });
  it("finds a game's progressive pool by its currency and title, none for a game without one", async () => {
    const { poolOf } = await import("../../src/screens/lobby/lobby");
    const meters = [meter("Cluedo MegaJackpots/GBP", "GBP"), meter("Cluedo MegaJackpots/EUR", "EUR")];
    expect(poolOf({ title: "Cluedo MegaJackpots", currency: "EUR", jackpot: true } as never, meters)?.currency).toBe("EUR");
    expect(poolOf({ title: "Cluedo MegaJackpots", currency: "EUR", jackpot: false } as never, meters)).toBeUndefined();
    expect(poolOf({ title: "Candy Jar Clusters", currency: "EUR", jackpot: true } as never, meters)).toBeUndefined();
  });
  it("picks the game's own pool by its exact name, as the game screen does, never one that merely starts the same", async () => {
    const { poolOf } = await import("../../src/screens/lobby/lobby");
    const { gamePool } = await import("../../src/core/jackpot-meter");
    // another game whose title starts with this one's, listed first
    const meters = [meter("Cluedo Deluxe/EUR", "EUR", 7), meter("Cluedo/EUR", "EUR", 3)];
    const cluedo = { title: "Cluedo", currency: "EUR", jackpot: true } as never;
    expect(poolOf(cluedo, meters)?.amount_minor).toBe(3);
    expect(poolOf(cluedo, meters)).toBe(gamePool(cluedo, meters));
    // only a pool of a longer name: none is this game's
    expect(poolOf(cluedo, [meter("Cluedo Deluxe/EUR", "EUR", 7)])).toBeUndefined();
  });
});
