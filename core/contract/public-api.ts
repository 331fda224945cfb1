import * as z from 'zod/mini';
import { IANA_ZONE_WIRE } from './schedule-wire';
import { listedTimerSchema, scheduleRequestSchema } from './timers';
import { checkedLater } from './wire-type';

/**
 * PATCH /api/timers/:id and /v1/timers/:id: the timer as GET lists it; a changed `webhook_url` also carries its
 * new signing secret (`whsec_…`), in this reply only (docs/decisions/delivery.md).
 */
export const patchedTimerReplySchema = z.extend(listedTimerSchema, { webhook_secret: z.optional(z.string()) });

/** POST /v1/timers: POST /api/schedule's body, but `timezone` may be left out and is then UTC. */
export const v1ScheduleRequestSchema = z.extend(scheduleRequestSchema, {
  timezone: checkedLater(
    z.optional(z.unknown()),
    IANA_ZONE_WIRE.check(z.describe('An IANA time zone name, such as Europe/Berlin; UTC when left out.')),
  ),
});

/** POST /v1/timers' 201: the new timer as GET lists it, its feed addresses included (null while feeds are off). */
export const createdTimerSchema = z.extend(listedTimerSchema, { ical_url: z.nullable(z.string()), atom_url: z.nullable(z.string()) });
