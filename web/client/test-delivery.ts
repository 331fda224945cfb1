import type { DestinationName, TestDeliveryReply, TimerPreviewReply } from '../../core/contract/test-delivery';
import { apiFetch, errorText, postJson } from './http';
import { replyJson, shapeOf } from './replies';

export type { DestinationName, TestDeliveryReply, TimerPreviewReply };

/** GET /api/timers/:id/preview; throws with the server's sentence. */
export async function fetchTimerPreview(timerId: number): Promise<TimerPreviewReply> {
  const res = await apiFetch(`/api/timers/${timerId}/preview`);
  const { json, schemas } = await replyJson(res);
  const reply = res.ok ? shapeOf(schemas.timerPreviewReplySchema, json) : null;
  if (reply) return reply;
  throw new Error(shapeOf(schemas.errorReplySchema, json)?.error ?? `The preview could not be made (the server answered ${res.status}).`);
}

/**
 * POST /api/timers/:id/test-delivery: how the test went (delivered, or the receiver's answer), or the server's
 * refusal (too many tests, no such destination) as the same kind of sentence, never thrown.
 */
export async function sendTest(timerId: number, destination: DestinationName): Promise<TestDeliveryReply> {
  try {
    const res = await postJson(`/api/timers/${timerId}/test-delivery`, { destination });
    const { json, schemas } = await replyJson(res);
    const reply = res.ok ? shapeOf(schemas.testDeliveryReplySchema, json) : null;
    if (reply) return reply;
    const error = shapeOf(schemas.errorReplySchema, json)?.error;
    return { destination, delivered: false, message: error ?? `The test was not sent (the server answered ${res.status}).` };
  } catch (err) {
    console.warn('Test send failed:', errorText(err));
    return { destination, delivered: false, message: 'The test was not sent: the server could not be reached. Please try again.' };
  }
}
