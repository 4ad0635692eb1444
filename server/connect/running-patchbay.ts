// Finds the Patchbay serving this data folder (its `runtime.json`), so CLI commands that need OpenCode ask that one
// through its admin API instead of starting a second OpenCode on the same database. A stale file (left by a crash,
// or by a Patchbay that no longer answers) is ignored: the command then works on its own.
import { createAdminClient, type AdminClient, type FetchLike } from "../../shared/admin/client";
import { readRuntimeFile } from "../runtime-file";
import { pidAlive } from "../pid-alive";

/** How long the probe of a running Patchbay may take before the command works on its own (ms). */
export const PROBE_TIMEOUT_MS = 2_000;
/** Cap on one admin call once the Patchbay answered (ms): a sweep is bounded at ~10 s by the server and may queue
 *  behind one in progress. */
export const CALL_TIMEOUT_MS = 60_000;

/** A Patchbay that answered on its admin API with the token of runtime.json. */
export interface RunningPatchbay {
  pid: number;
  /** Its admin origin, e.g. `http://127.0.0.1:51234`. */
  adminUrl: string;
  /** Typed admin client authenticated with the runtime token (throws AdminApiError). */
  client: AdminClient;
}

/** Test seams: the fetch used (default: global fetch), the liveness check of a pid, the timeouts (ms). */
export interface FindRunningOptions {
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  isAlive?: (pid: number) => boolean;
  probeTimeoutMs?: number;
  /** Cap on each later call (ms, default CALL_TIMEOUT_MS). */
  callTimeoutMs?: number;
}

/**
 * The Patchbay serving `dataDir`, or null when there is none: no runtime.json or an unreadable one, a dead pid, or
 * an admin API that does not answer `GET /admin/api/status` with the file's token within {@link PROBE_TIMEOUT_MS}.
 * Never throws.
 */
export async function findRunningPatchbay(
  dataDir: string,
  opts: FindRunningOptions = {},
): Promise<RunningPatchbay | null> {
  const info = await readRuntimeFile(dataDir);
  if (!info || !(opts.isAlive ?? pidAlive)(info.pid)) return null;
  const baseFetch = opts.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));
  const authed =
    (timeoutMs: number): FetchLike =>
    async (url, init) => {
      try {
        return await baseFetch(url, {
          method: init.method,
          headers: { ...init.headers, authorization: `Bearer ${info.adminToken}` },
          ...(init.body === undefined ? {} : { body: init.body }),
          redirect: "error", // the token is for this origin only
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        if ((err as Error).name === "TimeoutError")
          throw new Error(
            `no answer from ${info.adminUrl} within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`,
          );
        throw err;
      }
    };
  try {
    await createAdminClient(authed(opts.probeTimeoutMs ?? PROBE_TIMEOUT_MS), info.adminUrl).getStatus();
  } catch {
    return null;
  }
  return {
    pid: info.pid,
    adminUrl: info.adminUrl,
    client: createAdminClient(authed(opts.callTimeoutMs ?? CALL_TIMEOUT_MS), info.adminUrl),
  };
}
