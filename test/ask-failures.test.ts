import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getBilling } from '../db/accounts';
import { ask } from './support/ask';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { ALLOWANCES } from '../core/plans';

/** POST /api/ask when our own bookkeeping (Postgres) fails: the reply still ends, in the route's text format. */
describe('POST /api/ask when recording the search fails', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(async () => {
    await stack.db.sql`drop trigger if exists fail_searches on searches`;
    await stack.db.sql`drop function if exists fail_searches()`;
  });

  /** Makes every insert or update of a searches row matching `condition` fail, as a broken database would. */
  async function failSearchWrites(op: 'insert' | 'update', condition: string): Promise<void> {
    await stack.db.sql.unsafe(`create function fail_searches() returns trigger language plpgsql as $$
      begin if ${condition} then raise exception 'searches write refused by test'; end if; return new; end $$`);
    await stack.db.sql.unsafe(`create trigger fail_searches before ${op} on searches for each row execute function fail_searches()`);
  }

  it('ends the streamed answer even when the finished search cannot be recorded', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    await failSearchWrites('update', `new.status = 'answered'`);
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
    expect(res.status).toBe(200);
    const text = await Promise.race([
      res.text(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the reply never ended')), 5000)),
    ]);
    expect(text).toContain('Here are events');
  });

  it('answers an unexpected failure with a plain-text sentence and takes no credit', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    await failSearchWrites('insert', 'true');
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('Something went wrong on our side. Please try again in a moment.');
    expect((await getBilling(stack.db.sql, user.id, ALLOWANCES))!.used).toBe(0);
  });

  it('refuses a cross-origin ask with a plain-text sentence', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const res = await fetch(`${stack.url}/api/ask`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ ques: 'AI events', web: '' }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/another site/);
  });
});
