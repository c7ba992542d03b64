// Money is integers end to end: amounts arrive in minor units (cents, pence) or credits, and
// are only ever turned into text here, with integer arithmetic (no float ever holds money).

const DECIMALS: Record<string, number> = { JPY: 0, KRW: 0, ISK: 0, CLP: 0, BHD: 3, KWD: 3, TND: 3 };
const SYMBOLS: Record<string, string> = { EUR: "€", GBP: "£", USD: "$", JPY: "¥", SEK: "kr ", NOK: "kr ", DKK: "kr " };

export class MoneyError extends Error {}

/** The sign a currency is written with ("€", "£", "$"), else its code: the symbol an art
 * drawn in the game's money (Cops' money bag) carries. */
export function currencySymbol(currency: string): string {
  return (SYMBOLS[currency] ?? currency).trim();
}

function checkInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new MoneyError(`${what} = ${value}: not a safe integer`);
}

export function decimalsOf(currency: string): number {
  return DECIMALS[currency] ?? 2;
}

function group(digits: string): string {
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return out;
}

/** 123456 EUR -> "€1,234.56"; -5 GBP -> "-£0.05". */
export function formatMoney(minor: number, currency: string): string {
  checkInteger(minor, "minor units");
  const decimals = decimalsOf(currency);
  const sign = minor < 0 ? "-" : "";
  const digits = String(Math.abs(minor)).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const frac = decimals ? "." + digits.slice(digits.length - decimals) : "";
  const symbol = SYMBOLS[currency];
  return symbol ? `${sign}${symbol}${group(whole)}${frac}` : `${sign}${group(whole)}${frac} ${currency}`;
}

/** Whole credits a balance buys at a denomination (minor units per credit), rounded down. */
export function creditsOf(minor: number, denomination: number): number {
  checkInteger(minor, "minor units");
  checkInteger(denomination, "denomination");
  if (denomination < 1) throw new MoneyError(`denomination = ${denomination}: at least 1`);
  const r = minor % denomination;
  return (minor - r) / denomination - (r < 0 ? 1 : 0);
}

/** Credits at a denomination, in minor units. */
export function minorOf(credits: number, denomination: number): number {
  checkInteger(credits, "credits");
  checkInteger(denomination, "denomination");
  const minor = credits * denomination;
  checkInteger(minor, "credits x denomination");
  return minor;
}

/** 12345 -> "12,345". */
export function formatCredits(credits: number): string {
  checkInteger(credits, "credits");
  return (credits < 0 ? "-" : "") + group(String(Math.abs(credits)));
}

/** A denomination as money: 5 EUR -> "€0.05". */
export function formatDenomination(denomination: number, currency: string): string {
  return formatMoney(denomination, currency);
}

/** An RTP fraction (0.9440882) as "94.41%": display only, never money. */
export function formatPercent(value: number, digits = 2): string {
  return (value * 100).toFixed(digits) + "%";
}

/** The money of credits at a game's denomination and currency; undefined where either is not
 * known (a game shown in credits alone). */
export function creditsMoney(game: { denomination?: number; currency?: string }): ((credits: number) => string) | undefined {
  const { denomination, currency } = game;
  return denomination && currency ? (credits) => formatMoney(credits * denomination, currency) : undefined;
}

/** Credits with their money beside them, as the WIN meter shows a win ("125 (€1.25)"); the
 * credits alone without a `money`. */
export function creditsAndMoney(credits: number, money?: (credits: number) => string): string {
  return money ? `${formatCredits(credits)} (${money(credits)})` : formatCredits(credits);
}
