import { Hono } from 'hono';

/*
 * Map tiles on loopback, for tests and `make dev` with MAP_TILE_URL=http://127.0.0.1:8090/tiles/{z}/{x}/{y}.png:
 * every tile is the same plain 256×256 PNG, so a map draws without reaching the internet. Counts requests.
 */

// A 1×1 light blue-grey PNG; the browser scales it to the tile's size.
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGO4+/gVAAVLAqvsM8obAAAAAElFTkSuQmCC', 'base64');

export function createTilesStandin() {
  const state = { requests: 0 };
  const app = new Hono();
  app.get('/tiles/:z/:x/:file{[0-9]+\\.png}', (c) => {
    state.requests++;
    return c.body(TILE, 200, {
      'content-type': 'image/png',
      'cache-control': 'max-age=3600',
      'cross-origin-resource-policy': 'cross-origin',
    });
  });
  return { app, state };
}
