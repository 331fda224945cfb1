import { createMiddleware } from 'hono/factory';
import type { Config } from '../../core/config';
import { type HeaderList, presetHeaders } from './preset-headers';

// Bull Board's page links Google Fonts (a stylesheet from fonts.googleapis.com whose font files come from
// fonts.gstatic.com). Allowed on the operators' board only; the product's page keeps its own, tighter policy.
const BOARD_STYLE_ORIGIN = 'https://fonts.googleapis.com';
const BOARD_FONT_ORIGIN = 'https://fonts.gstatic.com';

/**
 * The security headers of every reply, built once: `app` for the product, `board` under `adminPath` (Bull Board).
 * Secure defaults (the set hono/secure-headers sends) plus what Google sign-in needs: its popup must keep
 * `window.opener`, so COOP is `same-origin-allow-popups`, and the CSP lets its script, iframe and styles load
 * from the GSI origin. Google's button iframe is cross-origin and sends no CORP header, so there is no COEP.
 * Under `adminPath` (Bull Board) the CSP also lets the board's web fonts load, and nothing else changes.
 */
export function securityHeaderLists(config: Config): { app: HeaderList; board: HeaderList } {
  const gsi = new URL(config.google.gsiUrl).origin;
  // Map tiles over https are images like any other; a plain-http tile server (a local one) is named.
  const tiles = config.map && /^http:\/\/[^{}/]+\//.test(config.map.tileUrl) ? ` ${new URL(config.map.tileUrl).origin}` : '';
  const headers = (extra: { style: string[]; font: string[] }): HeaderList => {
    const csp = [
      "default-src 'self'",
      `script-src 'self' ${gsi}`,
      `connect-src 'self' ${gsi}`,
      `frame-src 'self' ${gsi}`,
      ["style-src 'self' 'unsafe-inline'", gsi, ...extra.style].join(' '),
      ...(extra.font.length ? [["font-src 'self'", ...extra.font].join(' ')] : []),
      `img-src 'self' data: https:${tiles}`,
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'none'",
    ].join('; ');
    return [
      ['Content-Security-Policy', csp],
      ['Cross-Origin-Opener-Policy', 'same-origin-allow-popups'],
      ['Cross-Origin-Resource-Policy', 'same-origin'],
      ['Origin-Agent-Cluster', '?1'],
      ['Referrer-Policy', 'strict-origin-when-cross-origin'],
      // HSTS only means something over https; on a plain-http APP_URL (local development) it is left out.
      ...(config.secureCookies ? [['Strict-Transport-Security', 'max-age=15552000; includeSubDomains'] as const] : []),
      ['X-Content-Type-Options', 'nosniff'],
      ['X-DNS-Prefetch-Control', 'off'],
      ['X-Download-Options', 'noopen'],
      ['X-Frame-Options', 'SAMEORIGIN'],
      ['X-Permitted-Cross-Domain-Policies', 'none'],
      ['X-XSS-Protection', '0'],
    ];
  };
  return { app: headers({ style: [], font: [] }), board: headers({ style: [BOARD_STYLE_ORIGIN], font: [BOARD_FONT_ORIGIN] }) };
}

/** Puts the security headers on every reply; each request only copies one of the sets built at start. */
export function securityHeaders(config: Config, options: { adminPath: string }) {
  const { app, board } = securityHeaderLists(config);
  const isBoard = (path: string) => path === options.adminPath || path.startsWith(`${options.adminPath}/`);
  return createMiddleware((c, next) => presetHeaders(c, isBoard(c.req.path) ? board : app, next));
}
