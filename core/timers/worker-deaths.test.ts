import { describe, expect, it } from 'vitest';
import { WORKER_DIED_ERROR, WORKER_DIED_NO_WEBSITE_ERROR, workerDeathsError } from './worker-deaths';

describe('the two-worker-deaths sentence', () => {
  it('runs a job until its workers died twice', () => {
    expect(workerDeathsError(1, 'https://events.example/')).toBeNull();
    expect(workerDeathsError(2, 'https://events.example/')).toBe(WORKER_DIED_ERROR);
  });

  it('blames no website on a timer that has none', () => {
    const sentence = workerDeathsError(2, '');
    expect(sentence).toBe(WORKER_DIED_NO_WEBSITE_ERROR);
    expect(sentence).not.toMatch(/website/i);
  });
});
