import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import openapiTS, { astToString } from 'openapi-typescript';
import { Webhook } from 'standardwebhooks';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../api/openapi/document';
import type { Event } from '../core/contract/event';
import { WEBHOOK_KINDS } from '../core/contract/webhook-delivery';
import { webhookPayload } from '../core/delivery/webhook-payload';
import { newWebhookSecret, webhookSignatureHeaders } from '../core/delivery/webhook-signature';

type Json = Record<string, unknown>;
const doc = () => openApiDocument('https://events.example') as Json & { paths: Json; webhooks: Json };

/** Every schema in the document with where it is, walking into properties, items and the combinators. */
function schemasOf(node: unknown, at: string, out: { at: string; schema: Json }[] = []): { at: string; schema: Json }[] {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) schemasOf(n, `${at}/${i}`, out);
    return out;
  }
  for (const [key, value] of Object.entries(node as Json)) {
    const here = `${at}/${key}`;
    if (key === 'schema' || key === 'items') walkSchema(value, here, out);
    else schemasOf(value, here, out);
  }
  return out;
}
function walkSchema(schema: unknown, at: string, out: { at: string; schema: Json }[]): void {
  if (!schema || typeof schema !== 'object') return;
  const s = schema as Json;
  out.push({ at, schema: s });
  for (const [k, v] of Object.entries((s.properties as Json) ?? {})) walkSchema(v, `${at}/properties/${k}`, out);
  if (s.items) walkSchema(s.items, `${at}/items`, out);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const [i, x] of ((s[key] as unknown[]) ?? []).entries()) walkSchema(x, `${at}/${key}/${i}`, out);
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    walkSchema(s.additionalProperties, `${at}/additionalProperties`, out);
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc()) as never)).resolves.toBeTruthy();
  });

  it('types every schema: none is left as {} (any value)', () => {
    const untyped = schemasOf(doc(), '')
      .filter(({ schema }) => !['type', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', '$ref'].some((k) => k in schema))
      .map(({ at }) => at);
    expect(untyped).toEqual([]);
  });

  it("createTimer's body names its fields' types and which ones the server needs", () => {
    const body = (doc().paths as Json & { '/v1/timers': { post: { requestBody: { content: Json } } } })['/v1/timers'].post.requestBody
      .content['application/json'] as { schema: { properties: Json; required: string[] } };
    // A timer without `timezone` is UTC on /v1.
    expect(body.schema.required.sort()).toEqual(['ques', 'scheduleType', 'time']);
    expect(body.schema.properties.scheduleType).toEqual({ type: 'string', enum: ['daily', 'weekly'] });
  });

  it('lists every status the server sends, each error as problem details, and the headers clients read', () => {
    const paths = doc().paths as Record<string, Record<string, { responses: Record<string, { headers?: Json; content?: Json }> }>>;
    const search = paths['/v1/search']!.post!.responses;
    for (const status of ['200', '400', '401', '402', '403', '413', '415', '429', '502', '503']) expect(search).toHaveProperty(status);
    expect(paths['/v1/search/stream']!.post!.responses['200']!.headers).toHaveProperty('X-Search-Id');
    expect(Object.keys(search['200']!.content!)).toEqual(['application/json']);
    expect(search['200']!.headers).toHaveProperty('RateLimit');
    for (const status of ['409', '422']) expect(search).toHaveProperty(status);
    expect(search['429']!.headers).toHaveProperty('Retry-After');
    expect(search['503']!.headers).toHaveProperty('Retry-After');
    const run = paths['/v1/timers/{id}/run']!.post!.responses;
    for (const status of ['202', '401', '402', '403', '404', '409', '429', '503']) expect(run).toHaveProperty(status);
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, reply] of Object.entries(op.responses)) {
          if (Number(status) >= 400) {
            expect(reply.content, `${method} ${path} ${status} is problem details`).toEqual({
              'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
            });
          }
          if (status === '429' || status === '503') expect(reply.headers, `${method} ${path} ${status}`).toHaveProperty('Retry-After');
        }
      }
    }
    expect((paths['/v1/timers/{id}']!.patch as unknown as { description: string }).description).toMatch(/replaced whole/);
  });

  it('a client generated from it (openapi-typescript) refuses {scheduleType: 42} at compile time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(doc() as never)));
    writeFileSync(
      join(dir, 'use.ts'),
      [
        "import type { paths } from './api';",
        "type CreateTimer = paths['/v1/timers']['post']['requestBody']['content']['application/json'];",
        "export const good: CreateTimer = { scheduleType: 'weekly', time: '09:00', weekday: 'Monday', timezone: 'Europe/Berlin', ques: 'AI meetups', web: '' };",
        "export const bad: CreateTimer = { scheduleType: 42, time: '09:00', timezone: 'Europe/Berlin', ques: 'AI meetups' };",
        "export const missing: CreateTimer = { time: '09:00', timezone: 'Europe/Berlin', ques: 'AI meetups' };",
        "type Ask = paths['/v1/search']['post']['requestBody']['content']['application/json'];",
        'export const noQuestion: Ask = {};',
        "type Found = paths['/v1/search']['post']['responses']['200']['content']['application/json'];",
        'export const searchId = (found: Found): number => found.id;',
        "type Streamed = paths['/v1/search/stream']['post']['responses']['200']['content']['text/plain'];",
        'export const answerText = (text: Streamed): string => text;',
        "type Refused = paths['/v1/timers']['post']['responses']['429']['content']['application/problem+json'];",
        "export const isRate = (p: Refused): boolean => p.code === 'rate_limited' && p.status === 429;",
      ].join('\n'),
    );
    // Only the ES library and no @types: the generated types need nothing else, and loading less keeps it quick.
    const program = ts.createProgram([join(dir, 'use.ts')], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      lib: ['lib.es2022.d.ts'],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName.endsWith('use.ts'))
      .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1);
    // Line 3 (good) compiles; line 4 (scheduleType: 42), line 5 (no scheduleType) and line 7 (no ques) do not;
    // the replies are used as their types without a cast or narrowing.
    expect([...new Set(errors)].sort()).toEqual([4, 5, 7]);
  }, 120_000);
});

describe('the webhooks it documents', () => {
  const ajv = new Ajv2020({ strict: false });
  const event: Event = {
    key: 'ai-summit-berlin|2026-12-03',
    title: 'AI Summit Berlin',
    starts_at: '2026-12-03T09:00:00+01:00',
    ends_at: null,
    all_day: false,
    timezone: 'Europe/Berlin',
    timezone_source: 'venue',
    venue: 'Kosmos',
    city: 'Berlin',
    online: false,
    url: 'https://ai-summit.example/berlin',
    source_url: 'https://ai-summit.example/berlin',
    status: 'scheduled',
    new: true,
    verification: { status: 'confirmed', source_url: 'https://ai-summit.example/berlin', model_starts_at: null },
  };
  for (const kind of WEBHOOK_KINDS) {
    it(`a ${kind} delivery is verified by the Standard Webhooks library and matches its schema`, async () => {
      const hook = (doc().webhooks as Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }>)[kind];
      expect(hook, `webhooks.${kind} is documented`).toBeDefined();
      const body = JSON.stringify(
        webhookPayload({
          kind,
          timer: { id: 7, question: 'AI meetups in Berlin', website: '', timezone: 'Europe/Berlin' },
          run: { id: 12, scheduledFor: new Date('2026-11-27T08:00:00Z'), status: kind === 'digest' ? 'succeeded' : 'failed', error: null },
          events: kind === 'digest' ? [event] : [],
          runsUrl: 'https://events.example/?timer=7',
        }),
      );
      const secret = newWebhookSecret();
      const headers = webhookSignatureHeaders(secret, 'msg_delivery_1', body);
      const verified = new Webhook(secret).verify(body, headers) as { kind: string };
      expect(verified.kind).toBe(kind);
      expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
      const validate = ajv.compile(hook!.post.requestBody.content['application/json']!.schema);
      expect(validate(verified) ? null : validate.errors).toBeNull();
    });
  }
});
