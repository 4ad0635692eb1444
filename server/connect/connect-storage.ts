// Where `patchbay connect` keeps what undo needs (`<dataDir>/connect-backups/`: one record per config file, keyed by
// a hash of its absolute path; mode 0600, the files may hold secrets) and how it reads a client's config file safely
// (at most 4 MiB, UTF-8 only, a clear ConfigFileError otherwise). connect-files.ts does the writing and restoring.
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { ConnectableClient } from "../clients/registry";
import { ConfigFileError } from "../clients/types";

/** Where connect keeps what it needs for undo. */
export function backupsDir(dataDir: string): string {
  return path.join(dataDir, "connect-backups");
}

/** What connect remembers about the original of one client's file. */
export const BackupRecord = z.object({
  version: z.literal(1),
  /** The config file it belongs to. */
  path: z.string(),
  /** The file existed before the first connect (else undo removes it). */
  existed: z.boolean(),
  /** Copy of the original bytes (null when it did not exist). */
  backup: z.string().nullable(),
  /** Permission bits of the original. */
  mode: z.number().int().nullable(),
  createdAt: z.number().int(),
  /** sha256 of what connect last wrote (undo notices later hand edits and keeps them aside). */
  writtenSha256: z.string(),
});
export type BackupRecord = z.infer<typeof BackupRecord>;

/** Where to find the client's file, and the data folder. */
export interface ConnectTarget {
  client: ConnectableClient;
  dataDir: string;
  /** Environment for the config file's location (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME). */
  env: Record<string, string | undefined>;
}

/** The client's config file path; PatchbayError-free: throws ConfigFileError when HOME is unknown. */
export function configPath(t: ConnectTarget): string {
  const home = t.env.HOME?.trim() || t.env.USERPROFILE?.trim();
  if (!home) throw new ConfigFileError("HOME is not set, so the client's config folder is unknown.");
  return t.client.config.path(t.env, home);
}

/** Short id of a config file: the first 16 hex digits of the sha256 of its absolute path. */
export function pathId(file: string): string {
  return sha256(path.resolve(file)).slice(0, 16);
}

/** The backup record of one config file: `<client>-<path id>.json`. */
export function recordPath(t: ConnectTarget, file: string): string {
  return path.join(backupsDir(t.dataDir), `${t.client.id}-${pathId(file)}.json`);
}

/** Where versions before per-file records kept the one record of a client (read for undo, removed when replaced). */
function legacyRecordPath(t: ConnectTarget): string {
  return path.join(backupsDir(t.dataDir), `${t.client.id}.json`);
}

export function sha256(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** `20261201T193000Z`. */
export function stamp(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** Largest client config file connect edits (4 MiB): they are a few KB; parsing and editing one runs on the main
 *  thread, so a huge one would stall the server (or a CLI run past Ctrl-C). */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** The file's bytes, or null when it does not exist. Throws ConfigFileError when it cannot be read or (`capped`, for
 *  a file to parse) is over {@link MAX_CONFIG_BYTES}. */
export async function readBytes(file: string, capped = true): Promise<Buffer | null> {
  try {
    if (capped) refuseHuge(file, (await stat(file)).size);
    return await readFile(file);
  } catch (err) {
    if (err instanceof ConfigFileError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ENOENT") return null;
    throw new ConfigFileError(`Cannot read ${file} (${e.code ?? e.message}); Patchbay did not change it.`);
  }
}

/** Refuses a file over {@link MAX_CONFIG_BYTES} (ConfigFileError), before anything parses it. */
export function refuseHuge(file: string, size: number): void {
  if (size > MAX_CONFIG_BYTES)
    throw new ConfigFileError(
      `${file} is over ${MAX_CONFIG_BYTES / 1024 / 1024} MB (${size.toLocaleString("en")} bytes); Patchbay edits ` +
        "client config files up to that size (they are usually a few KB), so it did not change it.",
    );
}

/** The file's text; refuses bytes that are not UTF-8 (a round trip would change them). */
export function decode(bytes: Buffer, file: string): string {
  const text = bytes.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes))
    throw new ConfigFileError(`${file} is not UTF-8 text; Patchbay did not change it.`);
  return text;
}

async function readRecordAt(at: string): Promise<BackupRecord | null> {
  try {
    const parsed = BackupRecord.safeParse(JSON.parse(await readFile(at, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The record of `file` and where it is stored (the per-file record, else a legacy per-client one for this file). */
export async function readRecord(t: ConnectTarget, file: string): Promise<{ record: BackupRecord; at: string } | null> {
  const own = recordPath(t, file);
  const record = await readRecordAt(own);
  if (record?.path === file) return { record, at: own };
  const legacy = legacyRecordPath(t);
  const old = await readRecordAt(legacy);
  return old?.path === file ? { record: old, at: legacy } : null;
}
