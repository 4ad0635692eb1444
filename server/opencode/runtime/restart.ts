// "Restart OpenCode" (issue 21 §4 item 2: dashboard, tray, `POST /admin/api/opencode/restart`): whatever state
// OpenCode is in, start it now. A ready one is restarted between requests like a recycle (new requests held, the
// running ones drained first, bounded), so no answer is cut.
import type { OpenCodeStatus } from "../../../shared/status";
import type { RequestGate } from "../session/request-gate";

/** The supervisor as the restart action sees it. */
export interface RestartableProcess {
  status(): OpenCodeStatus;
  retryNow(): Promise<void>;
  wake(): Promise<void>;
  recycle(reason: string): Promise<void>;
}

/** Longest wait for running requests before a ready OpenCode is restarted anyway, ms. */
const DRAIN_MS = 30_000;

/** Starts OpenCode now: a failed or backing-off one at once, a sleeping one wakes, a ready one is restarted between
 *  requests. Resolves once the new process is ready or failed; never throws. */
export async function restartOpenCode(p: RestartableProcess, gate: RequestGate, log: (line: string) => void) {
  const state = p.status().state;
  log(`[opencode] restart asked for (state ${state})`);
  if (state === "failed" || state === "restarting") return p.retryNow();
  if (state === "sleeping") return p.wake();
  if (state !== "ready" || gate.isHolding) return; // starting, stopped, or a recycle holds requests already
  gate.hold();
  try {
    if (!(await gate.drained(DRAIN_MS)))
      log(`[opencode] requests still running after ${DRAIN_MS / 1000} s; restarting`);
    await p.recycle("restart asked for");
  } finally {
    gate.release();
  }
}
