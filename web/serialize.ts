/**
 * JSON that is safe inside a <script> element: `<`, `>` and `&` cannot close the element or start a comment,
 * and U+2028/U+2029 cannot end a line in older JavaScript parsers.
 */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
