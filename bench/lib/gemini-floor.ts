import { availableParallelism } from 'node:os';
import { createGemini } from '../../core/clients';
import { loadConfig } from '../../core/config';
import { extractWithModel } from '../../core/events/model-extraction';
import { answerSearch, prepareSearch } from '../../core/search/index';
import { startChild } from '../../dev/harness/processes';
import { procCpuMs } from './proc-cpu';

export interface GeminiFloor {
  /** CPU time of one run's Gemini calls: the client's (the product's code and the official client) and the stand-in's. */
  clientMsPerRun: number;
  standinMsPerRun: number;
  /** The most runs per second the machine's cores could give if a run were nothing but those calls. */
  ceilingRunsPerSecond: number;
  cores: number;
}

/**
 * What a timer run's two Gemini calls cost on this machine with nothing else around them: the answer (asked for
 * whole, as a run asks for it) and the events extraction, through the product's own functions and the official client, answered at once by the
 * Gemini stand-in in a process of its own. CPU time of each process, so it holds on a busy machine. The workers
 * bench's runs make exactly these calls, so no change to the worker, Postgres or Redis can take throughput above
 * the ceiling this gives.
 */
export async function measureGeminiFloor(runs = 1500, concurrency = 20): Promise<GeminiFloor> {
  const standin = await startChild(['--import', 'tsx', 'bench/lib/gemini-standin-child.ts'], {}, { readyPath: '/sites/' });
  try {
    const config = loadConfig({ NODE_ENV: 'test', GEMINI_API_KEY: 'bench', GEMINI_BASE_URL: standin.url, LOG_LEVEL: 'silent' });
    const deps = { config, gemini: createGemini(config) };
    const settings = { model: config.gemini.model, thinking: config.gemini.thinking };
    const oneRun = async (i: number) => {
      const prepared = await prepareSearch(deps, { question: `Kubernetes meetups #${i}`, website: '', timezone: 'UTC' });
      const result = await answerSearch(deps, prepared, () => {}, undefined, 'whole');
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
    const before = { client: process.cpuUsage(), standin: procCpuMs(standin.pid) };
    await drain(runs);
    const client = process.cpuUsage(before.client);
    const clientMsPerRun = (client.user + client.system) / 1000 / runs;
    const standinMsPerRun = (procCpuMs(standin.pid) - before.standin) / runs;
    const cores = availableParallelism();
    return { clientMsPerRun, standinMsPerRun, ceilingRunsPerSecond: (cores * 1000) / (clientMsPerRun + standinMsPerRun), cores };
  } finally {
    await standin.stop();
  }
}
