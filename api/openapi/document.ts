import * as z from 'zod/mini';
import { API_TOKEN_SCOPES } from '../../core/contract/api-tokens';
import { PROBLEM_MEDIA_TYPE, PROBLEMS, problemSchema } from '../../core/contract/problem';
import { IDEMPOTENCY_KEPT_S } from '../routes/v1/idempotency';
import { DELIVERY_ATTEMPTS } from '../../core/delivery/queue';
import { WEBHOOK_TIMEOUT_MS } from '../../core/delivery/webhook';
import { WEBHOOK_KINDS, type WebhookKind, webhookDeliverySchema } from '../../core/contract/webhook-delivery';
import { wireTypes } from '../../core/contract/wire-type';
import { OPERATIONS, type Operation } from './operations';

type Json = Record<string, unknown>;

/**
 * A contract schema as JSON Schema 2020-12, the dialect OpenAPI 3.1 uses (its `$schema` line is the document's).
 * A field the contract takes as it comes (`checkedLater`) is written as the type its rule accepts, and a field
 * the server cannot do without is listed in `required`. Anything else zod cannot write as JSON Schema throws,
 * so no field is ever documented as `{}` (any value).
 */
export function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    override: ({ zodSchema, jsonSchema: out }) => {
      const wire = wireTypes.get(zodSchema);
      if (wire) {
        for (const key of Object.keys(out)) delete (out as Json)[key];
        Object.assign(out, jsonSchema(wire.type, io));
      }
      const shape = (zodSchema as unknown as { _zod: { def: { type: string; shape?: Record<string, z.ZodMiniType> } } })._zod.def;
      if (shape.type !== 'object' || !shape.shape) return;
      const required = new Set((out as { required?: string[] }).required ?? []);
      for (const [key, field] of Object.entries(shape.shape)) if (wireTypes.get(field)?.required) required.add(key);
      if (required.size) (out as { required?: string[] }).required = [...required];
    },
  }) as Json;
  return rest;
}

// Declared once under components and referred to by every operation.
const PROBLEM = { $ref: '#/components/schemas/Problem' };
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RETRY_AFTER = { 'Retry-After': header('Retry-After') };
const RATE_LIMIT = { RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimit-Policy') };
const error = (description: string, headers?: Json) => ({
  description,
  headers: { ...RATE_LIMIT, ...headers },
  content: { [PROBLEM_MEDIA_TYPE]: { schema: PROBLEM } },
});

/** `/v1/timers/:id` → `/v1/timers/{id}`. */
export const openApiPath = (honoPath: string) => honoPath.replace(/:(\w+)/g, '{$1}');

const ID_OF = (path: string) => (path.startsWith('/v1/searches') ? 'The search’s id.' : 'The timer’s id, as GET /v1/timers lists it.');

/** The error codes a status may carry, for its description: a client branches on `code`. */
const codesOf = (status: number) =>
  Object.entries(PROBLEMS)
    .filter(([, p]) => p.status === status)
    .map(([code]) => `\`${code}\``)
    .join(', ');

function operationJson(op: Operation): Json {
  const replies: Record<string, Json> = {};
  for (const [status, reply] of Object.entries(op.replies)) {
    if (Number(status) >= 400) {
      replies[status] = error(reply.description, reply.headers);
      continue;
    }
    const content: Json = {};
    if (reply.schema) content['application/json'] = { schema: jsonSchema(reply.schema, 'output') };
    if (reply.media) content[reply.media.type] = { schema: { type: 'string', description: reply.media.description } };
    const headers = { headers: { ...RATE_LIMIT, ...reply.headers } };
    replies[status] = Object.keys(content).length
      ? { description: reply.description, ...headers, content }
      : { description: reply.description, ...headers };
  }
  if (op.method === 'get') replies['304'] = { description: 'Not modified: the reply would be the one your `If-None-Match` names.' };
  if (op.body || op.query) {
    replies['400'] ??= error(
      'The request is not what this call takes: `code` `validation`, `detail` says what to send and `field` names the field when one is at fault.',
    );
  }
  if (op.body) {
    replies['413'] = error('The body is over the size limit; send less (a shorter question or address).');
    replies['415'] = error('The body was not sent as JSON (`Content-Type: application/json`).');
  }
  replies['401'] = error('No token, or a token that is revoked or mistyped.');
  replies['403'] = error(`The token lacks the \`${op.scope}\` scope.`);
  if (op.path.includes(':id')) replies['404'] ??= error('No such one among yours.');
  if (op.method === 'post') {
    const inUse =
      'A request with the same `Idempotency-Key` is still being answered (`idempotency_key_in_use`); send it again once that one has ended.';
    replies['409'] = replies['409'] ? error(`${(replies['409'] as { description: string }).description} Or: ${inUse}`) : error(inUse);
    replies['422'] = error('This `Idempotency-Key` was used for a different request (`idempotency_key_reused`); use a new key.');
  }
  if (op.limited) {
    if (op.scope === 'search' || op.id === 'runTimer') replies['402'] = error('No searches left this month (`out_of_searches`).');
    replies['429'] = error(
      `Too many requests: the per-minute rate (\`rate_limited\`)${op.searches ? ', searches at once (`too_many_searches`) or a busy AI service (`gemini_busy`)' : ''}. \`Retry-After\` says when to try again.`,
      RETRY_AFTER,
    );
  }
  if (op.method === 'get') {
    replies['429'] = error(
      'Too many reads: the per-minute rate of GETs (`rate_limited`, `per-user-get` in `RateLimit`). `Retry-After` says when to try again.',
      RETRY_AFTER,
    );
  }
  if (op.searches) {
    replies['502'] = error(
      `The AI service failed or refused to answer, or the website could not be read (${codesOf(502)}); nothing was charged.`,
    );
  }
  const unavailable = `A service we need (the database, the queue or the AI service) is unavailable for a moment (${codesOf(503)}); \`Retry-After\` says when to try again.`;
  replies['503'] = replies['503']
    ? error((replies['503'] as { description: string }).description, RETRY_AFTER)
    : error(unavailable, RETRY_AFTER);
  const params: Json[] = [
    ...[...op.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      description: m[1] === 'channelId' ? 'The channel’s id, as its timer lists it in `channels`.' : ID_OF(op.path),
      schema: { type: 'integer', minimum: 1 },
    })),
    ...(op.query ?? []).map((q) => ({
      name: q.name,
      in: 'query',
      required: false,
      description: q.description,
      schema: q.schema ?? { type: 'string' },
    })),
    ...(op.method === 'post' ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  return {
    operationId: op.id,
    summary: op.summary,
    description: `${op.description}\n\nNeeds a token with the \`${op.scope}\` scope.`,
    security: [{ bearer: [op.scope] }],
    ...(params.length ? { parameters: params } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } } } : {}),
    responses: replies,
  };
}

/** What every operation refers to: the problem details, the rate and retry headers, the idempotency key. */
function componentsJson(): Json {
  const problem = jsonSchema(problemSchema, 'output') as { properties: Record<string, Json> };
  problem.properties.code = {
    ...problem.properties.code,
    description: `The kind of problem, stable for clients to branch on: ${Object.entries(PROBLEMS)
      .map(([code, p]) => `\`${code}\` (${p.status}, ${p.title})`)
      .join('; ')}.`,
  };
  return {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: `A personal API token (ef_…). Scopes: ${API_TOKEN_SCOPES.join(', ')}.`,
      },
    },
    schemas: {
      Problem: {
        ...problem,
        description: 'Every error of /v1: RFC 9457 problem details, sent as `application/problem+json`.',
      },
    },
    headers: {
      'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
      RateLimit: {
        description:
          'What is left of the per-user rate (IETF ratelimit-headers draft): `"per-user";r=<requests left>;t=<seconds until the window starts again>`; on a GET followed by the rate of reads, `, "per-user-get";r=<reads left>;t=<seconds>`.',
        schema: { type: 'string' },
      },
      'RateLimit-Policy': {
        description:
          'The per-user rate (IETF ratelimit-headers draft): `"per-user";q=<requests>;w=<window in seconds>`, the budget searches and timer changes draw on; on a GET followed by `, "per-user-get";q=<reads>;w=<window in seconds>`, the budget of reads.',
        schema: { type: 'string' },
      },
    },
    parameters: {
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: `A key you choose per request (a UUID), so a retry after a lost reply does not create or charge twice (IETF httpapi idempotency-key draft). A first successful (2xx) reply is kept ${IDEMPOTENCY_KEPT_S / 3600} hours: the same key with the same call and body replays it (status, body, content headers); with a different body it is refused (422), and while the first is still being answered, 409. A reply that is not 2xx is not kept (nothing was created or charged), so a retry with the key runs again. Keys are per token holder.`,
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    },
  };
}

const WEBHOOK_SUMMARY: Record<WebhookKind, string> = {
  digest: 'A run found new or changed events',
  paused: 'A timer paused itself after failing runs in a row',
  'out-of-searches': 'A run was skipped: no searches left this period',
};

const SIGNATURE_HEADERS = [
  ['webhook-id', 'The delivery’s id, the same on every retry of it: drop a repeat you have seen.'],
  ['webhook-timestamp', 'When this attempt was sent, in whole seconds since 1970 (UTC).'],
  [
    'webhook-signature',
    '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` keyed with your timer’s `whsec_` secret (Standard Webhooks); sent when the timer has a secret.',
  ],
] as const;

/**
 * The deliveries a timer's webhook receives, one entry per kind: the same body schema with `kind` fixed, the
 * Standard Webhooks headers, and what the receiver's reply means to us.
 */
function webhooksJson(): Json {
  const hooks: Json = {};
  for (const kind of WEBHOOK_KINDS) {
    const schema = jsonSchema(webhookDeliverySchema, 'output') as { properties: Json };
    schema.properties.kind = { type: 'string', const: kind };
    hooks[kind] = {
      post: {
        operationId: `webhook-${kind}`,
        summary: WEBHOOK_SUMMARY[kind],
        description:
          'Sent to the timer’s `webhook_url` as JSON. Verify it with an official Standard Webhooks library (see /api/docs, Webhooks) before you trust it; the secret is the `webhook_secret` PATCH /v1/timers/{id} returned when the webhook was set.',
        parameters: SIGNATURE_HEADERS.map(([name, description]) => ({
          name,
          in: 'header',
          required: name !== 'webhook-signature',
          description,
          schema: { type: 'string' },
        })),
        requestBody: { required: true, content: { 'application/json': { schema } } },
        responses: {
          '2XX': { description: 'Received: the delivery is done.' },
          default: {
            description: `Any other status, or no answer within ${WEBHOOK_TIMEOUT_MS / 1000} seconds: 408, 429 and 5xx (and no answer) are tried again with the same \`webhook-id\`, ${DELIVERY_ATTEMPTS} attempts in all, waiting 30 seconds and then twice as long each time (about 4 hours); other 4xx fail this delivery only. 410 Gone says the address will never work again: it is not retried, and the webhook is removed from the timer (the timer shows why) until a new \`webhook_url\` is set. Nothing else disables a webhook but removing it (PATCH \`webhook_url\` null).`,
          },
        },
      },
    };
  }
  return hooks;
}

/** The OpenAPI 3.1 document of /v1, made from OPERATIONS and the contract's schemas each time the app starts. */
export function openApiDocument(appUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    const path = openApiPath(op.path);
    paths[path] = { ...paths[path], [op.method]: operationJson(op) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Event Finder API',
      version: '1',
      description:
        'Search for events and keep timers from your own tools and agents. Make a personal API token on the plans page (API tokens), choose its scopes, and send it as `Authorization: Bearer <token>`. Searches cost the same credits as on the page and share its rate limits. Errors, limits, `Idempotency-Key` and CORS: /api/docs#errors. An MCP server with the same abilities is at /mcp (Streamable HTTP, same token).',
    },
    servers: [{ url: appUrl }],
    security: [{ bearer: [] }],
    components: componentsJson(),
    paths,
    webhooks: webhooksJson(),
  };
}
