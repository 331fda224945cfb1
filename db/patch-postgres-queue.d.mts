/** Types of db/patch-postgres-queue.mjs, which stays plain JavaScript so `npm ci --omit=dev` can run it. */
export const MARKER: string;
/** The queue module body postgres.js 3.4.9 ships, after its export line. */
export const POSTGRES_3_4_9_QUEUE: string;
export type PatchOutcome = 'patched' | 'already patched' | 'unknown content' | 'missing';
export function patchPostgresQueue(packageDir: string): { file: string; outcome: PatchOutcome }[];
