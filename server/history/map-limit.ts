// Bounded-concurrency mapping for the history service's per-session OpenCode calls. Pure control flow: no I/O of its
// own, no retries, errors propagate as from Promise.all.

/** Runs `fn` over `items` with at most `concurrency` in flight; results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}
