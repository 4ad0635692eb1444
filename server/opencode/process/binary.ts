// Finds the pinned `opencode` binary and checks it can run. Owns nothing else (spawning is the supervisor's job).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

/** Where the binary comes from, in order: explicit option, PATCHBAY_OPENCODE_BIN, the pinned `opencode-ai` package. */
export function resolveOpenCodeBinary(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return path.resolve(explicit);
  if (env.PATCHBAY_OPENCODE_BIN) return path.resolve(env.PATCHBAY_OPENCODE_BIN);
  try {
    const pkg = createRequire(import.meta.url).resolve("opencode-ai/package.json");
    return path.join(path.dirname(pkg), "bin", "opencode.exe");
  } catch {
    return path.resolve("node_modules", "opencode-ai", "bin", "opencode.exe");
  }
}

/** Null when `file` exists and is executable, else a sentence saying what is wrong (for the `failed` reason). */
export function checkOpenCodeBinary(file: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return `OpenCode binary not found at ${file}. Reinstall Patchbay (npm install) or set PATCHBAY_OPENCODE_BIN.`;
  }
  if (!stat.isFile()) return `OpenCode binary path ${file} is not a file.`;
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    return `OpenCode binary ${file} is not executable (chmod +x it, or reinstall).`;
  }
  return null;
}
