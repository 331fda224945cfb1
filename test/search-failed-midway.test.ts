import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { searchReplySchema } from '../core/contract/event-replies';
import { problemSchema } from '../core/contract/problem';
import { ALLOWANCES } from '../core/plans';
import { getBilling } from '../db/accounts';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';
import { recordedReplies, startReplay } from './support/gemini-recording';

// A real recorded Gemini stream (pydantic-ai's web-search stream test) that fails after its third piece with
// Gemini's 500 error frame, as Gemini ends a stream that fails on its side. Its first piece begins with this line.
const RECORDED = 'pydantic-ai--test_google_model_web_search_tool_stream.yaml';
const FIRST_LINE = '### Weather in San Francisco is Mild and Partly Cloudy Today';

/**
 * A search whose answer fails after some of it was shown: not charged, its failure and its partial text kept
 * with the search, and /v1's JSON reply says it failed (docs/decisions/charged-search.md).
 */
describe('a search that fails midway', () => {
  let stack: TestStack;
  let replay: Awaited<ReturnType<typeof startReplay>>;
  beforeAll(async () => {
    replay = await startReplay();
    // The recording's model, one the product knows (no models.get asked first).
    stack = await startTestStack({ env: { GEMINI_BASE_URL: replay.url, GEMINI_MODEL: 'gemini-2.5-pro' }, searchEvents: false });
  });
  afterAll(async () => {
    await stack?.close();
    await replay?.close();
  });

  const brokenStream = () => replay.queue(recordedReplies(RECORDED)[0]!, { failAfterFrames: 3 });
  const used = async (userId: number) => (await getBilling(stack.db.sql, userId, ALLOWANCES))!.used;
  const read = (path: string, headers: Record<string, string>) => fetch(`${stack.url}${path}`, { headers });

  it('an ask: the text so far and the sentence at its end, no credit taken, the part kept with the failure', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    brokenStream();
    const res = await ask(stack.url, cookie, { ques: 'weather in San Francisco', web: '' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.startsWith(FIRST_LINE)).toBe(true);
    expect(text).toMatch(/\n\n\[The answer is incomplete: .+\]\n$/);
    expect(await used(user.id)).toBe(0);

    const id = Number(res.headers.get('x-search-id'));
    const got = await read(`/api/searches/${id}`, { cookie });
    expect(got.status).toBe(200);
    const search = searchReplySchema.parse(await got.json());
    expect(search.status).toBe('failed');
    expect(search.error).toMatch(/\S/);
    expect(search.answer?.startsWith(FIRST_LINE)).toBe(true);
    // The stored part is what was shown, without the sentence the stream ended with.
    expect(text.startsWith(search.answer!)).toBe(true);
    expect(search.answer).not.toContain('[The answer is incomplete');
  });

  it('POST /v1/search: a problem with the search id and the part, no credit taken, the search readable failed', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const made = await fetch(`${stack.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie, origin: stack.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'midway', scopes: ['read', 'search'] }),
    });
    const bearer = { authorization: `Bearer ${createdApiTokenReplySchema.parse(await made.json()).token}` };
    brokenStream();
    const res = await fetch(`${stack.url}/v1/search`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ ques: 'weather in San Francisco' }),
    });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = problemSchema.parse(await res.json());
    expect(problem.code).toBe('gemini_failed');
    expect(problem.search_id).toEqual(expect.any(Number));
    expect(problem.partial_answer?.startsWith(FIRST_LINE)).toBe(true);
    expect(await used(user.id)).toBe(0);

    const got = await read(`/v1/searches/${problem.search_id}`, bearer);
    expect(got.status).toBe(200);
    const search = searchReplySchema.parse(await got.json());
    expect(search).toMatchObject({ id: problem.search_id, status: 'failed', answer: problem.partial_answer });
  });
});
