import type { ChannelKindWire } from '../../core/contract/channel-kinds';
import type { TimerChannelJson } from '../../core/contract/timer-channels';
import { apiFetch, errorText, postJson } from './http';
import { replyJson, shapeOf } from './replies';

export type ChannelOutcome = { ok: true; channel?: TimerChannelJson } | { ok: false; message: string };

/** POST /api/timers/:id/channels; `message` is the server's sentence (a refused address, for one). */
export async function addTimerChannel(
  timerId: number,
  channel: { kind: ChannelKindWire; url: string; token?: string },
): Promise<ChannelOutcome> {
  try {
    const res = await postJson(`/api/timers/${timerId}/channels`, channel);
    const { json, schemas } = await replyJson(res);
    const added = res.ok ? shapeOf(schemas.timerChannelSchema, json) : null;
    if (added) return { ok: true, channel: added };
    const error = shapeOf(schemas.errorReplySchema, json)?.error;
    return { ok: false, message: error ?? `The channel was not added (the server answered ${res.status}).` };
  } catch (err) {
    console.warn('Channel not added:', errorText(err));
    return { ok: false, message: 'The channel was not added: the server could not be reached. Please try again.' };
  }
}

/** DELETE /api/timers/:id/channels/:channelId; a channel already gone counts as removed. */
export async function removeTimerChannel(timerId: number, channelId: number): Promise<ChannelOutcome> {
  try {
    const res = await apiFetch(`/api/timers/${timerId}/channels/${channelId}`, { method: 'DELETE' });
    if (res.ok || res.status === 404) return { ok: true };
    const { json, schemas } = await replyJson(res);
    const error = shapeOf(schemas.errorReplySchema, json)?.error;
    return { ok: false, message: error ?? `The channel was not removed (the server answered ${res.status}).` };
  } catch (err) {
    console.warn('Channel not removed:', errorText(err));
    return { ok: false, message: 'The channel was not removed: the server could not be reached. Please try again.' };
  }
}
