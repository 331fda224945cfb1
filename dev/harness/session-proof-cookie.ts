import { SESSION_PROOF_COOKIE } from '../../core/auth/session-proof';

/**
 * What a browser sends next: its session cookie and the session proof a reply set (docs/decisions/sign-in-and-sessions.md), or null when
 * the reply set none. Benchmarks and tests send it as a signed-in browser does.
 */
export function withSessionProof(sessionCookie: string, reply: Response): string | null {
  const proof = reply.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_PROOF_COOKIE}=`));
  return proof ? `${sessionCookie.split('; ')[0]}; ${proof.split(';')[0]}` : null;
}
