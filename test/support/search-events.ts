import { type SearchReply, searchReplySchema } from '../../core/contract/event-replies';
import { until } from '../../dev/harness/wait';

/**
 * GET {prefix}/searches/:id once the search's events have ended (`events_status` no longer 'pending'): an ask's
 * events are found after its reply has ended, a moment later.
 */
export async function searchWithEvents(
  url: string,
  id: string | number | null,
  headers: Record<string, string>,
  prefix = '/api',
): Promise<SearchReply> {
  return until(`the events of search ${id}`, async () => {
    const res = await fetch(`${url}${prefix}/searches/${id}`, { headers });
    if (!res.ok) throw new Error(`GET ${prefix}/searches/${id} answered ${res.status}`);
    const reply = searchReplySchema.parse(await res.json());
    return reply.events_status === 'pending' ? null : reply;
  });
}
