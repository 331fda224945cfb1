import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { searchRowsOf } from '../db/searches';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { useSearches } from './support/billing';

const RATE = 3;

/**
 * An ask's request to Gemini is built and sent only once its admission (rate, search slot, credit hint) is
 * decided in Redis. A refused ask's request never leaves, and an admitted one is asked once.
 */
describe('an ask is sent to Gemini only once it is admitted', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { USER_RATE_PER_MINUTE: String(RATE), SEARCH_CONCURRENCY_PER_USER: '1' } });
  });
  afterEach(() => stack.standins.gemini.reset());
  afterAll(() => stack?.close());

  const ask = (cookie: string, body: unknown, signal?: AbortSignal) =>
    fetch(`${stack.url}/api/ask`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: stack.url },
      body: JSON.stringify(body),
      signal,
    });
  /** The answer requests Gemini received with this question in their prompt. */
  const askedOf = (question: string) =>
    stack.standins.gemini.state.recentRequests.filter((r) => r.prompt.includes(question) && r.method === 'streamGenerateContent').length;
  /**
   * An answered ask by another user, after the ones under test: a request those had let out would have reached
   * Gemini before this one, so what Gemini saw by its answer is final.
   */
  async function afterAnother(question: string) {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const res = await ask(cookie, { ques: question, web: '' });
    expect(res.status).toBe(200);
    await res.text();
    expect(askedOf(question)).toBe(1);
  }

  it('asks Gemini once for an admitted ask and answers it', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const res = await ask(cookie, { ques: 'Jazz concerts in Hamburg this weekend', web: '' });
    expect(res.status).toBe(200);
    expect(await res.text()).not.toBe('');
    expect(askedOf('Jazz concerts in Hamburg this weekend')).toBe(1);
    expect((await searchRowsOf(stack.db.sql, user.id)).map((s) => s.status)).toEqual(['answered']);
  });

  it('never sends the ask of a user past the rate, and refuses it for the rate before its body', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    for (let i = 0; i < RATE; i++) await (await ask(cookie, { ques: `Book fairs in Leipzig ${i}`, web: '' })).text();
    const refused = await ask(cookie, { ques: 'Book fairs in Leipzig, once more', web: '' });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(/^You are sending requests too quickly/);
    // A body the route would refuse is refused for the rate first, as when the rate was checked before the body.
    const badBody = await ask(cookie, { ques: '', web: 'not a website' });
    expect(badBody.status).toBe(429);
    await afterAnother('Poetry readings in Leipzig');
    expect(askedOf('Book fairs in Leipzig, once more')).toBe(0);
    expect(await searchRowsOf(stack.db.sql, user.id)).toHaveLength(RATE);
  });

  it('never sends the ask of a user whose one search slot is taken', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    // The first ask holds the slot: Gemini thinks until the test goes away from it.
    stack.standins.gemini.setFirstChunkDelay(60_000);
    const leave = new AbortController();
    const first = ask(cookie, { ques: 'Film festivals in Venice', web: '' }, leave.signal).catch(() => null);
    await until('the first ask to reach Gemini', () => askedOf('Film festivals in Venice') === 1);
    const second = await ask(cookie, { ques: 'Film festivals in Cannes', web: '' });
    expect(second.status).toBe(429);
    expect(await second.text()).toMatch(/^You already have 1 searches running/);
    leave.abort();
    await first;
    stack.standins.gemini.setFirstChunkDelay(0);
    await afterAnother('Opera nights in Verona');
    expect(askedOf('Film festivals in Cannes')).toBe(0);
  });

  it('holds the ask of a user marked out of credit until its credit is known, and never sends it when there is none', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    await useSearches(stack, user.id, 10);
    // The first refusal marks the user; from then on the request waits for the credit.
    expect((await ask(cookie, { ques: 'Chess tournaments in Oslo', web: '' })).status).toBe(402);
    const marked = await ask(cookie, { ques: 'Chess tournaments in Bergen', web: '' });
    expect(marked.status).toBe(402);
    await afterAnother('Ski races in Lillehammer');
    expect(askedOf('Chess tournaments in Bergen')).toBe(0);
  });
});
