import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';

export function mcpRoutes(_deps: AppDeps, _fetch: (req: Request) => Response | Promise<Response>) {
  return new Hono<AppEnv>();
}
