import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

describe('the logger', () => {
  it('never writes a bearer token, a session cookie or a field named token', () => {
    const lines: string[] = [];
    const logger = createLogger('info', 'test', { write: (line: string) => void lines.push(line) });
    const token = 'ef_secretApiToken0123456789abcdefghijklmnopqrstu';
    logger.info({ req: { headers: { authorization: `Bearer ${token}`, cookie: 'ef_session=abc' } } }, 'request');
    logger.info({ headers: { authorization: `Bearer ${token}` } }, 'outgoing');
    logger.info({ token, created: { token } }, 'made');
    const written = lines.join('\n');
    expect(written).not.toContain(token);
    expect(written).not.toContain('ef_session=abc');
    expect(written.match(/\[Redacted\]/g)).toHaveLength(5);
  });
});
