// The child guard that runs `opencode serve` and stops it when Patchbay goes away, even by SIGKILL: which one runs,
// how it is started and how Patchbay talks to it. Two guards, one protocol. On Linux and macOS a POSIX sh script
// (child-guard.sh, a few MB): reports on fd 3, messages on its stdin, whose end of file means Patchbay is gone. On
// Windows, or without /bin/sh, a Node script (child-guard.mjs, ≈ 40 MB as a second Node) over Node's IPC channel,
// whose disconnect means the same.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import readline from "node:readline";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** The Node guard (Windows; the fallback without /bin/sh). Runs under `process.execPath` with ELECTRON_RUN_AS_NODE. */
export const GUARD_NODE = fileURLToPath(new URL("./child-guard.mjs", import.meta.url));
/** The POSIX sh guard (Linux, macOS). */
export const GUARD_SH = fileURLToPath(new URL("./child-guard.sh", import.meta.url));
const SH = "/bin/sh";

/** What the guard reports: OpenCode's pid once started, why it could not start, and how it ended. */
export const GuardMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("spawned"), pid: z.number().int() }),
  z.object({ type: z.literal("error"), code: z.string().nullable().optional(), message: z.string() }),
  z.object({ type: z.literal("exit"), code: z.number().nullable(), signal: z.string().nullable() }),
]);
export type GuardMessage = z.infer<typeof GuardMessage>;

/** Set in a guard's environment: do not write the pid file at spawn, only when told to (`record-pid`). */
export const DEFER_PIDFILE_ENV = "PATCHBAY_GUARD_DEFER_PIDFILE";

/** Which guard script runs OpenCode. */
export type GuardKind = "sh" | "node";

/** Set once the sh guard reported that it cannot give OpenCode a process group of its own (ENOSYS). */
let shUnusable = false;

/** The sh guard where /bin/sh exists (Linux, macOS) and has not failed, else the Node guard (Windows). */
export function guardKind(): GuardKind {
  return process.platform !== "win32" && !shUnusable && existsSync(SH) ? "sh" : "node";
}

/** A started guard. */
export interface Guard {
  process: ChildProcess;
  kind: GuardKind;
  /** Asks the guard to (re)write the pid file with OpenCode's pid. Never throws (a gone guard ignores it). */
  recordPid(): void;
}

/** How to start a guard: OpenCode's working directory and environment, and where its reports go. */
export interface GuardOptions {
  cwd: string;
  env: Record<string, string>;
  /** Write the pid file only on {@link Guard.recordPid} (a recycle's replacement: the file names the current one). */
  deferPidFile?: boolean;
  onMessage(msg: GuardMessage): void;
  /** Default: {@link guardKind}. */
  kind?: GuardKind;
}

/**
 * Starts the guard, which runs `command` (the binary, then its arguments) with stdout and stderr passed through
 * (the guard's `stdout`, `stderr`). On POSIX the guard leads its own process group, so a SIGKILL of the group takes
 * the guard and its helpers, and a terminal's Ctrl-C reaches Patchbay only (which stops the child in order).
 */
export function startGuard(command: string[], opts: GuardOptions): Guard {
  const kind = opts.kind ?? guardKind();
  const env = { ...opts.env, ...(opts.deferPidFile ? { [DEFER_PIDFILE_ENV]: "1" } : {}) };
  const common = { cwd: opts.cwd, detached: process.platform !== "win32", windowsHide: true };
  if (kind === "node") {
    const child = spawn(process.execPath, [GUARD_NODE, ...command], {
      ...common,
      env: { ...env, ELECTRON_RUN_AS_NODE: "1" },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    child.on("message", (raw) => {
      const msg = GuardMessage.safeParse(raw);
      if (msg.success) opts.onMessage(msg.data);
    });
    const recordPid = () => {
      try {
        if (child.connected) child.send({ type: "record-pid" });
      } catch {}
    };
    return { process: child, kind, recordPid };
  }
  const child = spawn(SH, [GUARD_SH, ...command], { ...common, env, stdio: ["pipe", "pipe", "pipe", "pipe"] });
  // A write after the guard is gone fails with EPIPE; that must not become an uncaught error.
  child.stdin!.on("error", () => {});
  readline.createInterface({ input: child.stdio[3] as Readable }).on("line", (line) => {
    const msg = parseGuardLine(line);
    if (!msg) return;
    if (msg.type === "error" && msg.code === "ENOSYS") shUnusable = true; // the next start uses the Node guard
    opts.onMessage(msg);
  });
  const recordPid = () => {
    if (child.stdin!.writable) child.stdin!.write("record-pid\n");
  };
  return { process: child, kind, recordPid };
}

/**
 * One report line of the sh guard as a {@link GuardMessage}: `spawned <pid>`, `error <code> <message>`,
 * `exit <code|-> <signal|->` ("-" for null). Null for anything else.
 */
export function parseGuardLine(line: string): GuardMessage | null {
  const [type, a, ...rest] = line.trim().split(" ");
  const orNull = (s: string | undefined) => (s === undefined || s === "-" ? null : s);
  let raw: unknown = null;
  if (type === "spawned") raw = { type, pid: Number(a) };
  else if (type === "error") raw = { type, code: orNull(a), message: rest.join(" ") };
  else if (type === "exit") {
    const code = orNull(a);
    raw = { type, code: code === null ? null : Number(code), signal: orNull(rest[0]) };
  }
  const msg = GuardMessage.safeParse(raw);
  return msg.success ? msg.data : null;
}
