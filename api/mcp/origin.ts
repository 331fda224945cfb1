import { createMiddleware } from 'hono/factory';
import type { Config } from '../../core/config';
import type { AppEnv } from '../deps';

/**
 * The MCP specification's guard against DNS rebinding: a request whose `Origin` is present and not one we
 * serve is refused with 403 before anything else is read. No Origin (an agent's HTTP client, curl) is fine; a
 * browser page may call only from APP_URL's origin or one listed in MCP_ALLOWED_ORIGINS.
 */
export function mcpOrigin(config: Pick<Config, 'appOrigin' | 'mcpAllowedOrigins'>) {
  const allowed = new Set([config.appOrigin, ...config.mcpAllowedOrigins]);
  return createMiddleware<AppEnv>(async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || allowed.has(origin.toLowerCase())) return next();
    return c.json(
      {
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: `Requests from the web page at ${origin} may not use this MCP server. Call it from an MCP client (no Origin header), or ask the operator to add that origin to MCP_ALLOWED_ORIGINS.`,
        },
        id: null,
      },
      403,
    );
  });
}
