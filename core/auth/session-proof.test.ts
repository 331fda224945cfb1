import { describe, expect, it } from 'vitest';
import { hashToken } from '../../db/sessions';
import { proofSessionId, type SessionHeld, sessionProofs } from './session-proof';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
const user = { id: 42, email: 'ada@example.com', name: 'Ada «Lovelace»; =x' };
/** Sessions that exist, as token → user id; what Postgres would answer. */
const sessions = new Map([
  ['token-a', 42],
  ['token-b', 42],
]);
const held: SessionHeld = async (token, userId) => sessions.get(token) === userId;

describe('session proofs', () => {
  const proofs = sessionProofs(SECRET);
  const now = 1_800_000_000_000;

  it('names the user until it expires, for the session token it was issued for only', async () => {
    const proof = proofs.sign(user, 'token-a', now + 60_000);
    expect(proof).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(await proofs.verify(proof, 'token-a', held, now)).toEqual(user);
    expect(await proofs.verify(proof, 'token-a', held, now + 59_999)).toEqual(user);
    expect(await proofs.verify(proof, 'token-a', held, now + 60_000)).toBeNull();
    expect(await proofs.verify(proof, 'token-b', held, now)).toBeNull();
  });

  it('refuses a changed payload, a changed signature, another secret and garbage', async () => {
    const proof = proofs.sign(user, 'token-a', now + 60_000);
    const [payload, signature] = proof.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify([1, user.email, user.name, now + 60_000])).toString('base64url');
    expect(await proofs.verify(`${forged}.${signature}`, 'token-a', held, now)).toBeNull();
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    expect(await proofs.verify(`${payload}.${flipped}`, 'token-a', held, now)).toBeNull();
    expect(await sessionProofs(`${SECRET}-other`).verify(proof, 'token-a', held, now)).toBeNull();
    for (const junk of ['', '.', 'abc', `${payload}.`, `.${signature}`, `${payload}.${signature}.x`]) {
      expect(await proofs.verify(junk, 'token-a', held, now)).toBeNull();
    }
  });

  it('another instance holding the same secret accepts it once the session is seen to exist, and only then', async () => {
    const proof = proofs.sign(user, 'token-a', now + 60_000);
    let asked = 0;
    const counting: SessionHeld = async (token, userId) => {
      asked++;
      return held(token, userId);
    };
    const other = sessionProofs(SECRET);
    expect(await other.verify(proof, 'token-a', counting, now)).toEqual(user);
    expect(await other.verify(proof, 'token-a', counting, now + 1000)).toEqual(user);
    expect(asked).toBe(1);
    // The issuer saw the session when it signed, so it never asks.
    expect(await proofs.verify(proof, 'token-a', async () => false, now)).toEqual(user);
  });

  it('refuses a proof signed with the right secret for a session that does not exist, or is another user’s', async () => {
    // Whoever knows the secret can sign anything; the session it names must still exist, for that user.
    const forger = sessionProofs(SECRET);
    const madeUp = forger.sign({ id: 7, email: 'victim@example.com', name: 'Victim' }, 'made-up-token', now + 60_000);
    expect(await proofs.verify(madeUp, 'made-up-token', held, now)).toBeNull();
    const otherUser = forger.sign({ id: 7, email: 'victim@example.com', name: 'Victim' }, 'token-a', now + 60_000);
    expect(await proofs.verify(otherUser, 'token-a', held, now)).toBeNull();
  });
});

/** A revocation watch driven by hand: what a process's Redis subscription would tell it. */
function handWatch() {
  const listeners: ((ids: readonly string[] | null) => void)[] = [];
  const watch = {
    live: true,
    onRevoked: (listener: (ids: readonly string[] | null) => void) => {
      listeners.push(listener);
    },
    tell: (ids: readonly string[] | null) => {
      for (const listener of listeners) listener(ids);
    },
  };
  return watch;
}

describe('session proofs of ended sessions (docs/decisions/sign-in-and-sessions.md)', () => {
  const now = Date.now();
  const alwaysHeld: SessionHeld = async () => true;
  const countingHeld = () => {
    const calls = { n: 0 };
    const fn: SessionHeld = async () => {
      calls.n++;
      return true;
    };
    return { calls, fn };
  };

  it('refuses a remembered proof once its session is revoked, though Postgres were never asked again', async () => {
    const watch = handWatch();
    const proofs = sessionProofs(SECRET, watch);
    const proof = proofs.sign(user, 'token-a', now + 60_000);
    expect(await proofs.verify(proof, 'token-a', alwaysHeld, now)).toEqual(user);
    watch.tell([proofSessionId(hashToken('token-a'))]);
    expect(await proofs.verify(proof, 'token-a', alwaysHeld, now)).toBeNull();
    // Another session of the same user is untouched.
    const other = proofs.sign(user, 'token-b', now + 60_000);
    expect(await proofs.verify(other, 'token-b', alwaysHeld, now)).toEqual(user);
  });

  it('refuses a proof whose Postgres read raced its revocation, and never remembers it', async () => {
    const watch = handWatch();
    const proofs = sessionProofs(SECRET, watch);
    const proof = sessionProofs(SECRET).sign(user, 'token-a', now + 60_000);
    const racing: SessionHeld = async () => {
      watch.tell([proofSessionId(hashToken('token-a'))]); // the row goes while it is read
      return true;
    };
    expect(await proofs.verify(proof, 'token-a', racing, now)).toBeNull();
    expect(await proofs.verify(proof, 'token-a', alwaysHeld, now)).toBeNull();
  });

  it('trusts no memory while the subscription is down, and forgets all when it comes back', async () => {
    const watch = handWatch();
    const proofs = sessionProofs(SECRET, watch);
    const proof = proofs.sign(user, 'token-a', now + 60_000);
    const held = countingHeld();
    watch.live = false;
    expect(await proofs.verify(proof, 'token-a', held.fn, now)).toEqual(user);
    expect(await proofs.verify(proof, 'token-a', held.fn, now)).toEqual(user);
    expect(held.calls.n).toBe(2); // every request asked Postgres
    watch.tell(null);
    watch.live = true;
    expect(await proofs.verify(proof, 'token-a', held.fn, now)).toEqual(user);
    expect(await proofs.verify(proof, 'token-a', held.fn, now)).toEqual(user);
    expect(held.calls.n).toBe(3); // asked once after catching up, then remembered
  });
});
