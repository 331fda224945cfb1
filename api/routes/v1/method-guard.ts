import { OPERATIONS } from '../../openapi/operations';
import { ApiError } from '../../errors';

const routes = OPERATIONS.map((op) => ({
  method: op.method.toUpperCase(),
  re: new RegExp(`^${op.path.replace(/:\w+/g, '[^/]+')}$`),
  params: op.path.split(':').length - 1,
}));

/**
 * The methods /v1 answers at `path` (HEAD with GET, OPTIONS for CORS preflights); empty for an unknown path. A
 * path a route names word for word is that route's alone: /v1/timers/describe is not a timer's id.
 */
export function allowedMethods(path: string): string[] {
  const matching = routes.filter((r) => r.re.test(path));
  const fewest = Math.min(...matching.map((r) => r.params));
  const methods = matching.filter((r) => r.params === fewest).map((r) => r.method);
  if (methods.length === 0) return [];
  if (methods.includes('GET')) methods.push('HEAD');
  return [...methods, 'OPTIONS'];
}

/** The refusal of a /v1 request no route took: 405 with `Allow` for a known path, else 404. */
export function noRoute(method: string, path: string): ApiError {
  const allowed = allowedMethods(path);
  if (allowed.length === 0) {
    return new ApiError(404, 'There is no such API route. The calls are listed at /api/docs and in /api/openapi.json.');
  }
  return new ApiError(
    405,
    `${path} does not take ${method}; it takes ${allowed.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').join(', ')}.`,
    {
      headers: { Allow: allowed.join(', ') },
    },
  );
}
