// A versioned JSON file `{version, data}` on disk: reading and recognising it (migrate, validate), the signature that
// tells an external change, and the cross-process lock writers take. The store that caches it is json-file.ts.
import type fs from "node:fs";
import fsp from "node:fs/promises";
import lockfile from "proper-lockfile";
import type { z } from "zod";
import { describeFsError, errnoCode } from "./storage-error";
import { fromZodError } from "./validation";

/** What a file's format is: its current version, the schema of `data`, and how older versions are upgraded. */
export interface VersionedFormat<T> {
  /** Current format version written to disk. */
  version: number;
  /** Schema of `data`; may fill defaults for fields added later. */
  schema: z.ZodType<T>;
  /** Upgrades `data` written with an older `version` before validation. Default: identity. */
  migrate?: (fromVersion: number, data: unknown) => unknown;
}

export interface FileSignature {
  mtimeMs: number;
  size: number;
  ino: number;
}

export type ReadResult<T> =
  { kind: "ok"; data: T; raw: string } | { kind: "missing" } | { kind: "bad"; reason: string };

/** A lock not refreshed for this long belongs to a crashed process and is taken over (ms). */
const LOCK_STALE_MS = 10_000;
/** How long a writer waits for a lock held by another process before giving up with `storage_error` (ms). */
const LOCK_WAIT_MS = 15_000;

/** Reads and recognises `file`: missing, bad (why), or its validated data and raw text. */
export async function readVersionedFile<T>(file: string, format: VersionedFormat<T>): Promise<ReadResult<T>> {
  let raw: string;
  try {
    raw = await fsp.readFile(file, "utf8");
  } catch (err) {
    if (errnoCode(err) === "ENOENT") return { kind: "missing" };
    return { kind: "bad", reason: describeFsError(err) };
  }
  return parseVersioned(raw, format);
}

/** Recognises a file's text: `{version, data}` with a known version, `data` migrated from an older version and
 *  validated by the schema. */
export function parseVersioned<T>(raw: string, format: VersionedFormat<T>): ReadResult<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return { kind: "bad", reason: `invalid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (typeof json !== "object" || json === null || !("version" in json) || !("data" in json)) {
    return { kind: "bad", reason: "not a Patchbay file ({version, data} expected)" };
  }
  const version = json.version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    return { kind: "bad", reason: "invalid version" };
  }
  const data = version < format.version && format.migrate ? format.migrate(version, json.data) : json.data;
  const parsed = format.schema.safeParse(data);
  if (!parsed.success) {
    const newer = version > format.version ? ` (written by a newer Patchbay, format ${version})` : "";
    return { kind: "bad", reason: `invalid content${newer}: ${fromZodError(parsed.error).message}` };
  }
  return { kind: "ok", data: parsed.data, raw };
}

/** Takes the cross-process lock. Only a lock held by someone else is retried (with jittered backoff, long
 *  enough to outlast a crashed holder's stale lock); any other failure (unwritable folder…) is thrown at once. */
export async function lockFile(file: string, onCompromised: (err: Error) => void): Promise<() => Promise<void>> {
  const deadline = performance.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await lockfile.lock(file, {
        realpath: false,
        stale: LOCK_STALE_MS,
        update: LOCK_STALE_MS / 5,
        retries: 0,
        // Default would throw from a timer and crash the process; a lost lock only weakens one write's guarantee.
        onCompromised,
      });
    } catch (err) {
      if (errnoCode(err) !== "ELOCKED" || performance.now() > deadline) throw err;
      const backoff = Math.min(100, 5 * 1.3 ** attempt);
      await new Promise((r) => setTimeout(r, backoff / 2 + Math.random() * backoff));
    }
  }
}

export function toSignature(st: fs.Stats): FileSignature {
  return { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino };
}

export function sameSignature(a: FileSignature | null, b: FileSignature | null): boolean {
  if (a === null || b === null) return a === b;
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
