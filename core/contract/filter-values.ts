// Plain values, no zod: the page's filter fields list them without loading the schemas (docs/decisions/the-page.md).

export const ATTENDANCE = ['both', 'in_person', 'online'] as const;
export type Attendance = (typeof ATTENDANCE)[number];
