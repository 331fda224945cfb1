import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../core/logger';
import { pipePrettyLogs } from './pretty-logs';

describe('make dev logs', () => {
  it('turn the JSON lines the api writes into readable lines, and pass other lines through', async () => {
    const child = new PassThrough();
    const terminal = new PassThrough();
    let seen = '';
    terminal.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
    });
    const piped = pipePrettyLogs(child, terminal);

    // The production format is JSON, as the logger writes it.
    const json = new PassThrough();
    let line = '';
    json.on('data', (chunk: Buffer) => {
      line += chunk.toString();
    });
    const log = createLogger('info', 'api', json);
    log.info({ port: 8080 }, 'listening');
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.parse(line)).toMatchObject({ msg: 'listening', port: 8080, service: 'api' });

    child.write(line);
    child.write('tsx watch: restarting\n');
    child.end();
    await piped;
    expect(seen).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO \(api\): listening\n {4}port: 8080\n/);
    expect(seen).toContain('tsx watch: restarting\n');
    expect(seen).not.toContain('{"');
  });
});
