import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiStandin } from '../../dev/standins/gemini';
import { createGemini } from '../clients';
import { loadConfig } from '../config';
import { keepGeminiConnectionsOpen } from './kept-open';

describe("an idle api keeps Gemini's connections open", () => {
  const standin = createGeminiStandin({ chunkDelayMs: 0 });
  const server = createAdaptorServer({ fetch: standin.app.fetch });
  // Connections the stand-in has accepted, so a look that reuses them opens none.
  let accepted = 0;
  server.on('connection', () => accepted++);
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('looks up the model on each kept connection unless as many asks kept them busy', async () => {
    const gemini = createGemini(loadConfig({ GEMINI_API_KEY: 'test-key', GEMINI_BASE_URL: url, LOG_LEVEL: 'silent' }));
    // The timer itself never fires here: each look is made by hand.
    const kept = keepGeminiConnectionsOpen(gemini, 'gemini-flash-lite-latest', 3, 3_600_000);
    try {
      const lookups = () => standin.state.modelLookups;

      // Nothing asked since the start: one lookup on each of three connections, opened for it.
      expect(await kept.refreshIfIdle()).toBe(3);
      expect(lookups()).toBe(3);
      expect(accepted).toBe(3);
      // Still nothing asked (the look's own lookups are no ask): on the connections already open (the pool may
      // open one more while one of them is still being handed back).
      expect(await kept.refreshIfIdle()).toBe(3);
      expect(lookups()).toBe(6);
      expect(accepted).toBeLessThanOrEqual(4);

      const ask = () => gemini.models.generateContent({ model: 'gemini-flash-lite-latest', contents: 'AI conferences in Berlin' });
      // One ask since the last look used one connection; the other two would go unused: all three are looked at.
      await ask();
      expect(await kept.refreshIfIdle()).toBe(3);
      expect(lookups()).toBe(9);

      // As many asks as kept connections since the last look: the process keeps them open by asking.
      await Promise.all([ask(), ask(), ask()]);
      expect(await kept.refreshIfIdle()).toBe(0);
      expect(lookups()).toBe(9);

      // Quiet again: the next look refreshes them.
      expect(await kept.refreshIfIdle()).toBe(3);
      expect(lookups()).toBe(12);
      // Twelve lookups and four asks on at most six connections: the kept ones were used again.
      expect(accepted).toBeLessThanOrEqual(6);
    } finally {
      kept.stop();
    }
  });
});
