import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deadline } from './deadline';

describe('deadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('aborts with a TimeoutError once the time has passed without a restart; each restart starts the wait again', () => {
    const d = deadline(undefined, 1000);
    vi.advanceTimersByTime(900);
    d.restart();
    vi.advanceTimersByTime(900);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(100);
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as Error).name).toBe('TimeoutError');
  });

  it("follows its parent, with the parent's reason, and holds no timer once cleared", () => {
    const parent = new AbortController();
    const d = deadline(parent.signal, 1000);
    parent.abort(new DOMException('gone', 'AbortError'));
    expect((d.signal.reason as Error).name).toBe('AbortError');
    expect(vi.getTimerCount()).toBe(0);

    const cleared = deadline(undefined, 1000);
    cleared.clear();
    expect(vi.getTimerCount()).toBe(0);
    // A piece of text that arrives after the work ended does not start the wait again.
    cleared.restart();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(2000);
    expect(cleared.signal.aborted).toBe(false);
  });
});
