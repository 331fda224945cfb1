import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** JSON lines to stdout (or `destination`): the format in every environment; `make dev` shows them readably (dev/pretty-logs.ts). */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  const options = { level, name, base: { service: name }, redact: ['req.headers.cookie', 'token'] };
  return destination ? pino(options, destination) : pino(options);
}
