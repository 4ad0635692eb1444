// Tiny watchdog between Patchbay and `opencode serve`: runs the binary and kills it when Patchbay goes away, even if
// Patchbay was SIGKILLed (the IPC channel then closes). Plain JS, node builtins only: it runs under `process.execPath`
// (node, or Electron with ELECTRON_RUN_AS_NODE=1) without tsx. It must not do anything else.
//
// argv: <binary> [...args]. IPC messages to the parent: {type:"spawned",pid} | {type:"error",code,message} |
// {type:"exit",code,signal}. SIGTERM to this process is forwarded to the child (escalating to SIGKILL after 3 s).
import { spawn } from "node:child_process";

const [bin, ...args] = process.argv.slice(2);
const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE;

const KILL_GRACE_MS = 3000;
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

function stopChild() {
  if (!child || exited) return finish(0);
  try {
    child.kill("SIGTERM");
  } catch {}
  setTimeout(() => {
    try {
      if (!exited) child.kill("SIGKILL");
    } catch {}
  }, KILL_GRACE_MS).unref();
}

if (!bin) {
  send({ type: "error", code: "EINVAL", message: "child-guard: no binary given" });
  finish(2);
} else {
  child = spawn(bin, args, { stdio: ["ignore", "inherit", "inherit"], env });
  child.on("spawn", () => send({ type: "spawned", pid: child.pid }));
  child.on("error", (err) => {
    if (exited) return;
    exited = true;
    send({ type: "error", code: err.code ?? null, message: err.message });
    finish(127);
  });
  child.on("exit", (code, signal) => {
    exited = true;
    send({ type: "exit", code, signal });
    finish(code ?? 1);
  });
  // Patchbay is gone (exit, crash or SIGKILL): its end of the IPC pipe closed.
  process.on("disconnect", stopChild);
  process.on("SIGTERM", stopChild);
  process.on("SIGINT", stopChild);
  process.on("SIGHUP", stopChild);
}
