import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWK } from 'jose';

/** The claims of a Google ID token that the app reads; tests override any of them (undefined removes one). */
export interface GoogleTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  email: string;
  email_verified: boolean | string;
  name: string;
  picture: string;
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

export interface MintOptions {
  /** Sign with a key the JWKS does not publish (same `kid`), as a forger would. */
  forged?: boolean;
  /** `none`: an unsigned token; `HS256`: signed with a shared secret instead of Google's RSA key. */
  alg?: 'RS256' | 'HS256' | 'none';
}

export interface TestIdentity {
  name: string;
  email: string;
}

/** The accounts the sign-in chooser offers; any other name and email can be typed in. */
export const PRESET_IDENTITIES: TestIdentity[] = [
  { name: 'Ada Lovelace', email: 'ada@example.com' },
  { name: 'Grace Hopper', email: 'grace@example.com' },
];

/** Google's `sub` is a stable decimal id per account; derive one from the email so the same person returns. */
export function subForEmail(email: string): string {
  const hex = createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16);
  return `1${BigInt(`0x${hex}`).toString().padStart(20, '0')}`;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// The browser half: Google's `google.accounts.id` API over a DOM button and an account chooser dialog.
const CLIENT_SOURCE = readFileSync(new URL('./google-gsi-client.js', import.meta.url), 'utf8');

/**
 * Google sign-in stand-in, same wire protocol as Google: a JWKS at /oauth2/v3/certs, the GSI script at
 * /gsi/client, and /gsi/token, which the script calls to get an ID token for the account a person picked.
 */
export function createGoogleStandin(options: { clientId: string }) {
  const kid = randomBytes(8).toString('hex');
  const signingKey = generateKeyPair('RS256', { extractable: true });
  let forgingKey: ReturnType<typeof generateKeyPair> | null = null;

  /** An ID token as Google would issue it for this client: `claims` override the defaults. */
  async function mintToken(claims: Partial<GoogleTokenClaims> = {}, mint: MintOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const email = typeof claims.email === 'string' ? claims.email : PRESET_IDENTITIES[0]!.email;
    const payload: Record<string, unknown> = {
      iss: 'https://accounts.google.com',
      aud: options.clientId,
      azp: options.clientId,
      sub: subForEmail(email),
      email,
      email_verified: true,
      name: PRESET_IDENTITIES.find((p) => p.email === email)?.name ?? email.split('@')[0],
      iat: now,
      exp: now + 3600,
      ...claims,
    };
    for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
    if (mint.alg === 'none') return new UnsecuredJWT(payload).encode();
    if (mint.alg === 'HS256') {
      return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid, typ: 'JWT' }).sign(randomBytes(32));
    }
    if (mint.forged) forgingKey ??= generateKeyPair('RS256');
    const { privateKey } = await (mint.forged && forgingKey ? forgingKey : signingKey);
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey);
  }

  /** The public key set, as served at /oauth2/v3/certs. */
  async function jwks(): Promise<{ keys: JWK[] }> {
    const jwk = await exportJWK((await signingKey).publicKey);
    return { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] };
  }

  const app = new Hono();

  app.get('/oauth2/v3/certs', async (c) => c.json(await jwks(), 200, { 'Cache-Control': 'public, max-age=3600' }));

  app.get('/gsi/client', (c) => {
    const origin = new URL(c.req.url).origin;
    const script = `(function (STANDIN_ORIGIN, PRESET_IDENTITIES) {\n${CLIENT_SOURCE}\n})(${JSON.stringify(origin)}, ${JSON.stringify(PRESET_IDENTITIES)});\n`;
    return c.body(script, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    });
  });

  // The page calls this from its own origin, as Google's iframe would call accounts.google.com.
  app.use('/gsi/token', cors({ origin: '*', allowMethods: ['POST'], allowHeaders: ['Content-Type'] }));
  app.post('/gsi/token', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { client_id?: unknown; name?: unknown; email?: unknown } | null;
    if (body?.client_id !== options.clientId) {
      return c.json({ error: `The OAuth client was not found: "${String(body?.client_id)}" is not this stand-in's client id.` }, 400);
    }
    const email = typeof body.email === 'string' ? body.email.trim() : '';
    if (!EMAIL.test(email)) return c.json({ error: 'Enter an email address such as you@example.com.' }, 400);
    const name = typeof body.name === 'string' && body.name.trim() ? body.name.trim().slice(0, 100) : email.split('@')[0]!;
    return c.json({ credential: await mintToken({ email, name }) });
  });

  return { app, clientId: options.clientId, mintToken, jwks, subForEmail, identities: PRESET_IDENTITIES };
}

export type GoogleStandin = ReturnType<typeof createGoogleStandin>;
