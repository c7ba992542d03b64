// Sound, synthesised in code with WebAudio (no audio files): each game's looping motif and its
// effects (render/sound-themes.ts says which notes and timbres), music and effects switched
// apart by the options (audio is the master switch). Started on the first user gesture, as
// browsers require.
import type { Options } from "../core/options";
import { midiHz, themeFor, type SoundTheme, type Voice } from "./sound-themes";

/** Effects: `stop` takes the reel's index (each reel a step higher); the win tiers follow
 * core/celebration.ts; `feature` a feature's trigger; `gamble` a gamble's card or wheel. */
export type Sfx = "spin" | "stop" | "win" | "bigwin" | "megawin" | "epicwin" | "feature" | "gamble" | "click" | "error";

const LOOKAHEAD_S = 0.3; // how far ahead of the clock the music's notes are scheduled
const TICK_MS = 100;

export class Sound {
  private ctx: AudioContext | null = null;
  private master: GainNode | null = null;
  private musicBus: GainNode | null = null;
  private sfxBus: GainNode | null = null;
  private noise: AudioBuffer | null = null;
  private options: Options;
  private theme: SoundTheme = themeFor(null);
  private timer: ReturnType<typeof setInterval> | undefined;
  private step = 0;
  private nextAt = 0;

  constructor(options: Options, private readonly makeContext: () => AudioContext | null = () => (typeof AudioContext === "undefined" ? null : new AudioContext())) {
    this.options = options;
  }

  /** Call from a user gesture (click, key): creates the audio context. */
  unlock(): void {
    if (this.ctx) return;
    const ctx = this.makeContext();
    if (!ctx) return;
    this.ctx = ctx;
    // Made in this order, master, music, effects: the a11y e2e test tells the buses apart by it.
    this.master = ctx.createGain();
    this.master.connect(ctx.destination);
    this.musicBus = ctx.createGain();
    this.musicBus.gain.value = 0.16;
    this.musicBus.connect(this.master);
    this.sfxBus = ctx.createGain();
    this.sfxBus.gain.value = 0.8;
    this.sfxBus.connect(this.master);
    const n = Math.floor(ctx.sampleRate * 0.5);
    this.noise = ctx.createBuffer(1, n, ctx.sampleRate);
    const data = this.noise.getChannelData(0);
    let seed = 1; // a fixed noise: the same hiss every visit, no random source needed
    for (let i = 0; i < n; i++) { seed = (seed * 16807) % 2147483647; data[i] = seed / 1073741823.5 - 1; }
    this.apply(this.options);
  }

  apply(options: Options): void {
    this.options = options;
    if (!this.ctx || !this.master) return;
    this.master.gain.value = options.audio ? 0.6 : 0;
    if (this.musicOn()) this.startMusic();
    else this.stopMusic();
  }

  /** The game whose music and effects play (null: the lobby's). The loop starts over. */
  setTheme(key: string | null): void {
    const theme = themeFor(key);
    if (theme === this.theme) return;
    this.theme = theme;
    this.stopMusic();
    if (this.musicOn()) this.startMusic();
  }

  get themeName(): string {
    return this.theme.name;
  }

  /** Whether the loop is playing now. */
  get musicPlaying(): boolean {
    return this.timer !== undefined;
  }

  private musicOn(): boolean {
    return !!this.ctx && this.options.audio && this.options.music;
  }

  play(effect: Sfx, detail = 0): void {
    const ctx = this.ctx, out = this.sfxBus;
    if (!ctx || !out || !this.options.audio || !this.options.sfx) return;
    const t = ctx.currentTime;
    const { scale, lead } = this.theme;
    const run = (count: number, gap: number, len: number, vol: number) => {
      for (let i = 0; i < count; i++) this.voice(lead, scale[i % scale.length]! + 12 * Math.floor(i / scale.length), t + i * gap, len, vol, out);
    };
    const chord = (at: number, len: number, vol: number) => {
      for (const i of [0, 2, 4]) this.voice(lead, scale[i]! + 12, t + at, len, vol, out);
    };
    switch (effect) {
      case "spin": this.noiseBurst(t, 0.35, 1800, 0.25, out, 600); this.voice(lead, scale[0]! - 12, t, 0.2, 0.25, out); break;
      case "stop": this.voice(this.theme.stop, scale[Math.min(detail, scale.length - 1)]! - 12, t, 0.18, 0.5, out); break;
      case "click": this.voice("marimba", 96, t, 0.05, 0.25, out); break;
      case "win": run(3, 0.08, 0.3, 0.45); break;
      case "bigwin": run(5, 0.1, 0.5, 0.5); chord(0.55, 1.2, 0.35); break;
      case "megawin": run(7, 0.09, 0.5, 0.5); chord(0.7, 1.6, 0.4); chord(1.3, 1.6, 0.35); break;
      case "epicwin": run(9, 0.08, 0.5, 0.55); for (let k = 0; k < 4; k++) chord(0.8 + k * 0.45, 1.4, 0.4); break;
      case "feature": run(8, 0.05, 0.25, 0.45); chord(0.45, 1.5, 0.45); this.noiseBurst(t + 0.4, 0.8, 5000, 0.2, out); break;
      case "gamble": this.voice(lead, scale[4]!, t, 0.12, 0.4, out); this.voice(lead, scale[3]!, t + 0.14, 0.2, 0.4, out); break;
      case "error": this.voice("bass", 40, t, 0.3, 0.6, out); break;
    }
  }

  /** One note of `voice` at `at` seconds on the context's clock. */
  private voice(voice: Voice, midi: number, at: number, len: number, vol: number, out: AudioNode): void {
    const ctx = this.ctx;
    if (!ctx) return;
    const hz = midiHz(midi);
    const tone = (freq: number, type: OscillatorType, v: number, decay: number, attack = 0.005, through?: AudioNode) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = type;
      osc.frequency.setValueAtTime(freq, at);
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, v), at + attack);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + attack + decay);
      osc.connect(gain).connect(through ?? out);
      osc.start(at);
      osc.stop(at + attack + decay + 0.05);
    };
    switch (voice) {
      case "bass": {
        const lp = ctx.createBiquadFilter();
        lp.type = "lowpass";
        lp.frequency.value = 700;
        lp.connect(out);
        tone(hz, "triangle", vol * 0.7, Math.max(0.25, len), 0.01, lp);
        tone(hz * 2, "sine", vol * 0.15, 0.12, 0.005, lp);
        break;
      }
      case "vibes": tone(hz, "sine", vol * 0.35, Math.max(0.8, len * 1.5)); tone(hz * 4, "sine", vol * 0.06, 0.3); break;
      case "bell": tone(hz, "sine", vol * 0.3, 0.9); tone(hz * 2.76, "sine", vol * 0.12, 0.45); tone(hz * 5.4, "sine", vol * 0.06, 0.2); break;
      case "marimba": tone(hz, "sine", vol * 0.4, Math.min(0.45, len + 0.2), 0.003); tone(hz * 4, "sine", vol * 0.12, 0.06, 0.002); break;
      case "pad": tone(hz, "sine", vol * 0.25, len + 0.8, Math.min(0.6, len / 2)); tone(hz * 1.003, "triangle", vol * 0.08, len + 0.8, Math.min(0.6, len / 2)); break;
      case "brush": this.noiseBurst(at, 0.09, 7000, vol * 0.25, out); break;
      case "sleigh": for (let k = 0; k < 3; k++) this.noiseBurst(at + k * 0.022, 0.05, 9000, vol * 0.3, out, 3500); break;
    }
  }

  /** Filtered noise: a hi-hat's brush, a sleigh bell's shake, a spin's whoosh (with `sweep`, a
   * band-pass falling from `freq` to `sweep` Hz). */
  private noiseBurst(at: number, len: number, freq: number, vol: number, out: AudioNode, sweep?: number): void {
    const ctx = this.ctx;
    if (!ctx || !this.noise) return;
    const src = ctx.createBufferSource();
    src.buffer = this.noise;
    const filter = ctx.createBiquadFilter();
    filter.type = sweep ? "bandpass" : "highpass";
    filter.frequency.setValueAtTime(freq, at);
    if (sweep) filter.frequency.exponentialRampToValueAtTime(sweep, at + len);
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(Math.max(0.0002, vol), at);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + len);
    src.connect(filter).connect(gain).connect(out);
    src.start(at, (at * 7.3) % 0.3);
    src.stop(at + len + 0.02);
  }

  private startMusic(): void {
    if (!this.ctx || this.timer !== undefined) return;
    this.step = 0;
    this.nextAt = this.ctx.currentTime + 0.1;
    this.schedule();
    this.timer = setInterval(() => this.schedule(), TICK_MS);
  }

  /** Schedules the loop's notes due before the clock's lookahead. */
  private schedule(): void {
    const ctx = this.ctx, out = this.musicBus;
    if (!ctx || !out) return;
    const eighth = 30 / this.theme.bpm;
    while (this.nextAt < ctx.currentTime + LOOKAHEAD_S) {
      const at = this.step % this.theme.steps;
      for (const n of this.theme.music) if (n.at === at) this.voice(n.voice, n.midi, this.nextAt, n.len * eighth, n.vol ?? 0.5, out);
      this.step++;
      this.nextAt += eighth;
    }
  }

  private stopMusic(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
