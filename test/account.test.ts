import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerId } from '../core/timers/scheduler';
import { appFetch, subscribe } from './support/billing';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';

// docs/decisions/data-lifecycle.md: users export their data as JSON and delete their account.
describe('account export and deletion', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  const call = (cookie: string, method: string, path: string, body?: unknown) =>
    appFetch(stack, cookie, path, {
      method,
      headers: { 'content-type': 'application/json', origin: stack.url },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const rowsOf = async (userId: number) => {
    const [row] = await stack.db.sql<Record<string, number>[]>`
      select (select count(*)::int from users where id = ${userId}) as users,
             (select count(*)::int from accounts where user_id = ${userId}) as accounts,
             (select count(*)::int from sessions where user_id = ${userId}) as sessions,
             (select count(*)::int from timers where user_id = ${userId}) as timers,
             (select count(*)::int from searches where user_id = ${userId}) as searches`;
    return row!;
  };

  it('exports the user’s timers and searches as JSON, without the service’s secrets', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    expect((await call(cookie, 'POST', '/api/schedule', dailyTimer({ ques: 'Export me' }))).status).toBe(200);
    await stack.db.sql`insert into searches (user_id, question, status, answer) values (${user.id}, 'What is on?', 'answered', 'Lots.')`;
    expect((await call(cookie, 'POST', '/api/tokens', { name: 'My agent', scopes: ['read'] })).status).toBe(201);
    const res = await call(cookie, 'GET', '/api/account/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="event-finder-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = (await res.json()) as {
      user: { email: string };
      account: { tier: string };
      timers: Record<string, unknown>[];
      searches: { question: string; answer: string; events: unknown[] }[];
      api_tokens: Record<string, unknown>[];
    };
    expect(data.user.email).toBe(user.email);
    expect(data.account.tier).toBe('free');
    expect(data.timers.map((t) => t.question)).toEqual(['Export me']);
    for (const secret of ['feed_nonce', 'feed_token_hash', 'webhook_secret']) expect(data.timers[0]).not.toHaveProperty(secret);
    expect(data.searches).toEqual([expect.objectContaining({ question: 'What is on?', answer: 'Lots.', events: [] })]);
    expect(data.api_tokens).toEqual([expect.objectContaining({ name: 'My agent', scopes: ['read'] })]);
    expect(data.api_tokens[0]).not.toHaveProperty('token_hash');
    expect((await call('', 'GET', '/api/account/export')).status).toBe(401);
  });

  it('deletes the account: subscription cancelled at Stripe, schedulers removed, every row gone, a confirmation email', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const { subscriptionId } = await subscribe(stack, cookie, 'plus_monthly');
    const timer = (await (await call(cookie, 'POST', '/api/schedule', dailyTimer({ ques: 'Delete me' }))).json()) as { id: number };
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id))).toBeDefined();

    const res = await call(cookie, 'DELETE', '/api/account');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
    expect(res.headers.getSetCookie().some((c) => c.startsWith('ef_session=') && /Max-Age=0/.test(c))).toBe(true);

    expect(await rowsOf(user.id)).toEqual({ users: 0, accounts: 0, sessions: 0, timers: 0, searches: 0 });
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id))).toBeUndefined();
    expect(stack.standins.stripe.store.subscriptions.get(subscriptionId)).toMatchObject({ status: 'canceled' });
    const mail = await stack.standins.smtp.waitFor((m) => m.envelope.to.includes(user.email));
    expect(mail.subject).toBe('Your Event Finder account is deleted');
    // The old session no longer signs anyone in.
    expect((await call(cookie, 'GET', '/api/timers')).status).toBe(401);
  });
});
