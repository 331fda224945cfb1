/** A decoded Stripe request parameter: a string, or nested objects and arrays built from `a[b][0]=c` keys. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/**
 * Decodes Stripe's form encoding (`items[0][price]=p`, `metadata[user_id]=1`, `lookup_keys[0]=k`), as the
 * official client sends it in bodies and query strings. Numeric segments become array indexes.
 */
export function parseStripeForm(params: URLSearchParams): FormObject {
  const root: FormObject = {};
  for (const [rawKey, value] of params) {
    const head = rawKey.split('[', 1)[0]!;
    const rest = [...rawKey.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
    const path = [head, ...rest];
    let node: FormObject | FormValue[] = root;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const key: string | number = Array.isArray(node) ? (segment === '' ? node.length : Number(segment)) : segment;
      const container = node as Record<string | number, FormValue>;
      if (last) {
        container[key] = value;
        return;
      }
      const nextIsIndex = /^\d*$/.test(path[i + 1]!);
      container[key] ??= nextIsIndex ? [] : {};
      node = container[key] as FormObject | FormValue[];
    });
  }
  return root;
}

/** Reads a string parameter, or undefined. */
export function str(form: FormObject, key: string): string | undefined {
  const v = form[key];
  return typeof v === 'string' ? v : undefined;
}

/** Reads a list parameter (`key[0]=..`) as objects or strings. */
export function list<T extends FormValue = FormValue>(form: FormObject, key: string): T[] {
  const v = form[key];
  return Array.isArray(v) ? (v.filter((x) => x !== undefined) as T[]) : [];
}

/** Reads a nested object parameter (`metadata[k]=v`), or an empty object. */
export function obj(form: FormObject, key: string): FormObject {
  const v = form[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
}
