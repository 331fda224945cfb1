import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { withQuickRoute } from './node-server';
import type { QuickRoute } from './quick-check-session';

describe('a server whose requests meet a quick route first', () => {
  let server: Server | null = null;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(quick: QuickRoute): Promise<string> {
    server = withQuickRoute(quick)({}, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('from the app');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  it('answers what the quick route takes and leaves the rest to the app', async () => {
    const url = await serve((req, res) => {
      if (req.url !== '/quick') return false;
      res.writeHead(200).end('quick');
      return true;
    });
    expect(await (await fetch(`${url}/quick`)).text()).toBe('quick');
    expect(await (await fetch(`${url}/other`)).text()).toBe('from the app');
  });

  it('keeps serving when the quick route throws: the app answers, or the reply already begun is ended', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/half') res.writeHead(200, { 'content-length': '100' }).write('part');
      throw new Error('a fault in the quick route');
    });
    expect(await (await fetch(`${url}/any`)).text()).toBe('from the app');
    await expect(fetch(`${url}/half`).then((res) => res.text())).rejects.toThrow();
    expect(await (await fetch(`${url}/any`)).text()).toBe('from the app');
  });
});
