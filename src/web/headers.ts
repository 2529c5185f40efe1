/**
 * The Content-Security-Policy of every page: scripts, styles and connections only from this service (`'self'`), no
 * inline script or style, no plugin, no framing, forms posting only here. Images may also be `data:` URLs: EIP-6963
 * wallets announce their icon as one. Nothing on a page reaches a third party.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The headers of every HTML page (no caching: each page shows the signed-in wallet and current figures). */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": PAGE_CSP,
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

/** The headers of a bundle file: its name carries a hash of its bytes, so it never changes and may be kept a year. */
export const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";
