/**
 * The one way tests wait for something to happen: calls `probe` until it returns a truthy value, and returns
 * that value. A probe that throws (a server not listening yet) counts as "not yet"; on timeout the error names
 * what was awaited and the last failure.
 */
export async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
