import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import pretty from 'pino-pretty';

/**
 * `make dev` only: the api's and worker's JSON log lines (pino, the production format, unchanged) written for
 * people: '[11:00:00] INFO (api): listening' with the fields below. Lines that are not JSON (tsx watch's own)
 * pass through as they are.
 */
export function prettyLogLine(colorize: boolean): (line: string) => string {
  return pretty.prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' });
}

/** Copies a child's output to `output` line by line, each JSON log line made readable; settles when it ends. */
export function pipePrettyLogs(input: Readable, output: Writable & { isTTY?: boolean }): Promise<void> {
  const format = prettyLogLine(output.isTTY === true);
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => output.write(format(line)));
  return new Promise((resolve) => lines.once('close', resolve));
}
