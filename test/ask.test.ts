import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getBilling } from '../db/accounts';
import { searchRowsOf } from '../db/searches';
import { ask, readChunks } from './support/ask';
import { until } from '../dev/harness/wait';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { ALLOWANCES } from '../core/plans';

describe('POST /api/ask', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.standins.gemini.reset());

  const signIn = () => createSignedInUser(stack.db.sql);
  const used = async (userId: number) => (await getBilling(stack.db.sql, userId, ALLOWANCES))!.used;
  const site = (path: string) => `${stack.standins.url}/sites/${path}`;

  it('needs a session: 401 in plain text', async () => {
    const res = await ask(stack.url, '', { ques: 'AI events', web: '' });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('Please sign in with Google first.');
  });

  it('validates the body on the server and takes no credit', async () => {
    const { user, cookie } = await signIn();
    const cases: [unknown, RegExp][] = [
      ['{not json', /not valid JSON/],
      [{ ques: '   ', web: '' }, /enter a question/],
      [{ ques: 'x'.repeat(2001), web: '' }, /too long/],
      [{ ques: 'AI', web: `https://example.com/${'a'.repeat(2048)}` }, /address is too long/],
      [{ ques: 'AI', web: 'not a url' }, /not a valid URL/],
      [{ ques: 'AI', web: 42 }, /must be text/],
    ];
    for (const [body, message] of cases) {
      const res = await ask(stack.url, cookie, body);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(message);
    }
    expect(await used(user.id)).toBe(0);
  });

  it('streams each chunk to the client before Gemini has finished', async () => {
    const { user, cookie } = await signIn();
    stack.standins.gemini.setChunkDelay(150);
    const res = await ask(stack.url, cookie, { ques: 'Find AI conferences in Berlin next month', web: '', timezone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const searchId = Number(res.headers.get('x-search-id'));
    const [recorded] = await stack.db.sql`select user_id from searches where id = ${searchId}`;
    expect(recorded).toMatchObject({ user_id: String(user.id) });
    const arrivals = await readChunks(res);
    const finishedUpstream = stack.standins.gemini.state.lastAnswerFinishedAt;
    // The stand-in sends ~12 chunks 150 ms apart: the first must arrive well before the last was sent.
    expect(arrivals.length).toBeGreaterThanOrEqual(5);
    expect(finishedUpstream - arrivals[0]!.at).toBeGreaterThan(1000);
    expect(arrivals.at(-1)!.at - arrivals[0]!.at).toBeGreaterThan(1000);
    const text = arrivals.map((a) => a.text).join('');
    expect(text).toContain('AI Summit Berlin');
    // Without a website, Google Search grounding is on and its sources close the answer as plain lines.
    // Google's sources are its grounding redirects (the stand-in's own, dev/standins/grounded-sites.ts).
    expect(text).toContain(`\n\nSources:\nAI Summit Berlin: ${stack.standins.url}/grounding-api-redirect/ai-summit-berlin\n`);
    const request = stack.standins.gemini.state.lastAnswerRequest!;
    expect(request.model).toBe(stack.config.gemini.model);
    expect(request.apiKey).toBe(stack.config.gemini.apiKey);
    expect(request.body.tools).toEqual([{ googleSearch: {} }]);
    // The default model is the alias gemini-flash-lite-latest: the lowest level every 3.x Flash-Lite accepts
    // (core/gemini/thinking.ts).
    expect(request.body.generationConfig).toMatchObject({ thinkingConfig: { thinkingLevel: 'MINIMAL' } });
    expect(request.prompt).toContain('Europe/Berlin');
    expect(request.prompt).toContain('QUESTION: Find AI conferences in Berlin next month');

    expect(await used(user.id)).toBe(1);
    await until('the search to be answered', async () => (await searchRowsOf(stack.db.sql, user.id))[0]?.status === 'answered');
    const [rec] = await searchRowsOf(stack.db.sql, user.id);
    expect(rec).toMatchObject({ status: 'answered', website: '', model: stack.config.gemini.model, answer_chars: text.length });
    expect(rec!.prompt_tokens).toBeGreaterThan(0);
    expect(rec!.output_tokens).toBeGreaterThan(0);
    expect(rec!.first_chunk_at).not.toBeNull();
  });

  it('answers from a website’s JSON-LD events, without grounding', async () => {
    const { cookie } = await signIn();
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: site('berlin-ai.html') });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('I found 3 events');
    expect(text).toContain('Applied ML Summit Berlin 2026');
    expect(text).toContain('Link: https://ai-events.example/meetups/llm-42');
    const request = stack.standins.gemini.lastRequest!;
    expect(request.body.tools).toBeUndefined();
    expect(request.prompt).toContain(`STRUCTURED EVENTS FROM ${site('berlin-ai.html')}`);
  });

  it('answers from an iCalendar feed', async () => {
    const { cookie } = await signIn();
    const text = await (await ask(stack.url, cookie, { ques: 'meetups', web: site('meetups.ics') })).text();
    expect(text).toContain('PyData Berlin: Forecasting, evaluation and LLM agents');
    expect(text).toContain('Date: 2026-06-09 18:30 (Europe/Berlin)');
  });

  it('gives the credit back when Gemini fails before any text', async () => {
    const { user, cookie } = await signIn();
    stack.standins.gemini.failNext({ when: 'before', status: 429 }, 'answer');
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
    expect(res.status).toBe(429);
    expect(await res.text()).toMatch(/too many requests.*try again/i);
    expect(await used(user.id)).toBe(0);
    const [rec] = await searchRowsOf(stack.db.sql, user.id);
    expect(rec!.status).toBe('failed');

    stack.standins.gemini.failNext({ when: 'before', status: 500 }, 'answer');
    const res500 = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
    expect(res500.status).toBe(502);
    expect(await res500.text()).toMatch(/AI service failed/);
    expect(await used(user.id)).toBe(0);
  });

  it('explains a blocked question and an empty answer, and gives the credit back', async () => {
    const { user, cookie } = await signIn();
    stack.standins.gemini.failNext({ when: 'prompt', blockReason: 'SAFETY' }, 'answer');
    const blocked = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
    expect(blocked.status).toBe(400);
    expect(await blocked.text()).toBe('The AI service declined to answer this question. Please rephrase it and try again.');

    stack.standins.gemini.failNext({ when: 'empty' }, 'answer');
    const empty = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
    expect(empty.status).toBe(502);
    expect(await empty.text()).toBe('The AI service returned an empty answer. Please try again or rephrase your question.');
    expect(await used(user.id)).toBe(0);
    expect((await searchRowsOf(stack.db.sql, user.id)).map((r) => r.status)).toEqual(['failed', 'failed']);
  });

  it('gives the credit back and ends with an incomplete-answer line when Gemini fails after text', async () => {
    const { user, cookie } = await signIn();
    stack.standins.gemini.failNext({ when: 'after', status: 500 }, 'answer');
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.startsWith('Here are events')).toBe(true);
    expect(text).toMatch(/\n\n\[The answer is incomplete: The AI service failed while answering\. Please try again in a moment\.\]\n$/);
    expect(await used(user.id)).toBe(0);
    await until('the search to fail', async () => (await searchRowsOf(stack.db.sql, user.id))[0]?.status === 'failed');
  });

  /** Runs `body` with ASK_IDLE_TIMEOUT_SECONDS at `ms` (the route reads it per ask), then puts it back. */
  async function withAnswerIdle(ms: number, body: () => Promise<void>) {
    const before = stack.config.search.answerIdleMs;
    stack.config.search.answerIdleMs = ms;
    try {
      await body();
    } finally {
      stack.config.search.answerIdleMs = before;
    }
  }

  it('gives up a model that sends nothing within ASK_IDLE_TIMEOUT_SECONDS: 503 with a sentence, the credit back', async () => {
    const { user, cookie } = await signIn();
    stack.standins.gemini.setFirstChunkDelay(60_000);
    const aborted = stack.standins.gemini.state.abortedRequests;
    await withAnswerIdle(300, async () => {
      const res = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
      expect(res.status).toBe(503);
      expect(await res.text()).toBe('The AI service took too long to answer. Please try again in a few minutes.');
    });
    expect(await used(user.id)).toBe(0);
    const [rec] = await searchRowsOf(stack.db.sql, user.id);
    expect(rec).toMatchObject({ status: 'failed', error: 'The AI service took too long to answer. Please try again in a few minutes.' });
    await until('Gemini to see the request given up', () => stack.standins.gemini.state.abortedRequests === aborted + 1);
    // Its search slot went back: two more asks run at once.
    stack.standins.gemini.setFirstChunkDelay(0);
    const next = await Promise.all([1, 2].map(() => ask(stack.url, cookie, { ques: 'AI events', web: '' })));
    expect(next.map((r) => r.status)).toEqual([200, 200]);
    await Promise.all(next.map((r) => r.text()));
  });

  it('ends an answer that stalls for ASK_IDLE_TIMEOUT_SECONDS with an incomplete-answer line; each piece restarts the wait', async () => {
    const { user, cookie } = await signIn();
    // Pieces 150 ms apart pass a 1 s wait between pieces, though the whole answer takes longer than 1 s.
    stack.standins.gemini.setChunkDelay(150);
    await withAnswerIdle(1000, async () => {
      const whole = await (await ask(stack.url, cookie, { ques: 'AI events', web: '' })).text();
      expect(whole).not.toMatch(/incomplete/);
      expect(stack.standins.gemini.state.lastAnswerFinishedAt).toBeGreaterThan(0);

      stack.standins.gemini.setChunkDelay(60_000);
      const res = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text.startsWith('Here are events')).toBe(true);
      expect(text).toMatch(
        /\n\n\[The answer is incomplete: The AI service took too long to answer\. Please try again in a few minutes\.\]\n$/,
      );
    });
    // Only the whole answer is charged: a failed search costs nothing, however much of it was shown.
    expect(await used(user.id)).toBe(1);
    const stalled = await until('the stalled search to fail', async () =>
      (await searchRowsOf(stack.db.sql, user.id)).find((r) => r.status === 'failed'),
    );
    expect(stalled.error).toBe('The AI service took too long to answer. Please try again in a few minutes.');
  });

  describe('refuses unsafe websites, takes no credit and never calls Gemini', () => {
    const refused: [string, (s: TestStack) => string, number, RegExp][] = [
      ['loopback 127.0.0.1', () => 'http://127.0.0.1:9/', 400, /private or local network/],
      ['private 10.0.0.1', () => 'http://10.0.0.1/events', 400, /private or local network/],
      ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/', 400, /private or local network/],
      ['IPv6 loopback', () => 'http://[::1]:8080/', 400, /private or local network/],
      ['IPv4-mapped IPv6', () => 'http://[::ffff:127.0.0.1]/', 400, /private or local network/],
      ['a name resolving to 127.0.0.1', () => 'http://localhost:9/', 400, /private or local network/],
      [
        'a redirect to a private address',
        (s) => `${s.standins.url}/sites/redirect?to=${encodeURIComponent('http://10.0.0.1/admin')}`,
        400,
        /private or local network/,
      ],
      ['a redirect to file:', (s) => `${s.standins.url}/sites/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, 400, /Only http/],
      ['file: URL', () => 'file:///etc/passwd', 400, /Only http/],
      ['ftp: URL', () => 'ftp://ftp.example.com/events.txt', 400, /Only http/],
      ['an image', (s) => `${s.standins.url}/sites/logo.png`, 400, /image\/png, which we cannot read/],
      ['an oversized page', (s) => `${s.standins.url}/sites/huge.html`, 502, /larger than 2 MB/],
    ];
    for (const [name, web, status, message] of refused) {
      it(name, async () => {
        const { user, cookie } = await signIn();
        const before = stack.standins.gemini.state.requests;
        const res = await ask(stack.url, cookie, { ques: 'AI events', web: web(stack) });
        expect(res.status).toBe(status);
        expect(await res.text()).toMatch(message);
        expect(await used(user.id)).toBe(0);
        expect(stack.standins.gemini.state.requests).toBe(before);
      });
    }
  });

  it('cancels the Gemini request when the client goes away', async () => {
    const { user, cookie } = await signIn();
    stack.standins.gemini.setChunkDelay(300);
    const aborted = stack.standins.gemini.state.abortedRequests;
    const controller = new AbortController();
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: '' }, controller.signal);
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await until('Gemini to see the client leave', () => stack.standins.gemini.state.abortedRequests === aborted + 1);
    await until('the search to fail', async () => (await searchRowsOf(stack.db.sql, user.id))[0]?.status === 'failed');
    const [rec] = await searchRowsOf(stack.db.sql, user.id);
    expect(rec!.error).toMatch(/went away/);
  });

  it('takes no search slot for an ask refused for its body (a body that is not an ask)', async () => {
    const { cookie } = await signIn();
    for (let i = 0; i < 3; i++) expect((await ask(stack.url, cookie, { ques: 42, web: '' })).status).toBe(400);
    const res = await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: '' });
    expect(res.status).toBe(200);
    await res.text();
  });

  it('runs at most 2 searches at once per user: 429 with a sentence', async () => {
    const { cookie } = await signIn();
    stack.standins.gemini.setChunkDelay(200);
    const running = [await ask(stack.url, cookie, { ques: 'one', web: '' }), await ask(stack.url, cookie, { ques: 'two', web: '' })];
    expect(running.map((r) => r.status)).toEqual([200, 200]);
    const third = await ask(stack.url, cookie, { ques: 'three', web: '' });
    expect(third.status).toBe(429);
    expect(await third.text()).toBe('You already have 2 searches running. Please wait for one to finish, then try again.');
    await Promise.all(running.map((r) => r.text()));
    // The slots are free again once the answers are complete.
    await until(
      'a search slot to free up',
      async () => (await ask(stack.url, cookie, { ques: 'four', web: '' }).then((r) => r.text().then(() => r.status))) === 200,
    );
  });
});
