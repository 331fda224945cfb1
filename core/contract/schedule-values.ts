// Plain values, no zod: the page's Set Timer panel lists them without loading the schemas (docs/decisions/the-page.md).

export const SCHEDULE_TYPES = ['daily', 'weekly'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
