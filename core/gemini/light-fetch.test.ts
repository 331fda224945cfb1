import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/harness/processes';
import { geminiConnections } from './connections';
import { lightFetchOver } from './light-fetch';
import { GatedDispatcher, sentWhen } from './send-gate';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('the fetch the Gemini client is given', () => {
  let handle: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void = () => {};
  const seen: Seen[] = [];
  const closed: string[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const one = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
    seen.push(one);
    res.on('close', () => closed.push(one.url));
    handle(req, res, one);
  });
  let origin = '';
  const agent = geminiConnections();
  const lightFetch = lightFetchOver(agent);
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await agent.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the method, path, headers and body, and hands back the status, headers and body', async () => {
    handle = (_req, res) => {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-one': 'yes' }).end('{"ok":true}');
    };
    const res = await lightFetch(`${origin}/v1beta/models/m:generateContent?alt=sse`, {
      method: 'POST',
      headers: new Headers({ 'Content-Type': 'application/json', 'x-goog-api-key': 'k' }),
      body: '{"contents":[]}',
    });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/v1beta/models/m:generateContent?alt=sse', body: '{"contents":[]}' });
    expect(seen.at(-1)!.headers).toMatchObject({ 'content-type': 'application/json', 'x-goog-api-key': 'k' });
    expect([res.ok, res.status, res.statusText]).toEqual([true, 201, 'Made']);
    expect(res.headers.get('x-one')).toBe('yes');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('takes headers as a plain object or pairs, and reads a refusal as JSON', async () => {
    handle = (_req, res) => res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"code":429}}');
    const res = await lightFetch(`${origin}/busy`, { method: 'POST', headers: { 'X-Goog-Api-Key': 'k' }, body: '{}' });
    expect([res.ok, res.status]).toEqual([false, 429]);
    expect(await res.json()).toEqual({ error: { code: 429 } });
    await lightFetch(`${origin}/pairs`, { headers: [['x-pair', 'p']] }).then((r) => r.text());
    expect(seen.at(-1)!.headers['x-pair']).toBe('p');
  });

  it('streams the body as it arrives: the first piece is read before the server writes the second', async () => {
    let writeSecond!: () => void;
    const secondAsked = new Promise<void>((resolve) => (writeSecond = resolve));
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      void secondAsked.then(() => res.end('data: two\n\n'));
    };
    const res = await lightFetch(`${origin}/stream`, { method: 'POST', body: '{}' });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe('data: one\n\n');
    writeSecond();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += decoder.decode(r.value);
    expect(rest).toBe('data: two\n\n');
  });

  it('decodes a gzip body a server sends unasked', async () => {
    handle = (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"text":"gezippt"}'));
    const res = await lightFetch(`${origin}/gzip`);
    expect(seen.at(-1)!.headers['accept-encoding']).toBeUndefined();
    expect(await res.json()).toEqual({ text: 'gezippt' });
  });

  it('rejects a request nobody answers with "fetch failed", as fetch does, its cause beside it', async () => {
    const err = await lightFetch(`http://127.0.0.1:${await freePort()}/`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).message).toBe('fetch failed');
    expect(((err as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it("rejects with the signal's reason when aborted before the reply, and the server sees the request go", async () => {
    let arrived!: () => void;
    const waiting = new Promise<void>((resolve) => (arrived = resolve));
    handle = () => arrived(); // never answers
    const abort = new AbortController();
    const pending = lightFetch(`${origin}/never`, { method: 'POST', body: '{}', signal: abort.signal }).catch((e: unknown) => e);
    await waiting;
    const reason = new DOMException('gone', 'AbortError');
    abort.abort(reason);
    expect(await pending).toBe(reason);
    await expect.poll(() => closed.includes('/never')).toBe(true);
    // Already aborted: nothing is sent.
    const before = seen.length;
    expect(await lightFetch(`${origin}/not-sent`, { signal: abort.signal }).catch((e: unknown) => e)).toBe(reason);
    expect(seen.length).toBe(before);
  });

  it('rejects at once when aborted while it waits at a send gate, and never leaves when the gate then opens', async () => {
    const gated = lightFetchOver(new GatedDispatcher(agent));
    let open!: (send: boolean) => void;
    const gate = new Promise<boolean>((resolve) => (open = resolve));
    const abort = new AbortController();
    const waiting = sentWhen(gate, () => gated(`${origin}/gated`, { method: 'POST', body: '{}', signal: abort.signal }));
    const reason = new DOMException('cancelled', 'AbortError');
    abort.abort(reason);
    expect(await waiting.catch((e: unknown) => e)).toBe(reason);
    // What undici writes to a connection, seen as it writes it.
    const written: string[] = [];
    const onWrite = (message: unknown) => written.push((message as { request: { path: string } }).request.path);
    subscribe('undici:client:sendHeaders', onWrite);
    open(true);
    handle = (_req, res) => res.writeHead(200).end('ok');
    // The gate opened before this later request was made: an aborted request sent anyway is written by the
    // time the later one is answered.
    expect(await (await gated(`${origin}/after-gate`)).text()).toBe('ok');
    unsubscribe('undici:client:sendHeaders', onWrite);
    expect(written).toEqual(['/after-gate']);
  });

  it("ends the body with the signal's reason when aborted while it streams", async () => {
    handle = (_req, res) => {
      res.writeHead(200);
      res.write('data: one\n\n');
    };
    const abort = new AbortController();
    const res = await lightFetch(`${origin}/half`, { signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    const reason = new DOMException('deadline', 'TimeoutError');
    abort.abort(reason);
    expect(await reader.read().catch((e: unknown) => e)).toBe(reason);
  });

  it('sends any other body through the global fetch on the same connections', async () => {
    handle = (_req, res) => res.writeHead(200).end('ok');
    const res = await lightFetch(`${origin}/bytes`, { method: 'POST', body: new TextEncoder().encode('bytes') });
    expect(await res.text()).toBe('ok');
    expect(seen.at(-1)!.body).toBe('bytes');
  });
});
