import { availableParallelism } from 'node:os';
import { createGemini } from '../../core/clients';
import { loadConfig } from '../../core/config';
import { extractWithModel } from '../../core/events/model-extraction';
import { answerSearch, prepareSearch } from '../../core/search/index';
import { startStandins } from '../../dev/standins/server';

export interface GeminiFloor {
  /** CPU time of one run's Gemini calls, client and stand-in together. */
  cpuMsPerRun: number;
  /** The most runs per second the machine's cores could give if a run were nothing but those calls. */
  ceilingRunsPerSecond: number;
  cores: number;
}

/**
 * What a timer run's two Gemini calls cost on this machine with nothing else around them: the streamed answer and
 * the events extraction, through the product's own functions and the official client, answered at once by the
 * Gemini stand-in in this process. Measured as this process's CPU time, so it holds on a busy machine. The
 * workers bench's runs make exactly these calls, so no change to the worker, Postgres or Redis can take
 * throughput above the ceiling this gives.
 */
export async function measureGeminiFloor(runs = 1500, concurrency = 20): Promise<GeminiFloor> {
  const standins = await startStandins({
    port: 0,
    appUrl: 'http://127.0.0.1:9',
    googleClientId: 'local-standin.apps.googleusercontent.com',
    stripeWebhookSecret: 'whsec_local_standin',
  });
  try {
    standins.gemini.setChunkDelay(0);
    const config = loadConfig({ NODE_ENV: 'test', STANDIN_URL: standins.url, LOG_LEVEL: 'silent' });
    const deps = { config, gemini: createGemini(config) };
    const settings = { model: config.gemini.model, thinking: config.gemini.thinking };
    const oneRun = async (i: number) => {
      const prepared = await prepareSearch(deps, { question: `Kubernetes meetups #${i}`, website: '', timezone: 'UTC' });
      const result = await answerSearch(deps, prepared, () => {});
      await extractWithModel(deps.gemini, { settings, prompt: prepared.prompt, answer: result.answer });
    };
    const drain = async (count: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < count) await oneRun(next++);
        }),
      );
    };
    await drain(200);
    const before = process.cpuUsage();
    await drain(runs);
    const used = process.cpuUsage(before);
    const cpuMsPerRun = (used.user + used.system) / 1000 / runs;
    const cores = availableParallelism();
    return { cpuMsPerRun, ceilingRunsPerSecond: (cores * 1000) / cpuMsPerRun, cores };
  } finally {
    await standins.close();
  }
}
