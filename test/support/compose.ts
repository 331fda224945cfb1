import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { parse } from 'yaml';

export interface ComposeService {
  command?: string[];
  environment?: Record<string, string | number | null>;
  env_file?: unknown;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; interval?: string; timeout?: string; retries?: number; start_period?: string };
  stop_grace_period?: string;
  restart?: string;
  [key: string]: unknown;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
  [key: string]: unknown;
}

/** compose.yaml as Docker Compose reads it: YAML merge keys (`<<: *app`) resolved. */
export function loadCompose(file = 'compose.yaml'): ComposeFile {
  return parse(readFileSync(file, 'utf8'), { merge: true }) as ComposeFile;
}

/**
 * Compose's interpolation of `${VAR}`, `${VAR:-default}` and `${VAR-default}` from `vars` (the shell's
 * environment and the project's .env); `$$` is a literal `$`. The forms compose.yaml uses, not all of them.
 */
export function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?\}/g, (match, name, op, fallback) => {
    if (match === '$$') return '$';
    const v = vars[name as string];
    if (op === ':-') return v === undefined || v === '' ? (fallback as string) : v;
    if (op === '-') return v === undefined ? (fallback as string) : v;
    return v ?? '';
  });
}

/** A dotenv file's variables (Node's own parser, the one the app uses for .env). */
export function readEnvFile(file: string): Record<string, string> {
  return parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
}

/**
 * The environment a service's container starts with: the image's ENV, then the service's env_file (`dotEnv`,
 * the project's .env, when there is one), then its `environment` interpolated with the same .env, as Compose
 * orders them.
 */
export function serviceEnvironment(
  service: ComposeService,
  options: { imageEnv?: Record<string, string>; dotEnv?: Record<string, string> } = {},
): Record<string, string> {
  const env: Record<string, string> = { ...options.imageEnv, ...options.dotEnv };
  for (const [name, value] of Object.entries(service.environment ?? {})) {
    if (value === null) continue;
    env[name] = interpolate(String(value), options.dotEnv ?? {});
  }
  return env;
}
