import { type DestinationStream, pino, type Logger } from 'pino';

export type { Logger };

// Credentials never reach a log line, wherever a request's headers or a token end up in one: the session cookie,
// a personal API token (its Authorization header, docs/decisions/public-api-and-mcp.md), and any field named token.
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'headers.cookie',
  'headers.authorization',
  'authorization',
  'token',
  '*.token',
];

/** The process's logger; `destination` is stdout unless given (a test keeps the lines). */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  const options = { level, name, base: { service: name }, redact: REDACTED_PATHS };
  return destination ? pino(options, destination) : pino(options);
}
