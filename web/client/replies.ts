import type * as z from 'zod/mini';

type Schemas = typeof import('./reply-schemas');

// zod/mini and the schemas weigh a large share of our island code: nothing on the page needs
// them before its first call (the server renders the first state), so they load with the first reply instead
// of with the page (docs/decisions/the-page.md). apiFetch starts the import with every request, so it rarely adds a wait.
let schemas: Promise<Schemas> | null = null;
const loadSchemas = () => {
  schemas ??= import('./reply-schemas');
  return schemas;
};

/** Starts loading the schemas, e.g. together with a request whose reply will need them. */
export function preloadReplySchemas(): void {
  void loadSchemas();
}

/** A reply's JSON read through its schema in core/contract, the one the api writes with; throws if it differs. */
export async function readReply<S extends z.ZodMiniType>(res: Response, pick: (schemas: Schemas) => S): Promise<z.infer<S>> {
  const [all, json] = await Promise.all([loadSchemas(), res.json()]);
  return pick(all).parse(json);
}

/** The JSON of a reply that may come in more than one shape (a reply or an error): unknown until checked. */
export async function replyJson(res: Response): Promise<{ json: unknown; schemas: Schemas }> {
  const [all, json] = await Promise.all([loadSchemas(), res.json().catch(() => null)]);
  return { json, schemas: all };
}

/** The value if it has the schema's shape, else null. */
export function shapeOf<S extends z.ZodMiniType>(schema: S, value: unknown): z.infer<S> | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
