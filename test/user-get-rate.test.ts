import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';

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
});
