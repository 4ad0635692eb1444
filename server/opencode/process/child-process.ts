// The `opencode serve` child as a process: what the supervisor tracks per spawn, how readiness and health are read,
// and how it is signalled. Shared by the supervisor's current and successor processes; no policy.
import type { ChildProcess } from "node:child_process";
import net from "node:net";
import { z } from "zod";

/** One spawned `opencode serve` behind its guard. */
export interface Running {
  /** The child guard (guard.ts) that runs it. */
  guard: ChildProcess;
  /** Asks the guard to (re)write the pid file with this OpenCode's pid. Never throws. */
  recordPid(): void;
  /** PID of opencode itself (from the guard), null until spawned. */
  pid: number | null;
  url: string | null;
  exited: Promise<void>;
  stderrTail: string[];
  readyAt: number | null;
  /** OpenCode's version from its first healthy answer. */
  version?: string | null;
  hasExited: boolean;
  /** Stopped on purpose by recycle(): restart at once, not a crash. */
  recycled: boolean;
}

/** The line OpenCode prints once it listens. */
export const LISTENING = /opencode server listening on (http:\/\/\S+)/;
const HealthBody = z.object({ healthy: z.boolean(), version: z.string().optional() });
/** SIGTERM → SIGKILL grace on stop and recycle, ms. */
export const STOP_GRACE_MS = 3000;

/** Sends `signal` to the guard (which forwards SIGTERM) or, for SIGKILL, to opencode, the guard's whole process group
 *  (the guard is a group leader: its helpers go too) and the guard. */
export function signalGuard(run: Running, signal: NodeJS.Signals): void {
  if (signal === "SIGKILL") {
    if (run.pid) {
      try {
        process.kill(run.pid, "SIGKILL");
      } catch {}
    }
    if (process.platform !== "win32" && run.guard.pid) {
      try {
        process.kill(-run.guard.pid, "SIGKILL");
      } catch {}
    }
  }
  try {
    run.guard.kill(signal);
  } catch {}
}

/** "killed by SIGKILL" / "exit code 3", with the last stderr lines, for a status reason. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null, stderrTail: string[]): string {
  const how = signal ? `killed by ${signal}` : `exit code ${code}`;
  const tail = stderrTail.slice(-3).join(" | ").slice(0, 500);
  return tail ? `${how}: ${tail}` : how;
}

/** GET /global/health within `timeoutMs`: the body when healthy, else null. Never throws. */
export async function checkHealth(
  url: string,
  authorization: string,
  timeoutMs: number,
): Promise<{ version?: string } | null> {
  try {
    const res = await fetch(new URL("/global/health", url), {
      headers: { authorization },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return null;
    const body = HealthBody.safeParse(await res.json());
    return body.success && body.data.healthy ? body.data : null;
  } catch {
    return null;
  }
}

/** A free loopback TCP port for `--port`. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
