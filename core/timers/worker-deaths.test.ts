import { describe, expect, it } from 'vitest';
import { WORKER_DIED_ERROR, WORKER_DIED_NO_WEBSITE_ERROR, workerDeathsError } from './worker-deaths';

describe('the two-worker-deaths sentence', () => {
  it('runs a job until its workers died twice', () => {
    expect(workerDeathsError(1, 'https://events.example/')).toBeNull();
    expect(workerDeathsError(2, 'https://events.example/')).toEqual({ error: WORKER_DIED_ERROR, cause: 'the-timer' });
  });

  it('blames no website on a timer that has none, nor counts it as the timer’s failure', () => {
    const failure = workerDeathsError(2, '');
    expect(failure).toEqual({ error: WORKER_DIED_NO_WEBSITE_ERROR, cause: 'not-the-timer' });
    expect(failure?.error).not.toMatch(/website/i);
  });
});
