import * as z from 'zod/mini';

/** PATCH /api/timers/:id: any of these; `webhook_url` null or "" removes the webhook. */
export const timerSettingsSchema = z.strictObject({
  paused: z.optional(z.boolean()),
  email: z.optional(z.boolean()),
  webhook_url: z.optional(z.nullable(z.string())),
});

export type TimerSettingsBody = z.infer<typeof timerSettingsSchema>;

const SENTENCES: Record<string, string> = {
  paused: 'paused must be true or false.',
  email: 'email must be true or false.',
  webhook_url: 'webhook_url must be a web address (text), or null to remove the webhook.',
};

/** Parses the body; `message` is a sentence saying what to send instead. */
export function parseTimerSettings(body: unknown): { ok: true; value: TimerSettingsBody } | { ok: false; message: string } {
  const parsed = timerSettingsSchema.safeParse(body);
  if (parsed.success) {
    if (Object.keys(parsed.data).length === 0) {
      return { ok: false, message: 'Send at least one of paused, email or webhook_url to change.' };
    }
    return { ok: true, value: parsed.data };
  }
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? '');
  if (issue.code === 'unrecognized_keys') {
    return { ok: false, message: `Only paused, email and webhook_url can be changed here (not ${issue.keys.join(', ')}).` };
  }
  return { ok: false, message: SENTENCES[field] ?? 'The request body must be a JSON object with paused, email or webhook_url.' };
}
