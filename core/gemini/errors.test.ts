import { ApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { blockedFailure, configurationProblem, geminiFailure, isThinkingRefusal } from './errors';

describe('geminiFailure', () => {
  it.each([
    [429, 'upstream_busy', true],
    [500, 'upstream_failed', true],
    [503, 'upstream_unavailable', true],
    [400, 'upstream_rejected', false],
    [403, 'upstream_rejected', false],
  ] as const)('maps HTTP %i to %s (retryable %s)', (status, code, retryable) => {
    const err = geminiFailure(new ApiError({ status, message: '{"error":{}}' }));
    expect(err).toMatchObject({ code, retryable });
    expect(err.message).toMatch(/\.$/);
  });

  it('treats network errors as transient and aborts as cancelled', () => {
    expect(geminiFailure(new TypeError('fetch failed'))).toMatchObject({ code: 'upstream_unavailable', retryable: true });
    const controller = new AbortController();
    controller.abort();
    expect(geminiFailure(new Error('x'), controller.signal).code).toBe('aborted');
  });

  it('tells a deadline that ran out (a TimeoutError reason) from a cancel: the AI service took too long, retryable', () => {
    const err = geminiFailure(new Error('This operation was aborted'), AbortSignal.abort(new DOMException('late', 'TimeoutError')));
    expect(err).toMatchObject({ code: 'upstream_timeout', retryable: true });
    expect(err.message).toBe('The AI service took too long to answer. Please try again in a few minutes.');
  });

  it('reports blocked prompts and withheld answers as a sentence to rephrase', () => {
    expect(blockedFailure('SAFETY', undefined)?.message).toMatch(/rephrase/);
    expect(blockedFailure(undefined, 'PROHIBITED_CONTENT')?.retryable).toBe(false);
    expect(blockedFailure(undefined, 'STOP')).toBeNull();
    expect(blockedFailure(undefined, 'MAX_TOKENS')).toBeNull();
  });

  const refused = (status: number, message: string, extra: Record<string, unknown> = {}) =>
    new ApiError({ status, message: JSON.stringify({ error: { code: status, message, ...extra } }) });

  it('tells a refusal of the thinking settings from other refusals', () => {
    for (const message of [
      'Thinking level MINIMAL is not supported for this model. Please retry with other thinking level.',
      'The model does not support setting thinking_budget to 0',
      'Budget 0 is invalid. This model only works in thinking mode.',
      'You can only set only one of thinking budget and thinking level.',
    ]) {
      expect(isThinkingRefusal(refused(400, message, { status: 'INVALID_ARGUMENT' }))).toBe(true);
    }
    expect(
      isThinkingRefusal(
        refused(400, "Tool use with a response mime type: 'application/json' is unsupported", { status: 'INVALID_ARGUMENT' }),
      ),
    ).toBe(false);
    expect(isThinkingRefusal(refused(429, 'thinking quota', { status: 'RESOURCE_EXHAUSTED' }))).toBe(false);
    expect(isThinkingRefusal(new Error('thinking'))).toBe(false);
  });

  it('names what the operator must change for a missing model, a refused key or a refused request', () => {
    expect(configurationProblem(refused(404, 'models/x is not found', { status: 'NOT_FOUND' }), 'x')?.problem).toMatch(
      /^GEMINI_MODEL=x .* Set GEMINI_MODEL/,
    );
    const key = refused(400, 'API key not valid. Please pass a valid API key.', {
      status: 'INVALID_ARGUMENT',
      details: [{ reason: 'API_KEY_INVALID' }],
    });
    expect(configurationProblem(key, 'x')).toMatchObject({ about: 'key', problem: expect.stringMatching(/Set GEMINI_API_KEY/) });
    expect(configurationProblem(refused(400, 'Tool use ... unsupported', { status: 'INVALID_ARGUMENT' }), 'x')?.problem).toMatch(
      /Set GEMINI_MODEL/,
    );
    expect(configurationProblem(refused(503, 'overloaded'), 'x')).toBeNull();
    expect(configurationProblem(new TypeError('fetch failed'), 'x')).toBeNull();
  });
});
