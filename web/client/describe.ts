import type { DescribeReply } from '../../core/contract/describe';
import { errorText, postJson } from './http';
import { replyJson, shapeOf } from './replies';
import { browserTimezone } from './timezone';

export type DescribeOutcome = { ok: true; reply: DescribeReply } | { ok: false; message: string };

/** POST /api/timers/describe with the browser's zone; a refusal's sentence comes back as `message`. */
export async function describeSentence(sentence: string): Promise<DescribeOutcome> {
  try {
    const res = await postJson('/api/timers/describe', { sentence, timezone: browserTimezone() });
    const { json, schemas } = await replyJson(res);
    const reply = res.ok ? shapeOf(schemas.describeReplySchema, json) : null;
    if (reply) return { ok: true, reply };
    const error = shapeOf(schemas.errorReplySchema, json);
    return { ok: false, message: error?.error ?? `The server answered ${res.status}. Fill in the form yourself, or try again.` };
  } catch (err) {
    return { ok: false, message: `${errorText(err)}. Fill in the form yourself, or try again.` };
  }
}
