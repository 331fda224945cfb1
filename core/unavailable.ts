/** A service the product depends on (Postgres or Redis) cannot be reached; the request may succeed later. */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';
  constructor(
    readonly service: 'postgres' | 'redis',
    options: { cause?: unknown } = {},
  ) {
    super(`${service} is unavailable`, options);
  }
}

// postgres.js reports a refused, dropped or timed-out connection with these codes (its own or the socket's).
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);
// SQLSTATEs of a server that is there but cannot serve: class 08 (connection exception), shutting down or
// starting up (57P01-57P03), out of connection slots (53300).
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;

/**
 * Which dependency an error says is unreachable, or null for any other failure (a bug, bad data). Used at the
 * HTTP boundary to answer 503 'try again' instead of 500 when Postgres is down; Redis callers wrap their own
 * errors in ServiceUnavailableError, since any failure of theirs is an outage.
 */
export function unavailableService(err: unknown): 'postgres' | 'redis' | null {
  if (err instanceof ServiceUnavailableError) return err.service;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  return CONNECTION_CODES.has(code) || UNAVAILABLE_STATES.test(code) ? 'postgres' : null;
}

/** Runs a Redis call; any failure of it becomes a ServiceUnavailableError('redis'). */
export async function viaRedis<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw err instanceof ServiceUnavailableError ? err : new ServiceUnavailableError('redis', { cause: err });
  }
}
