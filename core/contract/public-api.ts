import * as z from 'zod/mini';
import { listedTimerSchema } from './timers';

/**
 * PATCH /api/timers/:id and /v1/timers/:id: the timer as GET lists it; a changed `webhook_url` also carries its
 * new signing secret (`whsec_…`), in this reply only (docs/decisions/delivery.md).
 */
export const patchedTimerReplySchema = z.extend(listedTimerSchema, { webhook_secret: z.optional(z.string()) });
