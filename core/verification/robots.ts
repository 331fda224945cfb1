import robotsParser from 'robots-parser';
import type { RedisClient } from '../redis/client';
import { SearchError } from '../search-error';
import { fetchWebsite, type WebsiteFetchOptions } from '../website/fetch';

/** The product token robots.txt groups are matched against (RFC 9309). */
export const ROBOTS_TOKEN = 'EventFinder';
/** How long a site's robots.txt is trusted: short, so a site that changes its mind is heard within minutes. */
export const ROBOTS_CACHE_SECONDS = 15 * 60;
const ROBOTS_MAX_BYTES = 500 * 1024;
const ROBOTS_TIMEOUT_MS = 3_000;

/** What a site's robots.txt says, as cached: its rules, or everything allowed or disallowed. */
type RobotsRecord = { kind: 'allow_all' } | { kind: 'disallow_all' } | { kind: 'rules'; body: string };

/** Thrown before a page's fetch when its site's robots.txt disallows it: the page is never requested. */
export class RobotsDisallowed extends Error {
  override name = 'RobotsDisallowed';
}

export interface RobotsDeps {
  /** Shared by every process, so one search's read of a robots.txt spares the next search's. */
  redis?: RedisClient;
  /** Redis key prefix (the queue prefix: a Cluster hash tag). */
  prefix: string;
  fetch: Pick<WebsiteFetchOptions, 'allow' | 'resolve' | 'signal' | 'userAgent'>;
}

/**
 * The robots.txt rules of the sites one check reads, each site's file read at most once per check and cached in
 * Redis for ROBOTS_CACHE_SECONDS. RFC 9309: a 4xx file allows everything, an unreachable one (5xx, no answer)
 * disallows everything.
 */
export function robotsRules(deps: RobotsDeps) {
  const bySite = new Map<string, Promise<RobotsRecord>>();
  const key = (origin: string) => `${deps.prefix}:robots:${origin}`;

  async function load(origin: string): Promise<RobotsRecord> {
    const cached = await deps.redis?.get(key(origin)).catch(() => null);
    if (cached) return JSON.parse(cached) as RobotsRecord;
    const record = await read(origin);
    await deps.redis?.set(key(origin), JSON.stringify(record), 'EX', ROBOTS_CACHE_SECONDS).catch(() => {});
    return record;
  }

  async function read(origin: string): Promise<RobotsRecord> {
    try {
      const file = await fetchWebsite(`${origin}/robots.txt`, { ...deps.fetch, maxBytes: ROBOTS_MAX_BYTES, timeoutMs: ROBOTS_TIMEOUT_MS });
      return { kind: 'rules', body: file.body };
    } catch (err) {
      const status = (err instanceof SearchError && (err.cause as { httpStatus?: number } | undefined)?.httpStatus) || 0;
      return status >= 400 && status < 500 ? { kind: 'allow_all' } : { kind: 'disallow_all' };
    }
  }

  return {
    /** Throws RobotsDisallowed when the URL's site does not let ROBOTS_TOKEN fetch it. */
    async check(url: URL): Promise<void> {
      const origin = url.origin;
      let record = bySite.get(origin);
      if (!record) {
        record = load(origin);
        bySite.set(origin, record);
      }
      const rules = await record;
      const allowed =
        rules.kind === 'allow_all' ||
        (rules.kind === 'rules' && robotsParser(`${origin}/robots.txt`, rules.body).isAllowed(url.toString(), ROBOTS_TOKEN) !== false);
      if (!allowed) throw new RobotsDisallowed(`${url.origin}/robots.txt does not allow reading ${url.pathname}`);
    },
  };
}

export type RobotsRules = ReturnType<typeof robotsRules>;
