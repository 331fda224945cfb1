import { describe, expect, it } from 'vitest';
import { sessionProofs } from './session-proof';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
const user = { id: 42, email: 'ada@example.com', name: 'Ada «Lovelace»; =x' };

describe('session proofs', () => {
  const proofs = sessionProofs(SECRET);
  const now = 1_800_000_000_000;

  it('names the user until it expires, for the session token it was issued for only', () => {
    const proof = proofs.sign(user, 'token-a', now + 60_000);
    expect(proof).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(proofs.verify(proof, 'token-a', now)).toEqual(user);
    expect(proofs.verify(proof, 'token-a', now + 59_999)).toEqual(user);
    expect(proofs.verify(proof, 'token-a', now + 60_000)).toBeNull();
    expect(proofs.verify(proof, 'token-b', now)).toBeNull();
  });

  it('refuses a changed payload, a changed signature, another secret and garbage', () => {
    const proof = proofs.sign(user, 'token-a', now + 60_000);
    const [payload, signature] = proof.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify([1, user.email, user.name, now + 60_000])).toString('base64url');
    expect(proofs.verify(`${forged}.${signature}`, 'token-a', now)).toBeNull();
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    expect(proofs.verify(`${payload}.${flipped}`, 'token-a', now)).toBeNull();
    expect(sessionProofs(`${SECRET}-other`).verify(proof, 'token-a', now)).toBeNull();
    for (const junk of ['', '.', 'abc', `${payload}.`, `.${signature}`, `${payload}.${signature}.x`]) {
      expect(proofs.verify(junk, 'token-a', now)).toBeNull();
    }
  });

  it('is accepted by another instance holding the same secret (nothing is kept in memory)', () => {
    const proof = proofs.sign(user, 'token-a', now + 60_000);
    expect(sessionProofs(SECRET).verify(proof, 'token-a', now)).toEqual(user);
  });
});
