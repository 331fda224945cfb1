import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../../core/config';

/**
 * Secure defaults plus what Google sign-in needs: its popup must keep `window.opener`, so COOP is
 * `same-origin-allow-popups`, and the CSP lets its script, iframe and styles load from the GSI origin.
 */
export function securityHeaders(config: Config) {
  const gsi = new URL(config.google.gsiUrl).origin;
  return secureHeaders({
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
      styleSrc: ["'self'", "'unsafe-inline'", gsi],
      imgSrc: ["'self'", 'data:', 'https:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      frameAncestors: ["'none'"],
    },
  });
}
