import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

// Used when the request did not come through the Node server (app.request() in tests): one shared bucket.
const UNKNOWN_IP = 'unknown';

/**
 * The client's address for per-IP limits. Behind `trustedProxyHops` proxies, each appends the address it saw
 * to X-Forwarded-For, so the entry that many places from the right is the one our nearest trusted proxy
 * received the request from; entries further left are whatever the client wrote and cannot be trusted.
 */
export function clientIp(c: Context, trustedProxyHops: number): string {
  if (trustedProxyHops > 0) {
    const forwarded = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (forwarded.length > 0) return forwarded[Math.max(forwarded.length - trustedProxyHops, 0)]!;
  }
  try {
    return getConnInfo(c).remote.address ?? UNKNOWN_IP;
  } catch {
    return UNKNOWN_IP;
  }
}
