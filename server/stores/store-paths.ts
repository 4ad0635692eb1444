// Where the stores live inside Patchbay's data folder, and the options every store factory takes.
// Must not read or write store content.
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AtomicWriter } from "./json-file-options";
import { storageError } from "./storage-error";
import type { CliCommand } from "../core/cli-command";

/** File names inside the data folder. */
export const STORE_FILES = {
  settings: "settings.json",
  apps: "apps.json",
  keys: "keys.json",
  logDir: "logs",
} as const;

/** Options shared by the store factories. */
export interface StoreOptions {
  /** Patchbay's data folder; created with mode 0700 when missing. */
  dataDir: string;
  /** Wall clock, epoch ms (default Date.now). */
  clock?: () => number;
  /** Watch files for changes by other processes (default true). The CLI turns it off: it lives for one command. */
  watch?: boolean;
  /** Test hook: replaces the atomic writer (e.g. to simulate a full disk). */
  writeFile?: AtomicWriter;
  /** Told every new notice of a store (e.g. its file on disk became invalid), so the server can log it. */
  onNotice?: (message: string) => void;
  /** See JsonFileOptions.onInvalid (the CLI passes `keep`). */
  onInvalid?: "set-aside" | "keep";
  /** How a refusal names a Patchbay command (default {@link bareCli}). */
  cli?: CliCommand;
}

/** Creates the data folder (mode 0700: it holds key hashes and logs) if missing, and tightens one that existed
 *  before (see {@link tightenDataDir}). Throws `storage_error`. */
export async function ensureDataDir(dataDir: string): Promise<void> {
  try {
    await fsp.mkdir(dataDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw storageError("create the data folder", dataDir, err);
  }
  tightenDataDir(dataDir);
}

/**
 * Makes a data folder that existed before Patchbay's first run (e.g. 0755 from `mkdir`) private like one Patchbay
 * creates: mode 0700. Only the folder itself, only when this user owns it, and never the home folder or `/` (a user
 * who points --data-dir there did not hand that folder to Patchbay). Returns true when the mode was changed; never
 * throws (a folder we may not chmod keeps its mode).
 */
export function tightenDataDir(dataDir: string): boolean {
  if (process.platform === "win32" || typeof process.getuid !== "function") return false;
  const resolved = path.resolve(dataDir);
  if (resolved === path.parse(resolved).root || resolved === path.resolve(os.homedir())) return false;
  try {
    const st = fs.statSync(resolved);
    if (!st.isDirectory() || st.uid !== process.getuid() || (st.mode & 0o077) === 0) return false;
    fs.chmodSync(resolved, st.mode & 0o700);
    return true;
  } catch {
    return false;
  }
}

/** Absolute path of a store file in `dataDir`. */
export function storePath(dataDir: string, name: string): string {
  return path.join(path.resolve(dataDir), name);
}
