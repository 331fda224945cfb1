import { ApiError as GeminiApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { geminiFailure } from '../core/gemini/errors';
import { SearchError } from '../core/search-error';
import { refusal } from './search-reply';

const failed = (error: SearchError) => refusal({ kind: 'failed', searchId: 1, error, delivered: false, firstTextAt: null });

describe("a failed search's reply status (api maps SearchError codes to HTTP in one place)", () => {
  it.each([
    [429, 429],
    [500, 502],
    [503, 503],
    [400, 502],
  ] as const)("answers Gemini's %i with %i and the error's sentence", (geminiStatus, httpStatus) => {
    const error = geminiFailure(new GeminiApiError({ status: geminiStatus, message: '{"error":{}}' }));
    expect(failed(error)).toMatchObject({ status: httpStatus, message: error.message });
  });

  it('answers a refused website with 400 and one that could not be read with 502', () => {
    expect(failed(new SearchError('website_refused', 'Use a public website.', false)).status).toBe(400);
    expect(failed(new SearchError('website_failed', 'We could not read the website.', false)).status).toBe(502);
  });
});
