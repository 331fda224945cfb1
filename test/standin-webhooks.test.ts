import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebhookSender } from '../dev/standins/stripe-webhooks';
import { freePort } from '../dev/harness/processes';

function listen(port: number, status: number): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = status;
      res.end('{}');
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

describe('Stripe stand-in webhook delivery', () => {
  let server: Server | null = null;
  afterEach(async () => {
    if (server) await new Promise((resolve) => server!.close(resolve));
    server = null;
  });

  it('keeps trying while the app is not listening (make dev restarts the api on every change)', async () => {
    const port = await freePort();
    const sender = new WebhookSender(`http://127.0.0.1:${port}/webhook`, 'whsec_x');
    const { delivered } = sender.emit('invoice.paid', { id: 'in_1' });
    // The api comes back only after more failed attempts than an answered error gets (four).
    await vi.waitFor(() => expect(sender.deliveries.length).toBeGreaterThan(4), { timeout: 10_000, interval: 20 });
    server = await listen(port, 200);
    await delivered;
    const statuses = sender.deliveries.map((d) => d.status);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.slice(0, -1).every((s) => s === 'network error')).toBe(true);
    expect(statuses.length).toBeGreaterThan(4);
  }, 15_000);

  it('gives up after four attempts when the app answers with an error, and after the limit when it never answers', async () => {
    server = await listen(await freePort(), 400);
    const refused = new WebhookSender(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, 'whsec_x');
    await refused.emit('invoice.paid', { id: 'in_2' }).delivered;
    expect(refused.deliveries.map((d) => d.status)).toEqual([400, 400, 400, 400]);

    const nobody = new WebhookSender(`http://127.0.0.1:${await freePort()}/webhook`, 'whsec_x', 1200);
    await nobody.emit('invoice.paid', { id: 'in_3' }).delivered;
    expect(nobody.deliveries.every((d) => d.status === 'network error')).toBe(true);
  }, 15_000);
});
