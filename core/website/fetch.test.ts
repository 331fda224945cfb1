import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SearchError } from '../search-error';
import { fetchWebsite, type WebsiteFetchOptions } from './fetch';

// A local web server; the tests reach it through the allow list, as `make dev` reaches the stand-in sites.
let server: Server;
let port = 0;
let hits = 0;
/** Blocks of /big-chunked written when its reader went away, of the 200 it would send. */
let bigChunkedSent: number | undefined;
beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<title>Events</title><p>Hello</p>');
    } else if (url.pathname === '/hop') {
      const n = Number(url.searchParams.get('n'));
      res.writeHead(302, { location: n > 0 ? `/hop?n=${n - 1}` : '/page' });
      res.end();
    } else if (url.pathname === '/to') {
      res.writeHead(301, { location: url.searchParams.get('u')! });
      res.end();
    } else if (url.pathname === '/big-declared') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(3 * 1024 * 1024) });
      res.write('<p>');
      // Never sends the rest: the declared size alone must stop the read.
    } else if (url.pathname === '/big-chunked') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const block = 'x'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 200 && res.write(block)) sent++;
        if (sent < 200) res.once('drain', pump);
        else res.end();
      };
      res.on('close', () => {
        bigChunkedSent = sent;
        sent = 200;
      });
      pump();
    } else if (url.pathname === '/slow') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>start');
      const t = setTimeout(() => res.end('</p>'), 20_000);
      res.on('close', () => clearTimeout(t));
    } else if (url.pathname === '/utf16.ics') {
      // Windows Calendar exports UTF-16 with a byte order mark, and servers send it without a charset.
      res.writeHead(200, { 'content-type': 'text/calendar' });
      res.end(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('TZID:大阪、札幌、東京', 'utf16le')]));
    } else if (url.pathname === '/pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF');
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('missing');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const allowed = (): WebsiteFetchOptions => ({ allow: [`127.0.0.1:${port}`] });

async function failure(promise: Promise<unknown>): Promise<SearchError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SearchError);
  return err as SearchError;
}

describe('fetchWebsite', () => {
  it('reads an allowed page', async () => {
    const page = await fetchWebsite(`http://127.0.0.1:${port}/page`, allowed());
    expect(page).toMatchObject({ contentType: 'text/html', body: '<title>Events</title><p>Hello</p>' });
  });

  it('decodes the body by its byte order mark, not as UTF-8 always', async () => {
    const page = await fetchWebsite(`http://127.0.0.1:${port}/utf16.ics`, allowed());
    expect(page).toMatchObject({ contentType: 'text/calendar', body: 'TZID:大阪、札幌、東京' });
  });

  it('refuses a private address that is not on the allow list (another port of the same host)', async () => {
    const before = hits;
    const err = await failure(fetchWebsite(`http://127.0.0.1:${port}/page`, { allow: ['127.0.0.1:1'] }));
    expect(err).toMatchObject({ code: 'website_refused', retryable: false });
    expect(hits).toBe(before);
  });

  it('refuses a name that resolves to 127.0.0.1, and one with any private address among public ones', async () => {
    const local = await failure(
      fetchWebsite('http://events.example/', { allow: [], resolve: async () => [{ address: '127.0.0.1', family: 4 }] }),
    );
    expect(local.message).toMatch(/events\.example points to a private or local network/);
    const mixed = await failure(
      fetchWebsite('http://events.example/', {
        allow: [],
        resolve: async () => [
          { address: '93.184.215.14', family: 4 },
          { address: '::ffff:10.0.0.1', family: 6 },
        ],
      }),
    );
    expect(mixed.code).toBe('website_refused');
  });

  it('connects to the checked address only: the name is resolved once, never again at connect time', async () => {
    let lookups = 0;
    // 'pinned.invalid' does not exist in DNS; the request works only because the checked address is used.
    const page = await fetchWebsite(`http://pinned.invalid:${port}/page`, {
      allow: [`pinned.invalid:${port}`],
      resolve: async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    expect(page.body).toContain('Hello');
    expect(lookups).toBe(1);
  });

  it('follows up to 5 redirects, checking each target', async () => {
    const page = await fetchWebsite(`http://127.0.0.1:${port}/hop?n=4`, allowed());
    expect(page.url).toBe(`http://127.0.0.1:${port}/page`);
    const tooMany = await failure(fetchWebsite(`http://127.0.0.1:${port}/hop?n=5`, allowed()));
    expect(tooMany.message).toMatch(/redirects too many times/);
    const toPrivate = await failure(
      fetchWebsite(`http://127.0.0.1:${port}/to?u=${encodeURIComponent('http://169.254.169.254/latest')}`, allowed()),
    );
    expect(toPrivate.code).toBe('website_refused');
    const toFile = await failure(fetchWebsite(`http://127.0.0.1:${port}/to?u=${encodeURIComponent('file:///etc/passwd')}`, allowed()));
    expect(toFile.message).toMatch(/Only http/);
  });

  it('stops at the size cap, whether declared or streamed', async () => {
    const declared = await failure(fetchWebsite(`http://127.0.0.1:${port}/big-declared`, allowed()));
    expect(declared).toMatchObject({ code: 'website_failed' });
    expect(declared.message).toMatch(/larger than 2 MB/);
    bigChunkedSent = undefined;
    const streamed = await failure(fetchWebsite(`http://127.0.0.1:${port}/big-chunked`, { ...allowed(), maxBytes: 256 * 1024 }));
    expect(streamed.message).toMatch(/larger than/);
    // The reader hung up at the cap, long before the server had written its 12.8 MB.
    await vi.waitFor(() => expect(bigChunkedSent).toBeDefined(), { interval: 5 });
    expect(bigChunkedSent).toBeLessThan(200);
  });

  it('gives up on a slow page at the time limit', async () => {
    const err = await failure(fetchWebsite(`http://127.0.0.1:${port}/slow`, { ...allowed(), timeoutMs: 400 }));
    expect(err.message).toMatch(/did not answer within/);
  });

  it('stops when the search is cancelled, and leaves no listener on the search’s signal', async () => {
    const search = new AbortController();
    const slow = failure(fetchWebsite(`http://127.0.0.1:${port}/slow`, { ...allowed(), signal: search.signal }));
    // The request is on its way once the server has taken it.
    const hitsBefore = hits;
    await vi.waitFor(() => expect(hits).toBeGreaterThan(hitsBefore), { interval: 5 });
    search.abort();
    expect(await slow).toMatchObject({ code: 'aborted', message: 'The search was cancelled.' });
    const kept = new AbortController();
    await fetchWebsite(`http://127.0.0.1:${port}/page`, { ...allowed(), signal: kept.signal });
    expect(getEventListeners(kept.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(search.signal, 'abort')).toHaveLength(0);
  });

  it('reads only HTML, plain text, JSON and iCalendar', async () => {
    const err = await failure(fetchWebsite(`http://127.0.0.1:${port}/pdf`, allowed()));
    expect(err.message).toMatch(/application\/pdf, which we cannot read/);
    const missing = await failure(fetchWebsite(`http://127.0.0.1:${port}/nothing`, allowed()));
    expect(missing.message).toMatch(/HTTP 404/);
  });

  it('refuses non-http schemes and credentials in the address', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a', 'gopher://example.com/', 'javascript:alert(1)']) {
      expect((await failure(fetchWebsite(url, { allow: [] }))).message).toMatch(/Only http/);
    }
    expect((await failure(fetchWebsite('http://user:pw@example.com/', { allow: [] }))).message).toMatch(/user name or password/);
  });

  it('reports a name that does not resolve as an unreachable site', async () => {
    const err = await failure(
      fetchWebsite('http://nowhere.invalid/', {
        allow: [],
        resolve: async () => {
          throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
        },
      }),
    );
    expect(err).toMatchObject({ code: 'website_failed' });
  });
});
