// `npm start`: builds the dashboard if needed, then runs the desktop app (Electron) when it can, else the headless
// server (`patchbay serve`), saying why in one line. Arguments are passed on (`npm start -- --demo --port 0`);
// SIGINT/SIGTERM/SIGHUP are forwarded so the child stops cleanly, OpenCode included.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decideLaunchMode, fallbackLine, findElectronBinary, shouldForwardSignal } from "./launch-mode.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);

/** Builds dist/renderer with vite when its index.html is missing. A failed build is reported, not fatal. */
async function ensureRenderer() {
  if (existsSync(path.join(ROOT, "dist", "renderer", "index.html"))) return;
  if (process.env.PATCHBAY_NO_RENDERER_BUILD) return;
  console.log("Patchbay: building the dashboard (first run only; up to a minute on a busy machine)…");
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve("vite/package.json")), "bin", "vite.js");
  const output = [];
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [vite, "build", "--logLevel", "warn"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (d) => output.push(d));
    child.stderr.on("data", (d) => output.push(d));
    child.on("error", (err) => {
      output.push(Buffer.from(String(err)));
      resolve(1);
    });
    child.on("exit", (c) => resolve(c ?? 1));
  });
  if (code !== 0) {
    process.stderr.write(Buffer.concat(output));
    console.error("Patchbay: the dashboard build failed (see above); starting anyway, the API works without it.");
  }
}

/** How often the launcher checks that whoever started it (npm, a shell) is still there (ms). */
const PARENT_POLL_MS = 500;

/**
 * Runs a child with inherited stdio, forwards signals, and exits like it. When our own parent goes away without
 * signalling us (`npm start` killed with SIGTERM: npm's `sh -c` dies and leaves us to init), the child gets SIGTERM
 * too, so no server or OpenCode outlives the command that started them. The child is told to do the same
 * (PATCHBAY_STOP_WITH_PARENT) in case this launcher itself is SIGKILLed.
 */
function runForwarding(command, argv, options = {}) {
  const child = spawn(command, argv, {
    cwd: ROOT,
    stdio: "inherit",
    ...options,
    env: { ...process.env, ...options.env, PATCHBAY_STOP_WITH_PARENT: "1" },
  });
  const parentPid = process.ppid;
  const parentPoll = setInterval(() => {
    if (process.ppid === parentPid || child.exitCode !== null || child.signalCode !== null) return;
    clearInterval(parentPoll);
    console.error("Patchbay: the command that started Patchbay has gone away; stopping.");
    child.kill("SIGTERM");
  }, PARENT_POLL_MS);
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  const handlers = new Map();
  for (const sig of signals) {
    const h = () => {
      if (
        shouldForwardSignal(sig, Boolean(process.stdin.isTTY)) &&
        child.exitCode === null &&
        child.signalCode === null
      ) {
        child.kill(sig);
      }
    };
    handlers.set(sig, h);
    process.on(sig, h);
  }
  child.on("error", (err) => {
    console.error(`Patchbay: could not run ${command}: ${err.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    clearInterval(parentPoll);
    for (const [sig, h] of handlers) process.off(sig, h);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

async function main() {
  await ensureRenderer();
  const decision = decideLaunchMode({
    platform: process.platform,
    env: process.env,
    electronBinary: findElectronBinary(import.meta.url),
    exists: existsSync,
  });
  if (decision.mode === "desktop") {
    console.log("Patchbay: starting the desktop app (Electron).");
    const { buildMain } = await import("./build-main.mjs");
    await buildMain({ quiet: true });
    runForwarding(decision.electronBinary, [ROOT, ...args]);
    return;
  }
  console.log(fallbackLine(decision.reason));
  runForwarding(process.execPath, [path.join(ROOT, "bin", "patchbay.mjs"), "serve", ...args]);
}

main().catch((err) => {
  console.error(`Patchbay: ${err?.stack ?? err}`);
  process.exit(1);
});
