import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiFetch, ReplyRefused } from './fetch';

const LIMITS = { replyBytes: 64 * 1024, eventBytes: 4 * 1024 };

describe('the fetch the Gemini client is given', () => {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = () => {};
  const asked: IncomingMessage['headers'][] = [];
  const closed: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.headers);
    res.on('close', () => closed.push(req.url ?? ''));
    handle(req, res);
  });
  let origin = '';
  const limited = geminiFetch(LIMITS);
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the request as given, asks for no content coding, and hands back the reply', async () => {
    handle = (_req, res) => res.writeHead(201, { 'content-type': 'application/json', 'x-one': 'yes' }).end('{"ok":true}');
    const res = await limited(`${origin}/v1beta/models/m:generateContent`, {
      method: 'POST',
      headers: new Headers({ 'x-goog-api-key': 'k' }),
      body: '{}',
    });
    expect(asked.at(-1)).toMatchObject({ 'x-goog-api-key': 'k', 'accept-encoding': 'identity' });
    expect([res.status, res.headers.get('x-one')]).toEqual([201, 'yes']);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('refuses a gzip-encoded reply it did not ask for, without decoding it', async () => {
    handle = (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(1024 * 1024, 'x')));
    await expect(limited(`${origin}/gzip?alt=sse`, { method: 'POST', body: '{}' })).rejects.toThrow(
      new ReplyRefused('a reply encoded as gzip, which was not asked for'),
    );
  });

  it('ends a streamed line past its limit, and lets lines within it through', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${'a'.repeat(3000)}\r\n\r\n`);
      res.write(`data: ${'b'.repeat(3000)}\n\n`);
      // A line that never ends, sent until the reader goes away.
      const more = () => res.write('c'.repeat(1024), () => !res.destroyed && setImmediate(more));
      more();
    };
    const res = await limited(`${origin}/line?alt=sse`, { method: 'POST', body: '{}' });
    const text = res.text();
    await expect(text).rejects.toThrow(new ReplyRefused('a streamed line over 4 KB'));
    await expect.poll(() => closed).toContain('/line?alt=sse');
  });

  it('ends a reply past its byte limit, however its lines end', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const more = () => res.write('data: {}\n\n'.repeat(100), () => !res.destroyed && setImmediate(more));
      more();
    };
    const res = await limited(`${origin}/endless?alt=sse`, { method: 'POST', body: '{}' });
    await expect(res.text()).rejects.toThrow(new ReplyRefused('a reply over 64 KB'));
    await expect.poll(() => closed).toContain('/endless?alt=sse');
  });

  it('ends the reading of a body already received when its signal aborts', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"a":1}\n\n');
    };
    const abort = new AbortController();
    const res = await limited(`${origin}/stalled?alt=sse`, { method: 'POST', body: '{}', signal: abort.signal });
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    const next = reader.read();
    abort.abort(new DOMException('No answer within 10 ms.', 'TimeoutError'));
    await expect(next).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect.poll(() => closed).toContain('/stalled?alt=sse');
  });
});
