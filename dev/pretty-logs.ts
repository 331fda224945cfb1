import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import pretty from 'pino-pretty';

/** The fields of a request's one line (api/middleware/request-log.ts), said in its message instead. */
const REQUEST_FIELDS = ['requestId', 'method', 'path', 'status', 'ms'];

/**
 * An entry as a person reads it in one line: a request as 'GET /api/me 200 3.1 ms' (any other field, such as
 * userId, kept), and an error given as text ({ err: 'timed out' }) after the message, which pino-pretty would put on
 * a line of its own. Anything else as it is.
 */
function forOneLine(entry: Record<string, unknown>): Record<string, unknown> {
  const line: Record<string, unknown> = { ...entry };
  if (line.msg === 'request' && typeof line.method === 'string') {
    line.msg = `${line.method} ${line.path} ${line.status} ${line.ms} ms`;
    for (const field of REQUEST_FIELDS) delete line[field];
  }
  for (const key of ['err', 'error']) {
    if (typeof line[key] !== 'string') continue;
    line.msg = `${line.msg ?? ''}: ${line[key]}`;
    delete line[key];
  }
  return line;
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
    return entry && typeof entry === 'object' && !Array.isArray(entry) ? format(forOneLine(entry as Record<string, unknown>)) : `${line}\n`;
  };
}

/** Copies a child's output to `output` line by line, each JSON log line made readable; settles when it ends. */
export function pipePrettyLogs(input: Readable, output: Writable & { isTTY?: boolean }): Promise<void> {
  const format = prettyLogLine(output.isTTY === true);
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => output.write(format(line)));
  return new Promise((resolve) => lines.once('close', resolve));
}
