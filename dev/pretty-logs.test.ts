import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../core/logger';
import { pipePrettyLogs } from './pretty-logs';

/** What the logger writes, as the api's stdout carries it. */
async function jsonLines(write: (log: ReturnType<typeof createLogger>) => void): Promise<string> {
  const json = new PassThrough();
  let lines = '';
  json.on('data', (chunk: Buffer) => {
    lines += chunk.toString();
  });
  write(createLogger('info', 'api', json));
  await new Promise((resolve) => setImmediate(resolve));
  return lines;
}

async function piped(input: string): Promise<string> {
  const child = new PassThrough();
  const terminal = new PassThrough();
  let seen = '';
  terminal.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
  });
  const done = pipePrettyLogs(child, terminal);
  child.end(input);
  await done;
  return seen;
}

describe('make dev logs', () => {
  it('turn each JSON line the api writes into one readable line, and pass other lines through', async () => {
    const json = await jsonLines((log) => log.info({ port: 8080 }, 'listening'));
    expect(JSON.parse(json)).toMatchObject({ msg: 'listening', port: 8080, service: 'api' });

    const seen = await piped(`${json}tsx watch: restarting\n`);
    expect(seen.split('\n')).toEqual([
      expect.stringMatching(/^\[\d{2}:\d{2}:\d{2}\] INFO \(api\): listening \{"port":8080\}$/),
      'tsx watch: restarting',
      '',
    ]);
  });

  it('say a request, and an error given as text, in one line as a person reads them', async () => {
    const json = await jsonLines((log) => {
      log.info({ requestId: 'a1', method: 'GET', path: '/api/me', status: 200, ms: 3.1, userId: 7 }, 'request');
      log.child({ requestId: 'a2' }).warn({ why: 'a test' }, 'something to say');
      log.warn({ model: 'm', err: 'This operation was aborted' }, 'could not check the Gemini model at start');
    });
    expect(json.trim().split('\n')).toHaveLength(3);

    const seen = await piped(json);
    expect(seen.split('\n')).toEqual([
      expect.stringMatching(/^\[\d{2}:\d{2}:\d{2}\] INFO \(api\): GET \/api\/me 200 3\.1 ms \{"userId":7\}$/),
      expect.stringMatching(/^\[\d{2}:\d{2}:\d{2}\] WARN \(api\): something to say \{"requestId":"a2","why":"a test"\}$/),
      expect.stringMatching(
        /^\[\d{2}:\d{2}:\d{2}\] WARN \(api\): could not check the Gemini model at start: This operation was aborted \{"model":"m"\}$/,
      ),
      '',
    ]);
  });
});
