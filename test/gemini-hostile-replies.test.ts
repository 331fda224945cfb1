import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWANCES } from '../core/plans';
import { getBilling } from '../db/accounts';
import { searchRowsOf } from '../db/searches';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';

// A hostile reply is sent until its reader goes away, and never past this many bytes: the test's own bound.
const HOSTILE_MAX_BYTES = 32 * 1024 * 1024;

/** What the hostile Gemini answers an answer request with. */
type Shape = (res: ServerResponse) => void;

/** One SSE event of a GenerateContentResponse. */
const event = (response: object) => `data: ${JSON.stringify(response)}\r\n\r\n`;
const textEvent = (text: string) => event({ candidates: [{ content: { role: 'model', parts: [{ text }] } }] });

/** Writes `piece()` again and again, waiting for the socket, until the reader goes away or the bound is reached. */
function sendWithoutEnd(out: NodeJS.WritableStream & { destroyed?: boolean }, piece: () => string, end: () => void): void {
  let sent = 0;
  const more = () => {
    if (sent >= HOSTILE_MAX_BYTES) return end();
    const chunk = piece();
    sent += chunk.length;
    out.write(chunk, () => {
      if (!out.destroyed) setImmediate(more);
    });
  };
  more();
}

/**
 * The shapes of reply a hostile Gemini endpoint sent, each from a loopback server of the test's
 * own: the ask ends at the limit it crossed with a sentence, costs no credit, and the reply is no longer read.
 */
describe('POST /api/ask, a Gemini whose replies are hostile', () => {
  let stack: TestStack;
  let shape: Shape = () => {};
  const ended: string[] = [];
  const hostile = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: `models/${req.url?.split('/').pop()}` }));
      return;
    }
    req.resume();
    res.on('close', () => ended.push(req.url ?? ''));
    shape(res);
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    const geminiUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
    stack = await startTestStack({ env: { GEMINI_BASE_URL: geminiUrl, ASK_IDLE_TIMEOUT_SECONDS: '10' } });
  });
  afterAll(async () => {
    await stack?.close();
    hostile.closeAllConnections();
    await new Promise((resolve) => hostile.close(resolve));
  });

  /** Asks with the hostile reply `s`; returns the reply's status and text, once the ask has ended. */
  async function askAgainst(s: Shape) {
    shape = s;
    const before = ended.length;
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const res = await ask(stack.url, cookie, { ques: 'Concerts in Lisbon this week', web: '' });
    const text = await res.text();
    // The hostile reply is no longer read: its connection was closed by the api, not by the sender's own bound.
    await expect.poll(() => ended.length).toBeGreaterThan(before);
    const [search] = await searchRowsOf(stack.db.sql, user.id);
    expect(search?.status).toBe('failed');
    expect((await getBilling(stack.db.sql, user.id, ALLOWANCES))!.used).toBe(0);
    // The process goes on serving.
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    return { status: res.status, text };
  }

  it('refuses one streamed line that never ends', async () => {
    const { status, text } = await askAgainst((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"candidates":[{"content":{"parts":[{"text":"');
      sendWithoutEnd(
        res,
        () => 'x'.repeat(64 * 1024),
        () => res.end(),
      );
    });
    expect(status).toBe(502);
    expect(text).toBe(
      'The AI service sent a reply we do not accept (a streamed line over 512 KB). It was not counted against your plan. Please try again in a moment.',
    );
  });

  it('refuses a gzip-encoded body it did not ask for', async () => {
    const { status, text } = await askAgainst((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      gzip.write('data: {"candidates":[{"content":{"parts":[{"text":"');
      sendWithoutEnd(
        gzip,
        () => 'x'.repeat(64 * 1024),
        () => gzip.end(),
      );
      res.on('close', () => gzip.destroy());
    });
    expect(status).toBe(502);
    expect(text).toMatch(/^The AI service sent a reply we do not accept \(a reply encoded as gzip, which was not asked for\)\./);
  });

  it('ends an answer whose chunks never end at the reply limit, with a sentence after the text shown', async () => {
    const { status, text } = await askAgainst((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      sendWithoutEnd(
        res,
        () => textEvent('la '.repeat(50_000)),
        () => res.end(),
      );
    });
    expect(status).toBe(200);
    expect(text).toMatch(/^la la /);
    expect(text.length).toBeLessThan(8 * 1024 * 1024);
    expect(text).toMatch(
      /\n\n\[The answer is incomplete: The AI service sent a reply we do not accept \(a reply over 8 MB\)\. It was not counted against your plan\. Please try again in a moment\.\]\n$/,
    );
  });

  it('refuses a reply with 20,000 grounding supports before it is parsed', async () => {
    // Each support as Google writes them (startIndex, endIndex, text, its sources and their confidence).
    const supports = Array.from({ length: 20_000 }, (_, i) => ({
      segment: { startIndex: i, endIndex: i + 1, text: 'a' },
      groundingChunkIndices: [0],
      confidenceScores: [0.9],
    }));
    const { status, text } = await askAgainst((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        event({
          candidates: [
            {
              content: { role: 'model', parts: [{ text: 'Here are events.' }] },
              finishReason: 'STOP',
              groundingMetadata: {
                groundingChunks: [{ web: { uri: 'https://example.org/events', title: 'example.org' } }],
                groundingSupports: supports,
              },
            },
          ],
        }),
      );
    });
    expect(status).toBe(502);
    expect(text).toMatch(/^The AI service sent a reply we do not accept \(a streamed line over 512 KB\)\./);
  });
});
