// The one polling helper of the test suite: tests wait for a condition, never for a fixed time, so a loaded CI
// machine (timers late by tens of ms) makes them slower, not red.

/**
 * Polls `cond` every `intervalMs` (default 20 ms) until it returns true. Rejects with
 * `timed out after <timeoutMs> ms waiting for <what>` once `timeoutMs` (default 10 000 ms) has passed; an error
 * thrown by `cond` rejects at once.
 */
export async function waitFor(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
