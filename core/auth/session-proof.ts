import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { hashToken, type SessionUser } from '../../db/sessions';
import type { RevocationWatch } from './session-revocation';

/** The cookie beside the session cookie that carries the proof (docs/decisions/sign-in-and-sessions.md). */
export const SESSION_PROOF_COOKIE = 'ef_session_proof';

const SIGNATURE_BYTES = 32;
const MAX_PROOF_LENGTH = 2048;
/** Verified proofs one process remembers (about 300 bytes each). */
const REMEMBERED_PROOFS = 10_000;
/** Hex characters of the session's hash a proof names (128 bits: enough to name it, short in a cookie). */
const SESSION_HASH_CHARS = 32;
/** How long a revoked session is remembered as such: no proof lives longer (SESSION_PROOF_SECONDS ≤ 600). */
const REVOKED_FOR_MS = 600_000;
/** Revoked sessions one process remembers; past that it forgets every proof rather than one revocation. */
const REMEMBERED_REVOCATIONS = 100_000;

/** The id a proof names its session by: the start of the session's `token_hash` (docs/decisions/sign-in-and-sessions.md). */
export const proofSessionId = (tokenHash: string) => tokenHash.slice(0, SESSION_HASH_CHARS);

interface Verified {
  user: SessionUser;
  /** Epoch ms. */
  expiresAt: number;
  /** The proof session id of the session it was issued for. */
  session: string;
}

// Nothing else is ever signed with this secret, but the label keeps a proof from meaning anything elsewhere.
// v2: the payload names a hash of its session (docs/decisions/sign-in-and-sessions.md); a v1 proof fails its signature and goes to Postgres.
const LABEL = 'ef-session-proof:v2:';

/** Whether the session of this cookie token exists, is unexpired and belongs to this user (one indexed read). */
export type SessionHeld = (token: string, userId: number) => Promise<boolean>;

export interface SessionProofs {
  /** The cookie value proving `user` holds the session `token` until `expiresAt` (epoch ms); remembered as checked. */
  sign: (user: SessionUser, token: string, expiresAt: number) => string;
  /**
   * The user a proof names, when its signature holds for this session token, it has not expired and its
   * session exists: asked once per proof through `held`, then remembered for the proof's lifetime.
   */
  verify: (proof: string, token: string, held: SessionHeld, now?: number) => Promise<SessionUser | null>;
}

/**
 * A session proof: the user, an expiry and (a hash of) the session it was issued for, signed with HMAC-SHA256
 * over the session token as well, so a proof only counts next to the session cookie it was issued for. A proof
 * alone never creates a signed-in user: the first time a process meets a proof it has not signed itself, it
 * asks whether the named session exists (docs/decisions/sign-in-and-sessions.md), so a proof forged for a made-up session is refused even
 * by someone who knows the secret. After that, what was proved holds for the proof's lifetime, and each later
 * request only compares the expiry.
 */
export function sessionProofs(secret: string, revocations?: RevocationWatch): SessionProofs {
  const key: KeyObject = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (payload: string, token: string) => createHmac('sha256', key).update(`${LABEL}${payload}.${token}`).digest();
  const sessionHash = (token: string) => proofSessionId(hashToken(token));

  /** The user and expiry of a proof whose signature holds for `token` and which names that token's session, or null. */
  function check(proof: string, token: string): Verified | null {
    const dot = proof.lastIndexOf('.');
    if (dot <= 0 || proof.length > MAX_PROOF_LENGTH) return null;
    const payload = proof.slice(0, dot);
    const signature = Buffer.from(proof.slice(dot + 1), 'base64url');
    if (signature.length !== SIGNATURE_BYTES || !timingSafeEqual(signature, mac(payload, token))) return null;
    const [id, email, name, expiresAt, session] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [
      number,
      string,
      string,
      number,
      string,
    ];
    if (session !== sessionHash(token)) return null;
    return { user: { id, email, name }, expiresAt, session };
  }

  // A browser sends the same proof with every request for a minute. Once its signature and its session were
  // checked, this process remembers it (bounded, emptied when full) and each later request only compares the expiry.
  const verified = new Map<string, Verified>();
  // Sessions ended anywhere, by proof session id → when this process heard (docs/decisions/sign-in-and-sessions.md). Kept for a proof's
  // longest life, so a proof remembered just before (its Postgres read racing the deletion) is refused too.
  const revoked = new Map<string, number>();
  // Without a watch (a lone process) every revocation is this process's own, so memory is always trusted.
  const trusted = () => revocations?.live ?? true;
  revocations?.onRevoked((ids) => {
    if (ids === null) {
      verified.clear();
      return;
    }
    const now = Date.now();
    for (const [id, at] of revoked) {
      if (at > now - REVOKED_FOR_MS && revoked.size < REMEMBERED_REVOCATIONS) break;
      revoked.delete(id);
      if (at > now - REVOKED_FOR_MS) verified.clear(); // dropped one still young: no remembered proof may outlive it
    }
    for (const id of ids) {
      revoked.delete(id); // re-inserted at the end, so the map stays in the order heard
      revoked.set(id, now);
    }
  });
  const remember = (key: string, entry: Verified) => {
    if (!trusted() || revoked.has(entry.session)) return;
    if (verified.size >= REMEMBERED_PROOFS) verified.clear();
    verified.set(key, entry);
  };

  // A proof checked before: its expiry and its session's revocation are all that can change. Its user while it
  // holds, null once it expired or its session ended, undefined when it was never checked here.
  function known(proof: string, token: string, now = Date.now()): SessionUser | null | undefined {
    const key = `${token} ${proof}`;
    const entry = trusted() ? verified.get(key) : undefined;
    if (!entry) return undefined;
    if (revoked.has(entry.session)) {
      verified.delete(key);
      return null;
    }
    return entry.expiresAt > now ? entry.user : null;
  }

  return {
    sign(user, token, expiresAt) {
      const session = sessionHash(token);
      const payload = Buffer.from(JSON.stringify([user.id, user.email, user.name, expiresAt, session])).toString('base64url');
      const proof = `${payload}.${mac(payload, token).toString('base64url')}`;
      // Signed right after this process saw the session in Postgres: nothing left to check.
      remember(`${token} ${proof}`, { user, expiresAt, session });
      return proof;
    },
    async verify(proof, token, held, now = Date.now()) {
      const already = known(proof, token, now);
      if (already !== undefined) return already;
      const checked = check(proof, token);
      if (!checked || checked.expiresAt <= now || revoked.has(checked.session) || !(await held(token, checked.user.id))) return null;
      // Ended while Postgres was read: the read may have seen the row just before it went.
      if (revoked.has(checked.session)) return null;
      remember(`${token} ${proof}`, checked);
      return checked.expiresAt > now ? checked.user : null;
    },
  };
}
