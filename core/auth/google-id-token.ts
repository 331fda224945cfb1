import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { GoogleIdentity } from '../../db/users';

/** Google signs ID tokens with either spelling of its issuer (developers.google.com/identity/gsi/web/guides/verify-google-id-token). */
export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

/**
 * `invalid`: the token itself is unacceptable (the caller answers 401). `unavailable`: Google's keys could not
 * be fetched, so nothing is known about the token (the caller answers 503 and the user may retry).
 */
export type VerifyResult = { ok: true; identity: GoogleIdentity } | { ok: false; reason: 'invalid' | 'unavailable'; message: string };

export type GoogleIdTokenVerifier = (token: unknown) => Promise<VerifyResult>;

const SIGN_IN_AGAIN = 'Please sign in with Google again.';

/**
 * Builds a verifier for one client id. The key set is fetched lazily and cached by jose (it refetches when a
 * token names an unknown `kid`, which is how Google's key rotation shows up).
 */
export function createGoogleIdTokenVerifier(options: { clientId: string; certsUrl: string }): GoogleIdTokenVerifier {
  const jwks = createRemoteJWKSet(new URL(options.certsUrl), { timeoutDuration: 5000 });

  return async (token) => {
    // A JWS compact token is three base64url parts; anything else never reaches the network.
    if (typeof token !== 'string' || token.length > 8192 || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) {
      return invalid(`The sign-in token is missing or malformed. ${SIGN_IN_AGAIN}`);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        algorithms: ['RS256'],
        issuer: GOOGLE_ISSUERS,
        audience: options.clientId,
        requiredClaims: ['exp', 'iat', 'sub'],
        // Google's own libraries allow a few minutes of clock skew between its servers and ours.
        clockTolerance: 60,
        // Google's tokens live one hour; this also refuses an `iat` in the future.
        maxTokenAge: '2h',
      }));
    } catch (err) {
      return describeFailure(err);
    }
    return identityFrom(payload);
  };
}

function identityFrom(payload: JWTPayload): VerifyResult {
  // Google sends a boolean; very old tokens carried the string "true".
  const verified = payload.email_verified === true || payload.email_verified === 'true';
  if (typeof payload.email !== 'string' || payload.email === '' || !verified) {
    return invalid('This Google account has no verified email address. Verify it with Google, then sign in again.');
  }
  if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 255) {
    return invalid(`The sign-in token does not name a Google account. ${SIGN_IN_AGAIN}`);
  }
  return {
    ok: true,
    identity: {
      sub: payload.sub,
      email: payload.email,
      name: typeof payload.name === 'string' ? payload.name : undefined,
      picture: typeof payload.picture === 'string' ? payload.picture : undefined,
    },
  };
}

function describeFailure(err: unknown): VerifyResult {
  if (err instanceof errors.JWTExpired) return invalid(`Your Google sign-in has expired. ${SIGN_IN_AGAIN}`);
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return invalid(`This Google sign-in was made for a different app. ${SIGN_IN_AGAIN}`);
    if (err.claim === 'iss') return invalid(`This sign-in token was not issued by Google. ${SIGN_IN_AGAIN}`);
    if (err.claim === 'iat' && err.reason === 'check_failed') {
      return invalid(`This sign-in token claims to be issued in the future; check your device clock and sign in again.`);
    }
    return invalid(`The sign-in token lacks a valid "${err.claim}" claim. ${SIGN_IN_AGAIN}`);
  }
  if (err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JWKSNoMatchingKey) {
    return invalid(`The sign-in token's signature is not Google's. ${SIGN_IN_AGAIN}`);
  }
  if (
    err instanceof errors.JWSInvalid ||
    err instanceof errors.JWTInvalid ||
    err instanceof errors.JOSEAlgNotAllowed ||
    err instanceof errors.JOSENotSupported ||
    err instanceof errors.JWKInvalid
  ) {
    return invalid(`The sign-in token is malformed. ${SIGN_IN_AGAIN}`);
  }
  // JWKSTimeout, a non-200 or unparsable key set, or a network error: Google's keys are out of reach.
  return {
    ok: false,
    reason: 'unavailable',
    message: 'Google sign-in could not be checked right now because Google did not answer. Please try again in a minute.',
  };
}

function invalid(message: string): VerifyResult {
  return { ok: false, reason: 'invalid', message };
}
