// Retrying assertions for the e2e suite (playwright-core has no auto-retrying `expect`). No browser or server logic.

/**
 * Runs `check` until it stops throwing or `timeoutMs` (default 10 000 ms) passes; returns its result, or rethrows the
 * last failure with `what` prefixed, so a failing step names what it waited for.
 */
export async function eventually<T>(
  what: string,
  check: () => Promise<T> | T,
  timeoutMs = 10_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) {
        const msg = err instanceof Error ? err.message : String(err);
        throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}: ${msg}`, { cause: err });
      }
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
