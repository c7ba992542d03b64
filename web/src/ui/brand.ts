// The page's own marks, drawn here as inline SVG (nothing fetched): the reelforge wordmark (a
// three-reel window struck like a forged plate, then the name) and the header's small icons.
// Constant markup from the bundle, never data from a request.

/** The emblem alone: a gold plate with three reel windows, a spark over the middle one. */
const EMBLEM = `<g>
  <rect x="1" y="3" width="34" height="28" rx="7" fill="url(#rf-plate)" stroke="#5a3d00" stroke-width="1.5"/>
  <rect x="5.5" y="8" width="7" height="18" rx="2" fill="#1a0f33"/>
  <rect x="14.5" y="8" width="7" height="18" rx="2" fill="#1a0f33"/>
  <rect x="23.5" y="8" width="7" height="18" rx="2" fill="#1a0f33"/>
  <path d="M5.5 16.2h25" stroke="#ff5a7a" stroke-width="1.6" stroke-linecap="round"/>
  <circle cx="9" cy="16.2" r="2.2" fill="#ffe27a"/><circle cx="18" cy="16.2" r="2.2" fill="#ffe27a"/><circle cx="27" cy="16.2" r="2.2" fill="#ffe27a"/>
  <path d="M18 0.5l1.3 2.6 2.7.4-2 1.8.5 2.7L18 6.7l-2.5 1.3.5-2.7-2-1.8 2.7-.4z" fill="#fff6c8" stroke="#8a6100" stroke-width=".6"/>
</g>`;

const DEFS = `<defs><linearGradient id="rf-plate" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#fff0a8"/><stop offset=".45" stop-color="#e0b23c"/><stop offset="1" stop-color="#9a6a10"/>
</linearGradient><linearGradient id="rf-word" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#fff6c8"/><stop offset=".55" stop-color="#f0c34a"/><stop offset="1" stop-color="#b07a12"/>
</linearGradient></defs>`;

/** The emblem and "reelforge" ("reel" in white, "forge" in gold), 136 x 32 units. */
export const WORDMARK = `<svg viewBox="0 0 136 34" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">${DEFS}${EMBLEM}
  <text x="41" y="25" font-family="'Lilita One', Impact, sans-serif" font-size="22" letter-spacing=".5" paint-order="stroke" stroke="#0d0818" stroke-width="3">
    <tspan fill="#f3ecff">reel</tspan><tspan fill="url(#rf-word)">forge</tspan></text>
</svg>`;

/** 20 x 20 line icons for the header's links, in the text's colour. */
const icon = (body: string) => `<svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;
export const ICONS = {
  lobby: icon('<rect x="2.5" y="2.5" width="6" height="6" rx="1.5"/><rect x="11.5" y="2.5" width="6" height="6" rx="1.5"/><rect x="2.5" y="11.5" width="6" height="6" rx="1.5"/><rect x="11.5" y="11.5" width="6" height="6" rx="1.5"/>'),
  history: icon('<circle cx="10" cy="10" r="7.5"/><path d="M10 5.5V10l3 2"/>'),
  options: icon('<circle cx="10" cy="10" r="2.6"/><path d="M10 1.8v2.4M10 15.8v2.4M1.8 10h2.4M15.8 10h2.4M4.2 4.2l1.7 1.7M14.1 14.1l1.7 1.7M4.2 15.8l1.7-1.7M14.1 5.9l1.7-1.7"/>'),
};
