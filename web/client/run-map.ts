import type { RunMapReply } from '../../core/contract/run-map';
import { apiFetch } from './http';
import { readReply } from './replies';

/** GET /api/timers/:id/runs/:runId/map; throws on a non-ok reply. */
export async function fetchRunMap(timerId: number, runId: number): Promise<RunMapReply> {
  const res = await apiFetch(`/api/timers/${timerId}/runs/${runId}/map`);
  if (!res.ok) throw new Error(`The map could not be loaded (${res.status}).`);
  return readReply(res, (s) => s.runMapReplySchema);
}
