import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiStandin } from '../../dev/standins/gemini';
import { createGemini } from '../clients';
import { loadConfig } from '../config';
import { trafficOf } from './connections';
import { sentWhen } from './send-gate';

const MODEL = 'gemini-flash-lite-latest';

describe('a request to Gemini built under a send gate', () => {
  const standin = createGeminiStandin({ chunkDelayMs: 0 });
  const server = createAdaptorServer({ fetch: standin.app.fetch });
  let gemini: ReturnType<typeof createGemini>;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    gemini = createGemini(loadConfig({ GEMINI_API_KEY: 'test-key', GEMINI_BASE_URL: url, LOG_LEVEL: 'silent' }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ask = (question: string) => gemini.models.generateContent({ model: MODEL, contents: question });
  const asked = (question: string) => standin.state.recentRequests.some((r) => r.prompt.includes(question));

  it('leaves only once the gate opens', async () => {
    let open!: (send: boolean) => void;
    const gate = new Promise<boolean>((resolve) => (open = resolve));
    const gated = sentWhen(gate, () => ask('gated: AI meetups in Lisbon'));
    // A request made after it, without a gate, is answered while the gated one still waits.
    const sentBefore = trafficOf(gemini)!.sent;
    await ask('ungated: AI meetups in Porto');
    expect(asked('ungated: AI meetups in Porto')).toBe(true);
    expect(asked('gated: AI meetups in Lisbon')).toBe(false);
    // Counted as sent when it is handed to a connection, not when it is built.
    expect(trafficOf(gemini)!.sent).toBe(sentBefore + 1);
    open(true);
    await gated;
    expect(asked('gated: AI meetups in Lisbon')).toBe(true);
    expect(trafficOf(gemini)!.sent).toBe(sentBefore + 2);
  });

  it('never leaves when the gate says no, or fails, and ends as an aborted request', async () => {
    const closed = sentWhen(Promise.resolve(false), () => ask('refused: AI meetups in Faro'));
    await expect(closed).rejects.toMatchObject({ name: 'AbortError' });
    const failed = sentWhen(Promise.reject(new Error('Redis went away')), () => ask('failed: AI meetups in Braga'));
    await expect(failed).rejects.toMatchObject({ name: 'AbortError' });
    // Both are decided before this later request is made, so neither can still arrive after it.
    await ask('after: AI meetups in Coimbra');
    expect(asked('refused: AI meetups in Faro')).toBe(false);
    expect(asked('failed: AI meetups in Braga')).toBe(false);
  });

  it('leaves requests made outside a gate alone', async () => {
    const before = standin.state.requests;
    await Promise.all([ask('free: AI meetups in Madrid'), sentWhen(Promise.resolve(true), () => ask('open: AI meetups in Sevilla'))]);
    expect(standin.state.requests).toBe(before + 2);
  });
});
