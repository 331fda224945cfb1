import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { createGoogleStandin, PRESET_IDENTITIES } from './google';

describe('Google sign-in stand-in', () => {
  const clientId = 'standin-test.apps.googleusercontent.com';
  const { app, jwks } = createGoogleStandin({ clientId });

  it('serves the GSI script as JavaScript with the google.accounts.id API', async () => {
    const res = await app.request('http://standin.test/gsi/client');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const source = await res.text();
    expect(source).toContain('"http://standin.test"');
    for (const fn of ['initialize', 'renderButton', 'prompt']) expect(source).toContain(`${fn}: ${fn}`);
    // It must parse as a classic script.
    expect(() => new Function(source)).not.toThrow();
  });

  it('publishes its RS256 key and issues tokens for a picked identity', async () => {
    const certs = await (await app.request('/oauth2/v3/certs')).json();
    expect(certs).toEqual(await jwks());
    expect(certs.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });

    const res = await app.request('/gsi/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://app.test' },
      body: JSON.stringify({ client_id: clientId, name: 'Custom Person', email: 'custom@example.com' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const { credential } = await res.json();
    expect(decodeProtectedHeader(credential)).toMatchObject({ alg: 'RS256', kid: certs.keys[0].kid });
    expect(decodeJwt(credential)).toMatchObject({
      iss: 'https://accounts.google.com',
      aud: clientId,
      email: 'custom@example.com',
      email_verified: true,
      name: 'Custom Person',
    });
  });

  it('refuses an unknown client id and an invalid email, like Google', async () => {
    const post = (body: unknown) =>
      app.request('/gsi/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const wrongClient = await post({ client_id: 'other', email: PRESET_IDENTITIES[0]!.email });
    expect(wrongClient.status).toBe(400);
    expect((await wrongClient.json()).error).toMatch(/client was not found/);
    const badEmail = await post({ client_id: clientId, email: 'not-an-email' });
    expect(badEmail.status).toBe(400);
    expect((await badEmail.json()).error).toMatch(/Enter an email address/);
  });
});
