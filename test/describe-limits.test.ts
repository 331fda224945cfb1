import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';

// A sentence the parser cannot read, so the model is asked (test/search-cost.test.ts counts it as one call).
const MODEL_SENTENCE = 'Thursday evenings around 7, design meetups in Hamburg';

describe('POST /api/timers/describe held to limits', () => {
  let stack: TestStack;
  // A Gemini endpoint that takes each request and never answers it.
  const waiting: ServerResponse[] = [];
  const stalled = createServer((_req, res) => void waiting.push(res));
  beforeAll(async () => {
    stack = await startTestStack();
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const res of waiting) res.destroy();
    await new Promise<void>((resolve) => stalled.close(() => resolve()));
    await stack?.close();
  });

  const describeWith = (app: ReturnType<typeof createApp>, cookie: string, sentence: string) =>
    app.request('/api/timers/describe', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ sentence, timezone: 'Europe/Berlin' }),
    });

  it('ends with a sentence when the model does not answer in time', async () => {
    const { port } = stalled.address() as AddressInfo;
    const gemini = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: `http://127.0.0.1:${port}` } });
    const config = { ...stack.config, search: { ...stack.config.search, answerIdleMs: 300 } };
    const app = createApp({ ...stack.deps, config, gemini });
    const { cookie } = await createSignedInUser(stack.db.sql);
    const res = await describeWith(app, cookie, MODEL_SENTENCE);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe(
      'We could not read that sentence in time (the AI service took too long to answer). Fill in the form below yourself, or try again.',
    );
    expect(waiting.length).toBeGreaterThan(0);
  });

  it('has a per-user hourly rate of its own, refused with a sentence and Retry-After', async () => {
    const app = createApp({ ...stack.deps, config: { ...stack.config, describePerHour: 2 } });
    const first = await createSignedInUser(stack.db.sql);
    const other = await createSignedInUser(stack.db.sql);
    for (let i = 0; i < 2; i++) expect((await describeWith(app, first.cookie, 'every day at 9, AI meetups in Berlin')).status).toBe(200);
    const refused = await describeWith(app, first.cookie, 'every day at 9, AI meetups in Berlin');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^You have described 2 timers in words this hour\. Fill in the form below yourself, or try again in \d+ minutes?\.$/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user's count is their own.
    expect((await describeWith(app, other.cookie, 'every day at 9, AI meetups in Berlin')).status).toBe(200);
  });
});
