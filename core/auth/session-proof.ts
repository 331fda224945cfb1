import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { hashToken, type SessionUser } from '../../db/sessions';

/** The cookie beside the session cookie that carries the proof (decision 025). */
export const SESSION_PROOF_COOKIE = 'ef_session_proof';

const SIGNATURE_BYTES = 32;
const MAX_PROOF_LENGTH = 2048;
/** Verified proofs one process remembers (about 300 bytes each). */
const REMEMBERED_PROOFS = 10_000;
/** Hex characters of the session's hash a proof names (128 bits: enough to name it, short in a cookie). */
const SESSION_HASH_CHARS = 32;

interface Verified {
  user: SessionUser;
  /** Epoch ms. */
  expiresAt: number;
}

// Nothing else is ever signed with this secret, but the label keeps a proof from meaning anything elsewhere.
// v2: the payload names a hash of its session (decision 037); a v1 proof fails its signature and goes to Postgres.
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
 * asks whether the named session exists (decision 037), so a proof forged for a made-up session is refused even
 * by someone who knows the secret. After that, what was proved holds for the proof's lifetime, and each later
 * request only compares the expiry.
 */
export function sessionProofs(secret: string): SessionProofs {
  const key: KeyObject = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (payload: string, token: string) => createHmac('sha256', key).update(`${LABEL}${payload}.${token}`).digest();
  const sessionHash = (token: string) => hashToken(token).slice(0, SESSION_HASH_CHARS);

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
    return { user: { id, email, name }, expiresAt };
  }

  // A browser sends the same proof with every request for a minute. Once its signature and its session were
  // checked, this process remembers it (bounded, emptied when full) and each later request only compares the expiry.
  const verified = new Map<string, Verified>();
  const remember = (key: string, entry: Verified) => {
    if (verified.size >= REMEMBERED_PROOFS) verified.clear();
    verified.set(key, entry);
  };

  return {
    sign(user, token, expiresAt) {
      const payload = Buffer.from(JSON.stringify([user.id, user.email, user.name, expiresAt, sessionHash(token)])).toString('base64url');
      const proof = `${payload}.${mac(payload, token).toString('base64url')}`;
      // Signed right after this process saw the session in Postgres: nothing left to check.
      remember(`${token} ${proof}`, { user, expiresAt });
      return proof;
    },
    async verify(proof, token, held, now = Date.now()) {
      const key = `${token} ${proof}`;
      let entry = verified.get(key);
      if (!entry) {
        const checked = check(proof, token);
        if (!checked || checked.expiresAt <= now || !(await held(token, checked.user.id))) return null;
        remember(key, checked);
        entry = checked;
      }
      return entry.expiresAt > now ? entry.user : null;
    },
  };
}
