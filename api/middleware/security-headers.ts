import { createMiddleware } from 'hono/factory';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../../core/config';

// Bull Board's page links Google Fonts (a stylesheet from fonts.googleapis.com whose font files come from
// fonts.gstatic.com). Allowed on the operators' board only; the product's page keeps its own, tighter policy.
const BOARD_STYLE_ORIGIN = 'https://fonts.googleapis.com';
const BOARD_FONT_ORIGIN = 'https://fonts.gstatic.com';

/**
 * hono/secure-headers' options for every reply, `app` for the product and `board` under the operators' board:
 * its secure defaults plus what Google sign-in needs. Its popup must keep `window.opener`, so COOP is
 * `same-origin-allow-popups`, and the CSP lets its script, iframe and styles load from the GSI origin. Google's
 * button iframe is cross-origin and sends no CORP header, so there is no COEP. HSTS only means something over
 * https: on a plain-http APP_URL (local development) it is left out.
 */
function securityHeaderOptions(config: Config, extra: { style: string[]; font: string[] }): Parameters<typeof secureHeaders>[0] {
  const gsi = new URL(config.google.gsiUrl).origin;
  // Map tiles over https are images like any other; a plain-http tile server (a local one) is named.
  const tiles = config.map && /^http:\/\/[^{}/]+\//.test(config.map.tileUrl) ? [new URL(config.map.tileUrl).origin] : [];
  return {
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", gsi],
      connectSrc: ["'self'", gsi],
      frameSrc: ["'self'", gsi],
      styleSrc: ["'self'", "'unsafe-inline'", gsi, ...extra.style],
      ...(extra.font.length ? { fontSrc: ["'self'", ...extra.font] } : {}),
      imgSrc: ["'self'", 'data:', 'https:', ...tiles],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      frameAncestors: ["'none'"],
    },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: 'same-origin-allow-popups',
    referrerPolicy: 'strict-origin-when-cross-origin',
    strictTransportSecurity: config.secureCookies,
  };
}

/**
 * Replies whose route sets a stricter header of its own: the search suggestions page its CSP, the unsubscribe
 * page its Referrer-Policy. There a header the reply already has is kept; everywhere else the headers are set
 * outright (hono/secure-headers' default), which spares every reply a look-up per header.
 */
const setsOwnHeaders = (path: string) => path.startsWith('/unsubscribe/') || path.endsWith('/suggestions');

/** Puts the security headers on every reply (hono/secure-headers); the board's under `adminPath`. */
export function securityHeaders(config: Config, options: { adminPath: string }) {
  const appOptions = securityHeaderOptions(config, { style: [], font: [] });
  const app = secureHeaders(appOptions);
  const appKeepingOwn = secureHeaders({ ...appOptions, overwrite: false });
  const board = secureHeaders(securityHeaderOptions(config, { style: [BOARD_STYLE_ORIGIN], font: [BOARD_FONT_ORIGIN] }));
  const isBoard = (path: string) => path === options.adminPath || path.startsWith(`${options.adminPath}/`);
  return createMiddleware((c, next) => {
    const path = c.req.path;
    return (isBoard(path) ? board : setsOwnHeaders(path) ? appKeepingOwn : app)(c, next);
  });
}
