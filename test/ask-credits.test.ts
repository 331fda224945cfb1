import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBilling } from '../db/accounts';
import { searchRowsOf } from '../db/searches';
import { ask } from './support/ask';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { ALLOWANCES } from '../core/plans';

/**
 * The credit race: one user with 10 credits sends 20 asks at the same moment. The per-user concurrency cap
 * (2 by default) would turn most of them into 429 before they ever reach the credit, which would hide the
 * race this test is about; so this stack raises the cap to 20 (SEARCH_CONCURRENCY_PER_USER) and every one
 * of the 20 requests really competes for a credit. The cap itself is tested in ask.test.ts.
 */
describe('POST /api/ask credits under concurrency', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { SEARCH_CONCURRENCY_PER_USER: '20' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('20 concurrent asks with 10 credits: exactly 10 answered, 10 get 402, credits end at 0', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    expect((await getBilling(stack.db.sql, user.id, ALLOWANCES))!.credits).toBe(10);
    const replies = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await ask(stack.url, cookie, { ques: `AI events ${i}`, web: '' });
        return { status: res.status, text: await res.text() };
      }),
    );
    // Anything but an answer or a refusal for credits would be a failure of its own: shown with its text.
    expect(replies.filter((r) => r.status !== 200 && r.status !== 402)).toEqual([]);
    const answered = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 402);
    expect(answered).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const r of answered) expect(r.text).toContain('AI Summit Berlin');
    for (const r of refused) expect(r.text).toBe('You have used all 10 searches of your free plan this month.');
    expect((await getBilling(stack.db.sql, user.id, ALLOWANCES))!.credits).toBe(0);
    const records = await searchRowsOf(stack.db.sql, user.id);
    expect(records).toHaveLength(20);
    expect(records.filter((r) => r.status === 'refused')).toHaveLength(10);
  });
});
