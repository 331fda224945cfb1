import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const HALF_DAY_MS = 12 * 3600_000;

/**
 * A website on 127.0.0.1 whose page lists `count` events as h-event, "Harbour Meetup No. <i>", one every twelve
 * hours from tomorrow: more than a search keeps, for the tests of what it keeps and says it left out.
 */
export async function startMeetupsSite(count: number): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  const first = Date.now() + 24 * 3600_000;
  const events = Array.from({ length: count }, (_, i) => {
    const at = new Date(first + i * HALF_DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return `<div class="h-event"><span class="p-name">Harbour Meetup No. ${i}</span> <time class="dt-start" datetime="${at}">${at}</time></div>`;
  });
  const page = `<!doctype html><html lang="en"><head><title>Harbour meetups</title></head><body>${events.join('\n')}</body></html>`;
  const site = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const port = (site.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/meetups.html`,
    port,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}
