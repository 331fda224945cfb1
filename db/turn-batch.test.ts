import { describe, expect, it } from 'vitest';
import { turnBatch } from './turn-batch';

// The statements themselves are tested against Postgres (search-starts.test.ts, search-finishes.test.ts); this is
// what the grouping does with their outcomes.
describe('writes grouped by turn of the event loop', () => {
  const recorder = (many: (items: number[]) => Promise<string[]>, atOnceWhenIdle = false) => {
    const calls: { one: number[]; many: number[][] } = { one: [], many: [] };
    const write = turnBatch<number, string>({
      atOnceWhenIdle,
      one: async (item) => {
        calls.one.push(item);
        return `one ${item}`;
      },
      many: (items) => {
        calls.many.push(items);
        return many(items);
      },
    });
    return { write, calls };
  };

  it("gives each item its own result, in the turn's order, and starts a new group in the next turn", async () => {
    const { write, calls } = recorder(async (items) => items.map((i) => `many ${i}`));
    expect(await Promise.all([write(1), write(2), write(3)])).toEqual(['many 1', 'many 2', 'many 3']);
    expect(await write(4)).toBe('one 4');
    expect(calls).toEqual({ many: [[1, 2, 3]], one: [4] });
  });

  it('fails every item of a group whose write failed for another reason than a refusal, and tries none again', async () => {
    const lost = new Error('write CONNECTION_CLOSED');
    const { write, calls } = recorder(async () => {
      throw lost;
    });
    const results = await Promise.allSettled([write(1), write(2)]);
    expect(results).toEqual([
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
    ]);
    expect(calls.one).toEqual([]);
  });

  it('with atOnceWhenIdle sends an item that finds nothing awaiting its reply at once, and groups those behind it', async () => {
    const { write, calls } = recorder(async (items) => items.map((i) => `many ${i}`), true);
    const first = write(1);
    // Sent before this turn ended: the one-item write has begun already.
    expect(calls.one).toEqual([1]);
    const results = Promise.all([first, write(2), write(3)]);
    expect(calls.many).toEqual([]);
    expect(await results).toEqual(['one 1', 'many 2', 'many 3']);
    expect(calls.many).toEqual([[2, 3]]);
    // Nothing awaits a reply now: the next goes at once again.
    expect(await write(4)).toBe('one 4');
    expect(calls.one).toEqual([1, 4]);
  });
});
