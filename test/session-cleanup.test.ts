import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../db/sessions';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';

describe('expired sessions', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  const exists = async (token: string) => (await stack.db.sql`select 1 from sessions where token_hash = ${hashToken(token)}`).length === 1;

  it("are deleted by the worker's periodic pass", async () => {
    const ended = await createSignedInUser(stack.db.sql);
    const live = await createSignedInUser(stack.db.sql);
    await stack.db.sql`update sessions set expires_at = now() - interval '1 minute' where token_hash = ${hashToken(ended.token)}`;
    // The worker runs its pass once at start, then every few minutes (worker.reconcile is that pass).
    const worker = await stack.startWorker();
    expect(await exists(ended.token)).toBe(false);
    await worker.reconcile();
    expect(await exists(live.token)).toBe(true);
  });

  it('written before the absolute lifetime are capped at 30 days after sign-in by migration 003', async () => {
    const { token } = await createSignedInUser(stack.db.sql);
    await stack.db.sql`update sessions set created_at = now() - interval '29 days', expires_at = now() + interval '20 days'
                       where token_hash = ${hashToken(token)}`;
    await stack.db.sql.unsafe(await readFile('db/migrations/003-session-absolute-lifetime.sql', 'utf8'));
    const [row] = await stack.db.sql<{ days: number }[]>`
      select extract(epoch from expires_at - created_at) / 86400 as days from sessions where token_hash = ${hashToken(token)}`;
    expect(Number(row!.days)).toBeCloseTo(30, 5);
  });
});
