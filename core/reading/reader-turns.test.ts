import { describe, expect, it } from 'vitest';
import { ReaderTurns } from './reader-turns';

const full = () => new Error('full');

/** Takes a turn for `reader` and notes its name in `order` when the turn comes, or `name refused` when refused. */
function taker(turns: ReaderTurns, order: string[]) {
  return (reader: string, name: string, signal = new AbortController().signal) =>
    turns.take(reader, signal).then(
      () => {
        order.push(name);
      },
      (err: unknown) => {
        order.push(`${name} ${(err as Error).message}`);
      },
    );
}

describe('the reading threads’ turns', () => {
  it('let a reader’s readings wait behind their own, never in front of another reader’s', async () => {
    const order: string[] = [];
    const turns = new ReaderTurns(1, 1, 10, full);
    const take = taker(turns, order);
    const a1 = take('a', 'a1');
    const a2 = take('a', 'a2');
    const a3 = take('a', 'a3');
    const b1 = take('b', 'b1');
    await a1;
    turns.release('a');
    await b1;
    turns.release('b');
    await a2;
    turns.release('a');
    await a3;
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('give the next thread to the reader who has gone longest without one', async () => {
    const order: string[] = [];
    const turns = new ReaderTurns(1, 1, 10, full);
    const take = taker(turns, order);
    await take('a', 'a1');
    const waiting = [take('b', 'b1'), take('a', 'a2'), take('b', 'b2'), take('c', 'c1')];
    for (const reader of ['a', 'b', 'c', 'a', 'b']) {
      turns.release(reader);
      await Promise.resolve();
    }
    await Promise.all(waiting);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2']);
  });

  it('give a reader served before a burst of new readers came the next thread before them', async () => {
    const order: string[] = [];
    const turns = new ReaderTurns(1, 1, 10, full);
    const take = taker(turns, order);
    await take('other', 'other 1');
    turns.release('other');
    // New readers, each with a reading as slow as they may make it, one of them in the thread.
    await take('new a', 'a1');
    const waiting = [take('new b', 'b1'), take('new c', 'c1'), take('other', 'other 2')];
    for (const reader of ['new a', 'other', 'new b', 'new c']) {
      turns.release(reader);
      await Promise.resolve();
    }
    await Promise.all(waiting);
    expect(order).toEqual(['other 1', 'a1', 'other 2', 'b1', 'c1']);
  });

  it('let one reader hold every thread but one', async () => {
    const order: string[] = [];
    const turns = new ReaderTurns(2, 1, 10, full);
    const take = taker(turns, order);
    await take('a', 'a1');
    void take('a', 'a2');
    await take('b', 'b1');
    expect(order).toEqual(['a1', 'b1']);
    expect(turns.waiting).toBe(1);
  });

  it('at a full queue, refuse the newest reading of the reader with the most waiting, else the newcomer', async () => {
    const order: string[] = [];
    const turns = new ReaderTurns(1, 1, 2, full);
    const take = taker(turns, order);
    await take('a', 'a1');
    const a2 = take('a', 'a2');
    const a3 = take('a', 'a3');
    const b1 = take('b', 'b1');
    await a3;
    expect(order).toEqual(['a1', 'a3 full']);
    await take('b', 'b2');
    expect(order).toEqual(['a1', 'a3 full', 'b2 full']);
    turns.release('a');
    await b1;
    turns.release('b');
    await a2;
    expect(order).toEqual(['a1', 'a3 full', 'b2 full', 'b1', 'a2']);
  });

  it('take a reading out of the queue when its signal ends the wait', async () => {
    const order: string[] = [];
    const turns = new ReaderTurns(1, 1, 10, full);
    const take = taker(turns, order);
    await take('a', 'a1');
    const stop = new AbortController();
    const b1 = take('b', 'b1', stop.signal);
    const c1 = take('c', 'c1');
    stop.abort(new Error('gone'));
    await b1;
    expect(turns.waiting).toBe(1);
    turns.release('a');
    await c1;
    expect(order).toEqual(['a1', 'b1 gone', 'c1']);
  });
});
