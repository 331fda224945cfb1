import { describe, expect, it } from 'vitest';
import { allowedMethods, noRoute } from './method-guard';

describe('a /v1 request no route took', () => {
  it('names the methods of the route the path names word for word, not those of a route whose id it could be', () => {
    expect(allowedMethods('/v1/timers/describe')).toEqual(['POST', 'OPTIONS']);
    const refused = noRoute('GET', '/v1/timers/describe');
    expect(refused.status).toBe(405);
    expect(refused.message).toBe('/v1/timers/describe does not take GET; it takes POST.');
    expect(refused.options.headers).toEqual({ Allow: 'POST, OPTIONS' });
  });

  it('still names a timer’s methods for its id, and 404 for a path no route has', () => {
    expect(allowedMethods('/v1/timers/12')).toEqual(['PATCH', 'DELETE', 'OPTIONS']);
    expect(allowedMethods('/v1/timers')).toEqual(['GET', 'POST', 'HEAD', 'OPTIONS']);
    expect(noRoute('GET', '/v1/nothing-here').status).toBe(404);
  });
});
