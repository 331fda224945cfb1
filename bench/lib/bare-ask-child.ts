import { createServer } from 'node:http';
import { GoogleGenAI } from '@google/genai';
import { loadConfig } from '../../core/config';
import { answerSearch, prepareSearch } from '../../core/search/index';

/**
 * The floor under /api/ask's added first byte (bench/stream.ts): the product's own Gemini call (prompt, official
 * client, stream reading) behind a bare node:http handler, with no framework, session, rate limit, search slot,
 * credit or search record. Any ask the design allows carries at least this. It answers every POST on PORT with
 * the streamed text as plain text, and GET /healthz with 200 once it listens. Its environment is the api's, so
 * it asks the same model, with the same settings, of the same stand-in.
 */
const config = loadConfig(process.env);
// The official client as it comes (its default connections), not the product's createGemini.
const gemini = new GoogleGenAI({
  apiKey: config.gemini.apiKey,
  ...(config.gemini.baseUrl ? { httpOptions: { baseUrl: config.gemini.baseUrl } } : {}),
});
const deps = { config, gemini };

createServer(async (req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(req.url === '/healthz' ? 200 : 404).end();
    return;
  }
  try {
    let body = '';
    for await (const chunk of req) body += chunk;
    const { ques, timezone } = JSON.parse(body) as { ques: string; timezone: string };
    const prepared = await prepareSearch(deps, { question: ques, website: '', timezone });
    await answerSearch(deps, prepared, (text) => {
      if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.write(text);
    });
    res.end();
  } catch (err) {
    if (res.headersSent) res.destroy(err as Error);
    else res.writeHead(502, { 'content-type': 'text/plain' }).end(String(err));
  }
}).listen(Number(process.env.PORT), '127.0.0.1');
// Stopped with SIGTERM: exits as a process that ended, so `--cpu-prof` (STREAM_CPU_PROF) writes its profile.
process.on('SIGTERM', () => process.exit(0));
