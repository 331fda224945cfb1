import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandins, type Standins } from '../../dev/standins/server';
import { createGoogleIdTokenVerifier } from './google-id-token';

describe('createGoogleIdTokenVerifier', () => {
  const clientId = 'unit-test.apps.googleusercontent.com';
  let standins: Standins;
  beforeAll(async () => {
    standins = await startStandins({ port: 0, appUrl: 'http://127.0.0.1:1', googleClientId: clientId, stripeWebhookSecret: 'whsec_x' });
  });
  afterAll(() => standins?.close());

  const verifier = () => createGoogleIdTokenVerifier({ clientId, certsUrl: `${standins.url}/oauth2/v3/certs` });

  it('returns the Google identity of a valid token', async () => {
    const token = await standins.google.mintToken({ email: 'ada@example.com', name: 'Ada', picture: 'https://example.com/a.png' });
    expect(await verifier()(token)).toEqual({
      ok: true,
      identity: {
        sub: standins.google.subForEmail('ada@example.com'),
        email: 'ada@example.com',
        name: 'Ada',
        picture: 'https://example.com/a.png',
      },
    });
  });

  it('explains each refusal in a sentence that says what to do', async () => {
    const verify = verifier();
    const now = Math.floor(Date.now() / 1000);
    const cases: [Promise<string>, RegExp][] = [
      [standins.google.mintToken({ aud: 'other' }), /different app/],
      [standins.google.mintToken({ iss: 'https://evil.example' }), /not issued by Google/],
      [standins.google.mintToken({ iat: now - 7200, exp: now - 3600 }), /expired/],
      [standins.google.mintToken({ iat: now + 3600, exp: now + 7200 }), /future/],
      [standins.google.mintToken({}, { forged: true }), /signature/],
      [standins.google.mintToken({ email_verified: 'false' }), /verified email/],
      [standins.google.mintToken({ email: undefined }), /verified email/],
    ];
    for (const [token, message] of cases) {
      const result = await verify(await token);
      expect(result).toEqual({ ok: false, reason: 'invalid', message: expect.stringMatching(message) });
    }
  });

  it('tells a bad token from an unreachable key set', async () => {
    const token = await standins.google.mintToken();
    const offline = createGoogleIdTokenVerifier({ clientId, certsUrl: 'http://127.0.0.1:9/oauth2/v3/certs' });
    expect(await offline(token)).toMatchObject({ ok: false, reason: 'unavailable', message: expect.stringMatching(/try again/) });
    // A malformed token is refused without asking Google at all.
    expect(await offline('nope')).toMatchObject({ ok: false, reason: 'invalid' });
  });
});
