import { createServer } from 'node:http';

// The baseline for API throughput (the goal in BENCHMARKS.md): a bare node:http handler, no framework, middleware, database or Redis.
const BODY = JSON.stringify({ loggedIn: true });
const server = createServer((req, res) => {
  if (req.url === '/healthz' || req.url === '/api/check-session') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
    res.end(BODY);
    return;
  }
  res.writeHead(404).end();
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1');
