import { ApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { blockedFailure, geminiFailure } from './gemini-errors';

describe('geminiFailure', () => {
  it.each([
    [429, 429, 'upstream_busy', true],
    [500, 502, 'upstream_failed', true],
    [503, 503, 'upstream_unavailable', true],
    [400, 502, 'upstream_rejected', false],
    [403, 502, 'upstream_rejected', false],
  ] as const)('maps HTTP %i to %i %s (retryable %s)', (status, httpStatus, code, retryable) => {
    const err = geminiFailure(new ApiError({ status, message: '{"error":{}}' }));
    expect(err).toMatchObject({ status: httpStatus, code, retryable });
    expect(err.message).toMatch(/\.$/);
  });

  it('treats network errors as transient and aborts as cancelled', () => {
    expect(geminiFailure(new TypeError('fetch failed'))).toMatchObject({ code: 'upstream_unavailable', status: 503, retryable: true });
    const controller = new AbortController();
    controller.abort();
    expect(geminiFailure(new Error('x'), controller.signal).code).toBe('aborted');
  });

  it('reports blocked prompts and withheld answers as a sentence to rephrase', () => {
    expect(blockedFailure('SAFETY', undefined)?.message).toMatch(/rephrase/);
    expect(blockedFailure(undefined, 'PROHIBITED_CONTENT')?.retryable).toBe(false);
    expect(blockedFailure(undefined, 'STOP')).toBeNull();
    expect(blockedFailure(undefined, 'MAX_TOKENS')).toBeNull();
  });
});
