import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { describe, expect, it } from 'vitest';
import { captureLogs } from '../../test/support/logs';
import type { AppEnv } from '../deps';
import { loggedPath, requestLog } from './request-log';

describe('request log', () => {
  it('keeps no feed or unsubscribe token', async () => {
    const logs = captureLogs();
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set('user', null);
      await next();
    });
    app.use(requestId());
    app.use(requestLog(logs.logger));
    app.all('*', (c) => c.text('ok'));
    const feedToken = 'f3Kq9-secretFeedToken_AbC';
    const unsubscribeToken = 'u7Zt2-secretUnsubscribeToken_XyZ';
    for (const path of [
      `/feeds/${feedToken}.ics`,
      `/feeds/${feedToken}.atom`,
      `/feeds/${feedToken}`,
      `/unsubscribe/${unsubscribeToken}`,
      `/unsubscribe/${unsubscribeToken}/undo`,
      '/api/timers/4/runs',
    ]) {
      await app.request(path, { method: path.endsWith('/undo') ? 'POST' : 'GET' });
    }
    const paths = logs.lines.filter((l) => l.msg === 'request').map((l) => l.path);
    expect(paths).toEqual([
      '/feeds/[token].ics',
      '/feeds/[token].atom',
      '/feeds/[token]',
      '/unsubscribe/[token]',
      '/unsubscribe/[token]/undo',
      '/api/timers/4/runs',
    ]);
    const written = JSON.stringify(logs.lines);
    expect(written).not.toContain(feedToken);
    expect(written).not.toContain(unsubscribeToken);
  });

  it('logs one line per request at info, through a logger that names the request, and none above info', async () => {
    const logs = captureLogs();
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set('user', null);
      await next();
    });
    app.use(requestId());
    app.use(requestLog(logs.logger));
    app.get('/quiet', (c) => c.text('ok'));
    app.get('/noisy', (c) => {
      c.get('log').warn({ why: 'a test' }, 'something to say');
      return c.text('ok');
    });

    const quiet = await app.request('/quiet', { headers: { 'x-request-id': 'req-1' } });
    expect(quiet.headers.get('x-request-id')).toBe('req-1');
    expect(logs.lines).toMatchObject([{ msg: 'request', requestId: 'req-1', method: 'GET', path: '/quiet', status: 200 }]);
    expect(logs.lines).toHaveLength(1);

    logs.lines.length = 0;
    await app.request('/noisy', { headers: { 'x-request-id': 'req-2' } });
    expect(logs.lines).toMatchObject([
      { msg: 'something to say', requestId: 'req-2', why: 'a test', level: 40 },
      { msg: 'request', requestId: 'req-2', path: '/noisy' },
    ]);
    expect(logs.lines).toHaveLength(2);

    logs.logger.level = 'warn';
    logs.lines.length = 0;
    const unlogged = await app.request('/quiet');
    expect(unlogged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(logs.lines).toEqual([]);
  });

  it('leaves other paths as they are', () => {
    expect(loggedPath('/api/timers/7/feed-token')).toBe('/api/timers/7/feed-token');
    expect(loggedPath('/feedsX/abc')).toBe('/feedsX/abc');
  });
});
