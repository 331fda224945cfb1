import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { SessionUser } from '../../db/sessions';

/** The cookie beside the session cookie that carries the proof (decision 025). */
export const SESSION_PROOF_COOKIE = 'ef_session_proof';

const SIGNATURE_BYTES = 32;
const MAX_PROOF_LENGTH = 2048;
/** Verified proofs one process remembers (about 300 bytes each). */
const REMEMBERED_PROOFS = 10_000;

interface Verified {
  user: SessionUser;
  /** Epoch ms. */
  expiresAt: number;
}

// Nothing else is ever signed with this secret, but the label keeps a proof from meaning anything elsewhere.
const LABEL = 'ef-session-proof:v1:';

export interface SessionProofs {
  /** The cookie value proving `user` holds the session `token` until `expiresAt` (epoch ms). */
  sign: (user: SessionUser, token: string, expiresAt: number) => string;
  /** The user a proof names, when its signature holds for this session token and it has not expired. */
  verify: (proof: string, token: string, now?: number) => SessionUser | null;
}

/**
 * A session proof: the user and an expiry, signed with HMAC-SHA256 over the session token as well, so a proof
 * only counts next to the session cookie it was issued for, and reveals nothing about that token. Any api
 * process holding the same secret accepts any other's proofs. No session state lives in process memory: a
 * process only remembers which proofs it has already checked, which any process can redo from the proof alone.
 */
export function sessionProofs(secret: string): SessionProofs {
  const key: KeyObject = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (payload: string, token: string) => createHmac('sha256', key).update(`${LABEL}${payload}.${token}`).digest();

  /** The user and expiry of a proof whose signature holds for `token`, or null. */
  function check(proof: string, token: string): Verified | null {
    const dot = proof.lastIndexOf('.');
    if (dot <= 0 || proof.length > MAX_PROOF_LENGTH) return null;
    const payload = proof.slice(0, dot);
    const signature = Buffer.from(proof.slice(dot + 1), 'base64url');
    if (signature.length !== SIGNATURE_BYTES || !timingSafeEqual(signature, mac(payload, token))) return null;
    const [id, email, name, expiresAt] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [number, string, string, number];
    return { user: { id, email, name }, expiresAt };
  }

  // A browser sends the same proof with every request for a minute. What a signature proved never changes, so
  // this process remembers it (bounded, emptied when full) and each later request only compares the expiry.
  const verified = new Map<string, Verified>();

  return {
    sign(user, token, expiresAt) {
      const payload = Buffer.from(JSON.stringify([user.id, user.email, user.name, expiresAt])).toString('base64url');
      return `${payload}.${mac(payload, token).toString('base64url')}`;
    },
    verify(proof, token, now = Date.now()) {
      const key = `${token} ${proof}`;
      let entry = verified.get(key);
      if (!entry) {
        const checked = check(proof, token);
        if (!checked) return null;
        if (verified.size >= REMEMBERED_PROOFS) verified.clear();
        verified.set(key, checked);
        entry = checked;
      }
      return entry.expiresAt > now ? entry.user : null;
    },
  };
}
