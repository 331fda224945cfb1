import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { SessionUser } from '../../db/sessions';

/** The cookie beside the session cookie that carries the proof (decision 025). */
export const SESSION_PROOF_COOKIE = 'ef_session_proof';

const SIGNATURE_BYTES = 32;
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
 * process holding the same secret accepts any other's proofs; nothing about them lives in process memory.
 */
export function sessionProofs(secret: string): SessionProofs {
  const key: KeyObject = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (payload: string, token: string) => createHmac('sha256', key).update(`${LABEL}${payload}.${token}`).digest();

  return {
    sign(user, token, expiresAt) {
      const payload = Buffer.from(JSON.stringify([user.id, user.email, user.name, expiresAt])).toString('base64url');
      return `${payload}.${mac(payload, token).toString('base64url')}`;
    },
    verify(proof, token, now = Date.now()) {
      const dot = proof.lastIndexOf('.');
      if (dot <= 0 || proof.length > 2048) return null;
      const payload = proof.slice(0, dot);
      const signature = Buffer.from(proof.slice(dot + 1), 'base64url');
      if (signature.length !== SIGNATURE_BYTES || !timingSafeEqual(signature, mac(payload, token))) return null;
      const [id, email, name, expiresAt] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [
        number,
        string,
        string,
        number,
      ];
      return expiresAt > now ? { id, email, name } : null;
    },
  };
}
