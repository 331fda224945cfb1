import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { isPublicAddress } from './address';
import { SearchError } from '../search-error';
import { decodeBody } from './decode-body';
import { type FetchDeadline, fetchDeadline } from './fetch-deadline';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface WebsiteFetchOptions {
  /** `host` or `host:port` entries (lower-case) exempt from the private-address block. */
  allow: string[];
  signal?: AbortSignal;
  /** Injectable for tests ('a name resolving to 127.0.0.1'); defaults to the system resolver, all addresses. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** The User-Agent sent; a user's website gets the default, automatic fetches name why they fetch. */
  userAgent?: string;
  /**
   * Called before each hop connects (the first address, then every redirect target), after the address guard:
   * throws to refuse that hop (robots.txt, for fetches nobody asked for by address).
   */
  beforeHop?: (url: URL, hop: number) => Promise<void>;
}

export interface WebsitePage {
  /** The URL the content came from, after redirects. */
  url: string;
  contentType: string;
  body: string;
}

export const WEBSITE_TIMEOUT_MS = 10_000;
export const WEBSITE_MAX_BYTES = 2 * 1024 * 1024;
export const WEBSITE_USER_AGENT = 'EventFinder/1.0 (+reads one page to answer a user question)';
const READABLE_TYPES = ['text/html', 'application/xhtml+xml', 'text/plain', 'application/json', 'application/ld+json', 'text/calendar'];

const refused = (message: string) => new SearchError('website_refused', message, false);
const failed = (message: string, cause?: unknown) => new SearchError('website_failed', message, false, { cause });

const systemResolve = async (hostname: string): Promise<ResolvedAddress[]> => dnsLookup(hostname, { all: true, verbatim: true });

/** Parses a user's website address; only http(s) is accepted. */
export function parseWebsiteUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('The website address is not a valid URL. Enter a full address such as https://example.com/events.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refused('Only http:// and https:// website addresses can be read. Enter a web page address.');
  }
  if (url.username || url.password) {
    throw refused('Website addresses with a user name or password cannot be read. Remove them and try again.');
  }
  return url;
}

function isAllowed(url: URL, allow: string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allow.includes(host) || allow.includes(`${host}:${port}`) || allow.includes(`${host.replace(/^\[|\]$/g, '')}:${port}`);
}

/**
 * Resolves the URL's host and checks every address. Returns the checked addresses: the connection is made
 * to exactly these (see pinnedLookup), so a DNS answer that changes between check and connect (rebinding)
 * cannot steer the request to a private address.
 */
export async function checkHost(url: URL, options: Pick<WebsiteFetchOptions, 'allow' | 'resolve'>): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = isAllowed(url, options.allow);
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch (err) {
      throw failed(`We could not find the website ${url.hostname} (its name does not resolve). Check the address.`, err);
    }
    if (addresses.length === 0) throw failed(`We could not find the website ${url.hostname}. Check the address.`);
  }
  if (!allowed && !addresses.every((a) => isPublicAddress(a.address))) {
    throw refused(`The website address ${url.hostname} points to a private or local network, which we do not read. Use a public website.`);
  }
  return addresses;
}

/**
 * The checks fetchWebsite makes before connecting (http(s), no credentials, every resolved address public or
 * allowed), without fetching: a timer's website is refused when it is saved, not only at each run. Throws
 * SearchError with a sentence.
 */
export async function checkWebsiteAddress(raw: string, options: Pick<WebsiteFetchOptions, 'allow' | 'resolve'>): Promise<void> {
  await checkHost(parseWebsiteUrl(raw), options);
}

/** A `lookup` for net.connect that answers only with the already-checked addresses. */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
}

/**
 * Fetches a user's website behind the guard: http(s) only, public addresses only (each redirect re-checked,
 * at most 5), a time limit, a size cap, and readable content types only.
 */
export async function fetchWebsite(raw: string, options: WebsiteFetchOptions): Promise<WebsitePage> {
  const timeoutMs = options.timeoutMs ?? WEBSITE_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? WEBSITE_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? 5;
  const deadline = fetchDeadline(timeoutMs, options.signal);
  try {
    return await fetchWithin(raw, options, { deadline, timeoutMs, maxBytes, maxRedirects });
  } finally {
    deadline.release();
  }
}

/** fetchWebsite's hops, each request stopped by `deadline`. */
async function fetchWithin(
  raw: string,
  options: WebsiteFetchOptions,
  limits: { deadline: FetchDeadline; timeoutMs: number; maxBytes: number; maxRedirects: number },
): Promise<WebsitePage> {
  const { deadline, timeoutMs, maxBytes, maxRedirects } = limits;
  const { signal } = deadline;
  let url = parseWebsiteUrl(raw);
  for (let hop = 0; ; hop++) {
    const addresses = await checkHost(url, options);
    await options.beforeHop?.(url, hop);
    const agent = new Agent({ connect: { lookup: pinnedLookup(addresses), timeout: timeoutMs }, maxRedirections: 0 } as Agent.Options);
    try {
      const res = await request(url, {
        method: 'GET',
        dispatcher: agent,
        signal,
        headers: {
          'user-agent': options.userAgent ?? WEBSITE_USER_AGENT,
          accept: 'text/html,application/xhtml+xml,application/ld+json,application/json,text/calendar,text/plain;q=0.9',
        },
      }).catch((err: unknown) => {
        throw fetchFailure(url, err, deadline, options.signal, timeoutMs);
      });
      if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
        await res.body.dump().catch(() => {});
        if (hop >= maxRedirects) throw failed(`The website ${url.hostname} redirects too many times. Try the final page address.`);
        const next = String(res.headers.location);
        try {
          url = parseWebsiteUrl(new URL(next, url).toString());
        } catch (err) {
          // A redirect to file:, ftp: or similar is refused like the same address typed in.
          throw err instanceof SearchError ? err : failed('The website redirected to an invalid address.');
        }
        continue;
      }
      if (res.statusCode >= 400) {
        await res.body.dump().catch(() => {});
        throw failed(`The website answered with an error (HTTP ${res.statusCode}). Check the address or try again later.`, {
          httpStatus: res.statusCode,
        });
      }
      const contentType = String(res.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (!READABLE_TYPES.includes(contentType)) {
        await res.body.dump().catch(() => {});
        throw refused(
          `The website address points to ${contentType || 'content of an unknown type'}, which we cannot read. Use a web page, a JSON file or an iCalendar (.ics) feed.`,
        );
      }
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > maxBytes) {
        res.body.destroy();
        throw tooLarge(maxBytes);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > maxBytes) {
            res.body.destroy();
            throw tooLarge(maxBytes);
          }
          chunks.push(chunk);
        }
      } catch (err) {
        if (err instanceof SearchError) throw err;
        throw fetchFailure(url, err, deadline, options.signal, timeoutMs);
      }
      const body = decodeBody(Buffer.concat(chunks), String(res.headers['content-type'] ?? ''));
      return { url: url.toString(), contentType, body };
    } finally {
      agent.close().catch(() => {});
    }
  }
}

function tooLarge(maxBytes: number): SearchError {
  return failed(
    `The website's page is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, more than we read. Use a page that lists the events directly.`,
  );
}

function fetchFailure(url: URL, err: unknown, deadline: FetchDeadline, caller: AbortSignal | undefined, ms: number): SearchError {
  if (caller?.aborted) return new SearchError('aborted', 'The search was cancelled.', true, { cause: err });
  if (deadline.timedOut) {
    return failed(`The website ${url.hostname} did not answer within ${Math.round(ms / 1000)} seconds. Try again later.`, err);
  }
  return failed(`We could not reach the website ${url.hostname}. Check the address or try again later.`, err);
}
