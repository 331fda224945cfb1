import { pino, type Logger } from 'pino';

export interface CapturedLogs {
  logger: Logger;
  /** Every line logged so far, parsed. */
  lines: Array<{ level: number; msg: string } & Record<string, unknown>>;
  /** The lines at warn level (40) or above. */
  warnings: () => Array<{ level: number; msg: string } & Record<string, unknown>>;
}

/** A pino logger that keeps its lines in memory, for tests that check what an operator would read. */
export function captureLogs(): CapturedLogs {
  const lines: CapturedLogs['lines'] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines, warnings: () => lines.filter((l) => l.level >= 40) };
}
