import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { mcpOrigin } from '../mcp/origin';
import { registerTools, type V1Call } from '../mcp/tools';
import { followToolsSpecification } from '../mcp/unknown-tool';
import { bearerUser } from '../middleware/bearer';

const SERVER_INFO = { name: 'event-finder', version: '1.0.0' };

/**
 * POST /mcp: an MCP server over Streamable HTTP for the holder of a personal API token (docs/decisions/public-api-and-mcp.md). It is
 * stateless: each request gets its own server and transport and no session id, so any api process can answer
 * any request and nothing is kept in memory between them. GET (a standing event stream) and DELETE (ending a
 * session) have nothing to do without sessions and answer 405, which clients take as "not offered".
 * `app` is the whole HTTP app: each tool makes its /v1 call through it with the request's own Authorization.
 */
export function mcpRoutes(deps: AppDeps, app: (req: Request) => Response | Promise<Response>) {
  const routes = new Hono<AppEnv>();
  routes.use('/mcp', mcpOrigin(deps.config));
  routes.use('/mcp', bearerUser(deps.sql));

  routes.post('/mcp', async (c) => {
    const authorization = c.req.header('authorization')!;
    const v1: V1Call = (method, path, body, signal) =>
      Promise.resolve(
        app(
          new Request(new URL(path, c.req.url), {
            method,
            headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            body: body === undefined ? undefined : JSON.stringify(body),
            signal,
          }),
        ),
      );
    const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
    followToolsSpecification(server, registerTools(server, v1));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      // The reply is whole (JSON, not a stream): nothing more will be sent on this transport.
      await server.close();
    }
  });

  routes.on(['GET', 'DELETE'], '/mcp', (c) =>
    c.json(
      { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server takes POST only (stateless).' }, id: null },
      405,
      {
        Allow: 'POST',
      },
    ),
  );
  return routes;
}
