import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import pretty from 'pino-pretty';

/** The fields of a request's one line (api/middleware/request-log.ts), said in its message instead. */
const REQUEST_FIELDS = ['requestId', 'method', 'path', 'status', 'ms'];

/**
 * A request's line as a person reads it, 'GET /api/me 200 3.1 ms', keeping any other field (userId); other
 * lines as they are.
 */
function shortenRequest(entry: Record<string, unknown>): Record<string, unknown> {
  if (entry.msg !== 'request' || typeof entry.method !== 'string') return entry;
  const short: Record<string, unknown> = { ...entry, msg: `${entry.method} ${entry.path} ${entry.status} ${entry.ms} ms` };
  for (const field of REQUEST_FIELDS) delete short[field];
  return short;
}

/**
 * `make dev` only: the api's and worker's JSON log lines (pino, the production format, unchanged) written for
 * people, one terminal line per log line: '[11:00:00] INFO (api): listening {"port":8080}'. Lines that are not
 * JSON (tsx watch's own) pass through as they are.
 */
export function prettyLogLine(colorize: boolean): (line: string) => string {
  const format = pretty.prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service', singleLine: true });
  return (line) => {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      return `${line}\n`;
    }
    return entry && typeof entry === 'object' && !Array.isArray(entry)
      ? format(shortenRequest(entry as Record<string, unknown>))
      : `${line}\n`;
  };
}

/** Copies a child's output to `output` line by line, each JSON log line made readable; settles when it ends. */
export function pipePrettyLogs(input: Readable, output: Writable & { isTTY?: boolean }): Promise<void> {
  const format = prettyLogLine(output.isTTY === true);
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => output.write(format(line)));
  return new Promise((resolve) => lines.once('close', resolve));
}
