// Tiny watchdog between Patchbay and `opencode serve`: runs the binary and kills it when Patchbay goes away, even if
// Patchbay was SIGKILLed (the IPC channel then closes). Plain JS, node builtins only: it runs under `process.execPath`
// (node, or Electron with ELECTRON_RUN_AS_NODE=1) without tsx. It must not do anything else. Used on Windows and where
// /bin/sh is missing; Linux and macOS run its few-MB twin child-guard.sh (same guarantees; guard.ts starts either).
//
// argv: <binary> [...args]. IPC messages to the parent: {type:"spawned",pid} | {type:"error",code,message} |
// {type:"exit",code,signal}; from the parent: {type:"record-pid"}. SIGTERM to this process is forwarded to the child (escalating to SIGKILL after 3 s).
// OpenCode runs in its own process group (signals go to the whole group, helpers included). Its pid is recorded in
// $PATCHBAY_OPENCODE_PIDFILE while it runs, so Patchbay can stop a leftover one if this guard is SIGKILLed.
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";

const [bin, ...args] = process.argv.slice(2);
const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE;

const KILL_GRACE_MS = 3000;
/** How often the parent is checked (ms): a parent that died without closing IPC still stops OpenCode. */
const PARENT_POLL_MS = 500;
const PIDFILE = process.env.PATCHBAY_OPENCODE_PIDFILE;
// A recycle's replacement: the pid file names the current OpenCode, so record ours only when Patchbay says so.
const DEFER_PIDFILE = process.env.PATCHBAY_GUARD_DEFER_PIDFILE === "1";
const GROUPS = process.platform !== "win32";
const parentPid = process.ppid;
let child;
let exited = false;
let finishing = false;

function send(msg) {
  try {
    if (process.connected) process.send(msg);
  } catch {}
}

function finish(code) {
  if (finishing) return;
  finishing = true;
  // Give the last IPC message a moment to flush, then go.
  setTimeout(() => process.exit(code), 50);
}

/** Signals OpenCode's whole process group (POSIX), else OpenCode itself. */
function signalChild(signal) {
  try {
    if (GROUPS && child.pid) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    try {
      child.kill(signal);
    } catch {}
  }
}

let stopRequested = false;
function stopChild() {
  if (!child || exited) return finish(0);
  if (stopRequested) return;
  stopRequested = true;
  signalChild("SIGTERM");
  setTimeout(() => {
    if (!exited) signalChild("SIGKILL");
  }, KILL_GRACE_MS).unref();
}

function writePidFile(pid) {
  if (!PIDFILE) return;
  try {
    writeFileSync(PIDFILE, JSON.stringify({ pid, guard: process.pid, parent: parentPid, startedAt: Date.now() }), {
      mode: 0o600,
    });
  } catch {}
}

function removePidFile(pid) {
  if (!PIDFILE) return;
  try {
    if (JSON.parse(readFileSync(PIDFILE, "utf8")).pid === pid) rmSync(PIDFILE, { force: true });
  } catch {}
}

function parentGone() {
  if (process.ppid !== parentPid) return true; // re-parented to init or a subreaper
  try {
    process.kill(parentPid, 0);
    return false;
  } catch (err) {
    return err.code === "ESRCH";
  }
}

if (!bin) {
  send({ type: "error", code: "EINVAL", message: "child-guard: no binary given" });
  finish(2);
} else {
  // Own process group: a group signal reaches OpenCode and anything it started, and nothing else.
  child = spawn(bin, args, { stdio: ["ignore", "inherit", "inherit"], env, detached: GROUPS });
  child.on("spawn", () => {
    if (!DEFER_PIDFILE) writePidFile(child.pid);
    send({ type: "spawned", pid: child.pid });
  });
  child.on("error", (err) => {
    if (exited) return;
    exited = true;
    send({ type: "error", code: err.code ?? null, message: err.message });
    finish(127);
  });
  child.on("exit", (code, signal) => {
    exited = true;
    removePidFile(child.pid);
    // Helpers OpenCode left in its group go with it.
    if (GROUPS) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }
    send({ type: "exit", code, signal });
    finish(code ?? 1);
  });
  // {type:"record-pid"}: this OpenCode became the current one (a recycle's swap), or the file was lost.
  process.on("message", (msg) => {
    if (msg?.type === "record-pid" && child.pid && !exited) writePidFile(child.pid);
  });
  // Patchbay is gone (exit, crash or SIGKILL): its end of the IPC pipe closed.
  process.on("disconnect", stopChild);
  process.on("SIGTERM", stopChild);
  process.on("SIGINT", stopChild);
  process.on("SIGHUP", stopChild);
  setInterval(() => {
    if (parentGone()) stopChild();
  }, PARENT_POLL_MS).unref();
}
