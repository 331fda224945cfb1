import * as z from 'zod/mini';
import { API_TOKEN_SCOPES } from '../../core/contract/api-tokens';
import { errorReplySchema } from '../../core/contract/errors';
import { OPERATIONS, type Operation } from './operations';

type Json = Record<string, unknown>;

/** A contract schema as JSON Schema 2020-12, the dialect OpenAPI 3.1 uses (its `$schema` line is the document's). */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
  return rest;
}

const ERROR = jsonSchema(errorReplySchema, 'output');
const error = (description: string) => ({ description, content: { 'application/json': { schema: ERROR } } });

/** `/v1/timers/:id` → `/v1/timers/{id}`. */
export const openApiPath = (honoPath: string) => honoPath.replace(/:(\w+)/g, '{$1}');

const ID_OF = (path: string) => (path.startsWith('/v1/searches') ? 'The search’s id.' : 'The timer’s id, as GET /v1/timers lists it.');

function operationJson(op: Operation): Json {
  const replies: Record<string, Json> = {};
  for (const [status, reply] of Object.entries(op.replies)) {
    const content: Json = {};
    if (reply.schema) content['application/json'] = { schema: jsonSchema(reply.schema, 'output') };
    if (reply.media) content[reply.media.type] = { schema: { type: 'string', description: reply.media.description } };
    replies[status] = Object.keys(content).length ? { description: reply.description, content } : { description: reply.description };
  }
  if (op.method === 'get') replies['304'] = { description: 'Not modified: the reply would be the one your `If-None-Match` names.' };
  if (op.body || op.query) replies['400'] ??= error('The request is not what this call takes; the message says what to send.');
  if (op.body) replies['415'] = error('The body was not sent as JSON (`Content-Type: application/json`).');
  replies['401'] = error('No token, or a token that is revoked or mistyped.');
  replies['403'] = error(`The token lacks the \`${op.scope}\` scope.`);
  if (op.path.includes(':id')) replies['404'] = error('No such one among yours.');
  if (op.limited) {
    if (op.scope === 'search' || op.id === 'runTimer') replies['402'] = error('No searches left this month.');
    replies['429'] = error('Too many requests (or searches at once); `Retry-After` says when to try again.');
  }
  const params = [
    ...[...op.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      description: ID_OF(op.path),
      schema: { type: 'integer', minimum: 1 },
    })),
    ...(op.query ?? []).map((q) => ({
      name: q.name,
      in: 'query',
      required: false,
      description: q.description,
      schema: { type: 'string' },
    })),
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
        'Search for events and keep timers from your own tools and agents. Make a personal API token on the plans page (API tokens), choose its scopes, and send it as `Authorization: Bearer <token>`. Searches cost the same credits as on the page and share its rate limits. An MCP server with the same abilities is at /mcp (Streamable HTTP, same token).',
    },
    servers: [{ url: appUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: `A personal API token (ef_…). Scopes: ${API_TOKEN_SCOPES.join(', ')}.`,
        },
      },
    },
    paths,
  };
}
