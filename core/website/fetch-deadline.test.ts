import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchDeadline } from './fetch-deadline';

describe('a fetch’s deadline', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops the fetch at its time limit, as a timeout', () => {
    const deadline = fetchDeadline(400);
    vi.advanceTimersByTime(399);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('stops the fetch when the caller’s signal does, with the caller’s reason, and not as a timeout', () => {
    const caller = new AbortController();
    const deadline = fetchDeadline(400, caller.signal);
    caller.abort('cancelled');
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe('cancelled');
    expect(deadline.timedOut).toBe(false);
  });

  it('is stopped at once when the caller’s signal already is', () => {
    const deadline = fetchDeadline(400, AbortSignal.abort('gone'));
    expect(deadline.signal.reason).toBe('gone');
  });

  it('once released, neither its timer nor the caller’s signal stops it', () => {
    const caller = new AbortController();
    const deadline = fetchDeadline(400, caller.signal);
    deadline.release();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    caller.abort();
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.timedOut).toBe(false);
  });
});
