import * as z from 'zod/mini';

/** The error reply of every JSON route that has no shape of its own in the spec. */
export const errorReplySchema = z.object({ error: z.string() });
export type ErrorReply = z.infer<typeof errorReplySchema>;
