import { serve } from '@hono/node-server';
import { createGeminiStandin } from '../../dev/standins/gemini';

/**
 * The Gemini stand-in alone in a process of its own, answering at once, on PORT: so a benchmark can count the
 * client's CPU and the stand-in's apart (bench/lib/gemini-floor.ts). Served as the stand-ins always are.
 */
const gemini = createGeminiStandin({ chunkDelayMs: 0 });
serve({ fetch: gemini.app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
