import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createGeminiStandin } from '../standins/gemini';

/**
 * The Gemini stand-in served on a free loopback port for one describe block, with the official client pointed
 * at it; reset before each test. `gemini` is set once the server listens (in beforeAll).
 */
export function useGeminiStandin(options: Parameters<typeof createGeminiStandin>[0] = {}) {
  const standin = createGeminiStandin(options);
  const server = createAdaptorServer({ fetch: standin.app.fetch });
  const served = { standin, gemini: null as unknown as GoogleGenAI };
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    served.gemini = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: `http://127.0.0.1:${port}` } });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => standin.reset());
  return served;
}
