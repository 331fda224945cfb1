import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { expect } from 'vitest';

type Json = Record<string, unknown>;
type Doc = {
  components?: { schemas?: Record<string, Json> };
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Json }> }> }>>;
};

/** `/v1/timers/{id}` as a pattern that matches `/v1/timers/12`. */
const pattern = (template: string) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);

/**
 * Checks real replies against an OpenAPI document: the call must be one of its operations, the status one it
 * lists, and a JSON body valid under that status's schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 has it).
 */
export function openApiChecker(document: unknown) {
  const doc = document as Doc;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  // A reply's schema may be a `$ref` to one of the document's shared schemas (the problem details).
  const resolve = (schema: Json | undefined): Json | undefined => {
    const ref = schema?.$ref;
    return typeof ref === 'string' ? doc.components?.schemas?.[ref.replace('#/components/schemas/', '')] : schema;
  };
  const compiled = new Map<Json, ValidateFunction>();
  const templates = Object.keys(doc.paths).map((t) => ({ t, re: pattern(t) }));
  /** Every `METHOD /path` the document lists, as Hono writes its paths. */
  const operations = new Set(
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    ),
  );
  const checked = new Set<string>();

  async function check(method: string, url: string, res: Response): Promise<unknown> {
    const path = new URL(url).pathname;
    const template = templates.find(({ re }) => re.test(path))?.t;
    expect(template, `${method} ${path} is in the document`).toBeDefined();
    const op = doc.paths[template!]![method.toLowerCase()];
    expect(op, `${method} ${template} is in the document`).toBeDefined();
    const reply = op!.responses[String(res.status)];
    expect(reply, `${method} ${template} documents status ${res.status}`).toBeDefined();
    checked.add(`${method} ${template!.replace(/\{(\w+)\}/g, ':$1')} ${res.status}`);
    const type = res.headers.get('content-type') ?? '';
    const media = type.split(';')[0]!.trim();
    const isJson = media === 'application/json' || media === 'application/problem+json';
    if (!isJson) {
      if (res.status !== 204 && res.status !== 304) expect(Object.keys(reply!.content ?? {})).toContain(type.split(';')[0]);
      return res.status === 204 || res.status === 304 ? null : res.text();
    }
    const json: unknown = await res.json();
    const schema = resolve(reply!.content?.[media]?.schema);
    expect(schema, `${method} ${template} ${res.status} has a ${media} schema`).toBeDefined();
    let validate = compiled.get(schema!);
    if (!validate) {
      validate = ajv.compile(schema!);
      compiled.set(schema!, validate);
    }
    expect(validate(json) ? null : validate.errors, `${method} ${path} ${res.status} matches the document`).toBeNull();
    return json;
  }

  return { check, operations, checked };
}
