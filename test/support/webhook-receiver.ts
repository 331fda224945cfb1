import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook consumer on 127.0.0.1 keeping each POST's raw body and headers as it got them; it answers 200 "ok"
 * unless `answer` queued other replies for the next POSTs.
 */
export function startWebhookReceiver() {
  const received: { raw: string; headers: IncomingHttpHeaders }[] = [];
  const answers: { status: number; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ raw, headers: req.headers });
      const answer = answers.shift() ?? { status: 200, body: 'ok' };
      res.statusCode = answer.status;
      res.end(answer.body);
    });
  });
  return {
    received,
    answer: (status: number, body: string) => answers.push({ status, body }),
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
