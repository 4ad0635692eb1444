// Shared helpers of the store tests: temp data dirs, a request-log entry, making a folder unwritable.
import { logEntry as buildLogEntry } from "../../harness/builders";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RequestLogEntry } from "../../../shared/log-entry";

/** The shared builder with this folder's defaults (app `alpha`, model `mock/m1`, no usage, no session). */
export function logEntry(over: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return buildLogEntry({
    app: "alpha",
    modelAsked: "mock/m1",
    modelResolved: "mock/m1",
    ttftMs: 10,
    totalMs: 20,
    usage: null,
    sessionId: null,
    ...over,
  });
}

/** A fresh temp folder; remove it with {@link removeDir}. */
export function tempDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `pb-${tag}-`));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Makes `dir` unwritable for this process: chmod 0500, or for root (which ignores modes) `chattr +i`.
 * Returns a function that undoes it, or null when this machine offers no way (the caller skips its test).
 */
export function makeUnwritable(dir: string): (() => void) | null {
  const probe = () => {
    try {
      fs.writeFileSync(path.join(dir, ".probe"), "x");
      fs.rmSync(path.join(dir, ".probe"));
      return true;
    } catch {
      return false;
    }
  };
  fs.chmodSync(dir, 0o500);
  if (!probe()) return () => fs.chmodSync(dir, 0o700);
  fs.chmodSync(dir, 0o700);
  try {
    execFileSync("chattr", ["+i", dir], { stdio: "ignore" });
  } catch {
    return null;
  }
  if (!probe()) return () => execFileSync("chattr", ["-i", dir], { stdio: "ignore" });
  execFileSync("chattr", ["-i", dir], { stdio: "ignore" });
  return null;
}
