import * as z from 'zod/mini';
import { SCHEDULE_TYPES, WEEKDAYS } from './schedule-values';

// The wire types of a timer's schedule fields, as creating and editing a timer document them (checkedLater):
// the checks themselves are core/timers/schedule.ts's.
export const SCHEDULE_TYPE_WIRE = z.enum(SCHEDULE_TYPES);
export const TIME_OF_DAY_WIRE = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/), z.describe('HH:MM, 24-hour, in `timezone`.'));
export const WEEKDAY_WIRE = z.nullable(z.enum(WEEKDAYS)).check(z.describe('The day a weekly timer fires; needed when weekly.'));
export const IANA_ZONE_WIRE = z.string().check(z.describe('An IANA time zone name, such as Europe/Berlin.'));
