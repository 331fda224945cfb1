import type { Model } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { describeThinking, familyOfModelInfo, familyOfName, overrideOf } from './thinking';

describe('thinking settings per model family', () => {
  it.each([
    ['gemini-2.5-flash', { thinkingBudget: 0 }],
    ['gemini-2.5-flash-lite', { thinkingBudget: 0 }],
    ['models/gemini-2.5-flash-preview-09-2025', { thinkingBudget: 0 }],
    ['gemini-2.5-pro', null],
    ['gemini-3-flash-preview', { thinkingLevel: 'MINIMAL' }],
    ['gemini-3.5-flash', { thinkingLevel: 'MINIMAL' }],
    ['gemini-3.6-flash', { thinkingLevel: 'MINIMAL' }],
    ['gemini-3.7-flash', { thinkingLevel: 'LOW' }],
    ['gemini-3.8-flash', { thinkingLevel: 'LOW' }],
    ['gemini-3.9-flash', { thinkingLevel: 'LOW' }],
    ['gemini-3.1-flash-lite', { thinkingLevel: 'MINIMAL' }],
    ['gemini-3.5-flash-lite', { thinkingLevel: 'MINIMAL' }],
    ['gemini-3.1-pro-preview', { thinkingLevel: 'LOW' }],
    ['gemini-3-pro-preview', { thinkingLevel: 'LOW' }],
  ])('%s gets %o', (name, thinking) => {
    expect(familyOfName(name)?.thinking).toEqual(thinking);
  });

  it('has no row for aliases, older or later generations, or other names: those are asked of models.get', () => {
    for (const name of [
      'gemini-flash-latest',
      'gemini-pro-latest',
      'gemini-2.0-flash',
      'gemini-4-flash',
      'gemma-4-31b-it',
      'my-tuned-model',
    ]) {
      expect(familyOfName(name)).toBeNull();
    }
  });

  // The fields as the real models.get answers them (version, displayName; no baseModelId).
  const info = (fields: Partial<Model>): Model => ({ thinking: true, ...fields });

  it('resolves an alias by its line, since models.get does not name the model behind it', () => {
    const flash = info({ name: 'models/gemini-flash-latest', version: 'Gemini Flash Latest', displayName: 'Gemini Flash Latest' });
    expect(familyOfModelInfo('gemini-flash-latest', flash).thinking).toEqual({ thinkingLevel: 'LOW' });
    const lite = info({ version: 'Gemini Flash-Lite Latest', displayName: 'Gemini Flash-Lite Latest' });
    expect(familyOfModelInfo('gemini-flash-lite-latest', lite).thinking).toEqual({ thinkingLevel: 'MINIMAL' });
    const pro = info({ version: 'Gemini Pro Latest', displayName: 'Gemini Pro Latest' });
    expect(familyOfModelInfo('models/gemini-pro-latest', pro).thinking).toEqual({ thinkingLevel: 'LOW' });
  });

  it('uses a version or display name that names a family, and sends nothing for a model that does not think or is unknown', () => {
    expect(familyOfModelInfo('some-preview', info({ version: '3.6-flash-07-2026' })).thinking).toEqual({ thinkingLevel: 'MINIMAL' });
    // gemini-3.8-flash really answers version "3.0"; its display name says which Flash it is.
    expect(familyOfModelInfo('x', info({ version: '3.0', displayName: 'Gemini 3.8 Flash' })).thinking).toEqual({ thinkingLevel: 'LOW' });
    expect(familyOfModelInfo('gemini-flash-latest', info({ thinking: false })).thinking).toBeNull();
    expect(familyOfModelInfo('gemma-4-31b-it', info({ version: '001', displayName: 'Gemma 4 31B IT' })).thinking).toBeNull();
  });

  it('lets GEMINI_THINKING force a level or none', () => {
    expect(overrideOf('auto')).toBeNull();
    expect(overrideOf('off')?.thinking).toBeNull();
    expect(overrideOf('medium')?.thinking).toEqual({ thinkingLevel: 'MEDIUM' });
    expect(describeThinking({ thinkingLevel: overrideOf('minimal')!.thinking!.thinkingLevel })).toBe('thinkingLevel minimal');
    expect(describeThinking({ thinkingBudget: 0 })).toBe('thinkingBudget 0');
  });
});
