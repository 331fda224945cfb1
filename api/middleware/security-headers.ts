import { createMiddleware } from 'hono/factory';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../../core/config';

// Bull Board's page links Google Fonts (a stylesheet from fonts.googleapis.com whose font files come from
// fonts.gstatic.com). Allowed on the operators' board only; the product's page keeps its own, tighter policy.
const BOARD_STYLE_ORIGIN = 'https://fonts.googleapis.com';
const BOARD_FONT_ORIGIN = 'https://fonts.gstatic.com';

/**
 * Secure defaults plus what Google sign-in needs: its popup must keep `window.opener`, so COOP is
 * `same-origin-allow-popups`, and the CSP lets its script, iframe and styles load from the GSI origin.
 * Under `adminPath` (Bull Board) the CSP also lets the board's web fonts load, and nothing else changes.
 */
export function securityHeaders(config: Config, options: { adminPath: string }) {
  const gsi = new URL(config.google.gsiUrl).origin;
  const headers = (extra: { style: string[]; font: string[] }) =>
    secureHeaders({
      crossOriginOpenerPolicy: 'same-origin-allow-popups',
      // Google's button iframe is cross-origin and does not send CORP headers.
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: 'same-origin',
      referrerPolicy: 'strict-origin-when-cross-origin',
      // HSTS only means something over https; on a plain-http APP_URL (local development) it is left out.
      strictTransportSecurity: config.secureCookies ? 'max-age=15552000; includeSubDomains' : false,
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", gsi],
        connectSrc: ["'self'", gsi],
        frameSrc: ["'self'", gsi],
        styleSrc: ["'self'", "'unsafe-inline'", gsi, ...extra.style],
        ...(extra.font.length ? { fontSrc: ["'self'", ...extra.font] } : {}),
        imgSrc: ["'self'", 'data:', 'https:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
      },
    });
  const app = headers({ style: [], font: [] });
  const board = headers({ style: [BOARD_STYLE_ORIGIN], font: [BOARD_FONT_ORIGIN] });
  const isBoard = (path: string) => path === options.adminPath || path.startsWith(`${options.adminPath}/`);
  return createMiddleware((c, next) => (isBoard(c.req.path) ? board : app)(c, next));
}
