import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalServices } from './local-services';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `node --import tsx dev/services/with-services.ts <command> [args…]`: runs the command with Postgres and Redis
 * there (dev/services/local-services.ts decides which), then stops what it started and exits with the command's
 * code. The Makefile's migrate, db and bench, and so CI, go through it.
 */
async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (!command) throw new Error('usage: with-services.ts <command> [args…]');
  try {
    process.loadEnvFile(path.join(ROOT, '.env'));
  } catch {
    // No .env: the environment alone says what is set.
  }
  const services = await startLocalServices({ env: process.env, stateDir: path.join(ROOT, '.dev-state'), purpose: 'dev' });
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...services.env } });
  // Ctrl-C reaches the command from the terminal itself; a SIGTERM or SIGHUP sent to this process is passed on.
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  const code = await new Promise<number>((resolve) => {
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
    child.once('error', (err) => {
      console.error(`Could not run ${command}: ${err.message}`);
      resolve(127);
    });
  });
  await services.stop();
  process.exit(code);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
