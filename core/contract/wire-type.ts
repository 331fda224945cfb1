import type * as z from 'zod/mini';

/** What a field documented with `checkedLater` is on the wire. */
export interface WireType {
  /** The field's type as clients must send it. */
  type: z.ZodMiniType;
  /** The server refuses a body without it (even though the shape lets it through, for a sentence saying so). */
  required?: boolean;
}

/** The wire types of fields whose checks live with the rule that owns them (core/timers/schedule.ts, core/filters). */
export const wireTypes = new WeakMap<object, WireType>();

/**
 * A field the contract takes as it comes, so the rule that owns it can answer a wrong value with a sentence
 * naming the mistake (the page shows it verbatim), documented with the type clients must send: the OpenAPI
 * document (api/openapi/document.ts) and generated clients see `type`, the server's checks stay where they are.
 */
export function checkedLater<T extends z.ZodMiniType>(field: T, type: z.ZodMiniType, options: { required?: boolean } = {}): T {
  wireTypes.set(field, { type, ...options });
  return field;
}
