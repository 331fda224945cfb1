import * as z from 'zod/mini';

/** One in-person event of a run placed on the map: its city's coordinates (offline tables), not its street. */
export const mapPointSchema = z.object({ key: z.string(), title: z.string(), place: z.string(), lat: z.number(), lng: z.number() });
export type MapPoint = z.infer<typeof mapPointSchema>;

/**
 * GET /api/timers/:id/runs/:runId/map: the run's in-person events that could be placed, with the tile URL
 * template to draw them on; `tile_url` null means the map is off on this server (MAP_TILE_URL unset).
 */
export const runMapReplySchema = z.object({
  tile_url: z.nullable(z.string()),
  attribution: z.string(),
  points: z.array(mapPointSchema),
});
export type RunMapReply = z.infer<typeof runMapReplySchema>;
