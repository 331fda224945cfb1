import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';

describe('the per-user rate on API GETs', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  it('refuses a user past it with 429, a sentence and Retry-After; other users and the session check are not held', async () => {
    const app = createApp({ ...stack.deps, config: { ...stack.config, userGetsPerMinute: 3 } });
    const get = (path: string, cookie: string) => app.request(path, { headers: { cookie } });
    const reader = await createSignedInUser(stack.db.sql);
    const other = await createSignedInUser(stack.db.sql);
    for (let i = 0; i < 3; i++) expect((await get('/api/searches', reader.cookie)).status).toBe(200);
    const refused = await get('/api/timers', reader.cookie);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^You are sending requests too quickly \(more than 3 a minute\)\. Please wait \d+ seconds? and try again\.$/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await get('/api/check-session', reader.cookie)).status).toBe(200);
    expect((await get('/api/searches', other.cookie)).status).toBe(200);
  });

  it('holds /v1 GETs to the same budget, with RateLimit headers naming it and a 429 in problem details', async () => {
    const app = createApp({ ...stack.deps, config: { ...stack.config, userGetsPerMinute: 3 } });
    const { cookie } = await createSignedInUser(stack.db.sql);
    const made = await app.request('/api/tokens', {
      method: 'POST',
      headers: { cookie, origin: stack.config.appOrigin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'reader', scopes: ['read'] }),
    });
    expect(made.status).toBe(201);
    const { token } = createdApiTokenReplySchema.parse(await made.json());
    const v1 = (path: string) => app.request(path, { headers: { authorization: `Bearer ${token}` } });
    // One read on the page, two by the token: the same user's one budget of reads.
    expect((await app.request('/api/searches', { headers: { cookie } })).status).toBe(200);
    const first = await v1('/v1/searches');
    expect(first.status).toBe(200);
    const perMinute = stack.config.userRatePerMinute;
    expect(first.headers.get('ratelimit-policy')).toBe(`"per-user";q=${perMinute};w=60, "per-user-get";q=3;w=60`);
    expect(first.headers.get('ratelimit')).toMatch(new RegExp(`^"per-user";r=${perMinute};t=\\d+, "per-user-get";r=1;t=(60|59)$`));
    expect((await v1('/v1/timers')).status).toBe(200);
    const refused = await v1('/v1/account');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({
      status: 429,
      code: 'rate_limited',
      detail: expect.stringMatching(
        /^You are sending requests too quickly \(more than 3 a minute\)\. Please wait \d+ seconds? and try again\.$/,
      ),
    });
    expect(refused.headers.get('ratelimit')).toMatch(/, "per-user-get";r=0;t=\d+$/);
    // A POST is not a read: it draws on the other budget, and its reply names only that one.
    const post = await app.request('/v1/timers', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(403);
    expect(post.headers.get('ratelimit-policy')).toBe(`"per-user";q=${perMinute};w=60`);
  });
});
