// How much a sweep may cost and how it paces its OpenCode calls: default budget, deadline, concurrency, pauses, and
// the gate that yields to Patchbay's requests in flight. Makes no OpenCode calls itself.
import { performance } from "node:perf_hooks";

/** Deletions per sweep: a few hundred (issue 6). At the measured ≈ 10–25 ms per deletion this is a few seconds of
 *  background work; larger backlogs drain over several sweeps. */
export const DEFAULT_SWEEP_BUDGET = 300;
/** A sweep stops starting deletions after this long, whatever is left. */
export const DEFAULT_SWEEP_DEADLINE_MS = 10_000;
/** Deletions in flight at once during a sweep. */
export const DEFAULT_SWEEP_CONCURRENCY = 2;
/** Pause after each deletion, per worker. */
export const DEFAULT_SWEEP_PAUSE_MS = 5;
/** While requests are in flight, one deletion per this many ms (≈ 10 ms of OpenCode time each: a ~4 % duty cycle). */
export const DEFAULT_BUSY_INTERVAL_MS = 250;

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Pacing state of one sweep: the next time an OpenCode call may start while requests are in flight. */
export interface YieldGate {
  /** performance.now() ms. */
  nextSlot: number;
  intervalMs: number;
}

/**
 * Waits while Patchbay serves requests (`activeRequests() > 0`) until this sweep's next slot (one OpenCode call per
 * `gate.intervalMs`, shared by all workers); returns at once when no request is in flight. False when `deadline`
 * (performance.now() ms) passed.
 */
export async function yieldToRequests(
  activeRequests: () => number,
  gate: YieldGate,
  deadline: number,
): Promise<boolean> {
  for (;;) {
    const now = performance.now();
    if (now >= deadline) return false;
    if (activeRequests() <= 0) return true;
    if (now >= gate.nextSlot) {
      gate.nextSlot = now + gate.intervalMs;
      return true;
    }
    // Re-check often: when the requests end, the sweep continues at full speed.
    await sleep(Math.min(25, gate.nextSlot - now));
  }
}
