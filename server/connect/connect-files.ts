// Writes and restores a client's own config file for `patchbay connect` (CLI and admin API): merge Patchbay's settings
// in, keep one backup of the original per config file (connect-storage.ts: where, and how files are read safely),
// restore it byte for byte on undo. The written file is made 0600 (it holds the key). A file that cannot be read or
// parsed is refused and left untouched.
import { chmod, lstat, mkdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { ConnectableClient } from "../clients/registry";
import { ConfigFileError, type ClientSettings } from "../clients/types";
import { unifiedDiff } from "../clients/unified-diff";
import { withConnectLock } from "./connect-lock";
import {
  backupsDir,
  configPath,
  decode,
  MAX_CONFIG_BYTES,
  pathId,
  readBytes,
  readRecord,
  recordPath,
  refuseHuge,
  sha256,
  stamp,
  type ConnectTarget,
} from "./connect-storage";

export { backupsDir, configPath, MAX_CONFIG_BYTES, type ConnectTarget } from "./connect-storage";

/** `err` with the file's full path in place of its bare name (`settings.json is not valid JSON` names which one). */
function withFullPath(err: unknown, file: string): unknown {
  if (!(err instanceof ConfigFileError) || err.message.includes(file)) return err;
  const base = path.basename(file);
  const message = err.message.includes(base) ? err.message.replace(base, file) : `${file}: ${err.message}`;
  return new ConfigFileError(message);
}

/** The merge connect would do now. */
export interface ConnectPlan {
  path: string;
  before: string | null;
  after: string;
  changed: boolean;
  /** The original's backup from an earlier connect of this file, if any. */
  backup: string | null;
  /** Set by apply: the permission bits the file had when connect made it 0600 (null when it already was or is new). */
  tightenedFrom: number | null;
  /** The companion file's plan (Codex's model catalog), when the client has one and these settings fill it. */
  companion?: ConnectPlan & { what: string };
}

/**
 * The companion file of `file` as a target of its own (its own backup record, keyed by its path) whose merge gives
 * `text` (the companion's merge, made once by the plan); null when the client has none. Only ever touched under the
 * config file's lock.
 */
function companionTarget(t: ConnectTarget, file: string, text: string): ConnectTarget | null {
  const c = t.client.config.companion;
  if (!c) return null;
  const at = c.path(file);
  return {
    ...t,
    // Patchbay owns the whole file: without a backup, undo takes all of it out (see undoLocked).
    client: { ...t.client, config: { path: () => at, merge: () => text, unmerge: () => "", read: () => null } },
  };
}

/** The companion's plan for `settings` (undefined when the client has none or it has nothing to write). */
async function planCompanion(
  t: ConnectTarget,
  file: string,
  settings: ClientSettings,
): Promise<(ConnectPlan & { what: string }) | undefined> {
  const c = t.client.config.companion;
  if (!c) return undefined;
  const at = c.path(file);
  await refuseLink(at);
  const bytes = await readBytes(at);
  let text: string | null;
  try {
    text = c.merge(bytes === null ? null : decode(bytes, at), settings);
  } catch (err) {
    throw withFullPath(err, at);
  }
  const ct = text === null ? null : companionTarget(t, file, text);
  return ct ? { ...(await planConnect(ct, settings)), what: c.what } : undefined;
}

/** Refuses a path that is a symbolic link: writing through it would change a file elsewhere (or replace the link). */
async function refuseLink(file: string): Promise<void> {
  let link = false;
  try {
    link = (await lstat(file)).isSymbolicLink();
  } catch {
    return;
  }
  if (link)
    throw new ConfigFileError(
      `${file} is a symbolic link; Patchbay does not write through links. Replace it with the file itself, or ` +
        "set the client up by hand. Patchbay did not change it.",
    );
}

/** Reads the file and merges `settings` in, writing nothing. Throws ConfigFileError. */
export async function planConnect(t: ConnectTarget, settings: ClientSettings): Promise<ConnectPlan> {
  const file = configPath(t);
  await refuseLink(file);
  const bytes = await readBytes(file);
  const before = bytes === null ? null : decode(bytes, file);
  let after: string;
  try {
    after = t.client.config.merge(before, settings, file);
  } catch (err) {
    throw withFullPath(err, file);
  }
  const found = await readRecord(t, file);
  const plan: ConnectPlan = {
    path: file,
    before,
    after,
    changed: after !== before,
    backup: found?.record.backup ?? null,
    tightenedFrom: null,
  };
  const companion = await planCompanion(t, file, settings);
  if (companion) plan.companion = companion;
  return plan;
}

/** The plan as a unified diff with `key` (when given) shortened to its first characters. */
export function planDiff(plan: ConnectPlan, key: string | null): string {
  const hide = (text: string) => (key ? text.split(key).join(`${key.slice(0, 7)}…`) : text);
  return unifiedDiff(plan.before === null ? null : hide(plan.before), hide(plan.after), path.basename(plan.path));
}

/** The cross-process lock of one config file's connect/undo (see connect-lock.ts). */
function lockedFile<T>(t: ConnectTarget, file: string, fn: () => Promise<T>): Promise<T> {
  return withConnectLock(backupsDir(t.dataDir), path.join(backupsDir(t.dataDir), `${t.client.id}-${pathId(file)}`), fn);
}

/**
 * Applies {@link planConnect}: backup of the original on the first connect, then an atomic write. One apply or undo
 * of the file at a time (a second waits), so the backup is always taken once, from the original. `settings` may be a
 * function of the file's text as the lock holder reads it (null: no file), so what it takes from the file (the key
 * to keep) is what the write replaces, also when another apply wrote the file meanwhile. Throws ConfigFileError, or
 * PatchbayError `conflict` when another apply holds the file too long.
 */
export async function applyConnect(
  t: ConnectTarget,
  settings: ClientSettings | ((before: string | null) => Promise<ClientSettings>),
  now: () => number = Date.now,
): Promise<ConnectPlan> {
  const file = configPath(t);
  return lockedFile(t, file, async () => {
    if (typeof settings !== "function") return applyLocked(t, settings, now);
    await refuseLink(file);
    const bytes = await readBytes(file);
    return applyLocked(t, await settings(bytes === null ? null : decode(bytes, file)), now);
  });
}

async function applyLocked(t: ConnectTarget, settings: ClientSettings, now: () => number): Promise<ConnectPlan> {
  const plan = await planConnect(t, settings);
  // The companion first: the config file never names a file that is not there yet.
  if (plan.companion) {
    const ct = companionTarget(t, plan.path, plan.companion.after);
    if (ct) plan.companion = { ...(await applyLocked(ct, settings, now)), what: plan.companion.what };
  }
  const mode = plan.before === null ? null : (await stat(plan.path)).mode & 0o7777;
  // The file holds the key: readable by its owner only (also when connect finds nothing else to change).
  const tightenedFrom = mode !== null && (mode & 0o077) !== 0 ? mode : null;
  if (!plan.changed) {
    if (tightenedFrom !== null) await chmod(plan.path, tightenedFrom & 0o7700);
    return { ...plan, tightenedFrom };
  }
  const found = await readRecord(t, plan.path);
  let record = found?.record;
  await mkdir(backupsDir(t.dataDir), { recursive: true, mode: 0o700 });
  if (!record) {
    const original = await readBytes(plan.path);
    let backup: string | null = null;
    if (original !== null) {
      // One backup per original file: named after the file's path id, so a later first connect of it replaces it.
      backup = path.join(backupsDir(t.dataDir), `${t.client.id}-${pathId(plan.path)}-${stamp(now())}.orig`);
      await writeFileAtomic(backup, original, { mode: 0o600 });
    }
    record = {
      version: 1,
      path: plan.path,
      existed: original !== null,
      backup,
      mode,
      createdAt: now(),
      writtenSha256: "",
    };
  }
  await mkdir(path.dirname(plan.path), { recursive: true });
  // The file holds the key: readable by its owner only (undo puts the original's mode back).
  await writeFileAtomic(plan.path, plan.after, { mode: mode === null ? 0o600 : mode & 0o7700 });
  record.writtenSha256 = sha256(plan.after);
  await writeFileAtomic(recordPath(t, plan.path), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  if (found && found.at !== recordPath(t, plan.path)) await rm(found.at, { force: true });
  return { ...plan, backup: record.backup, tightenedFrom };
}

/** What undo did (see ConnectUndoResult). */
export interface UndoOutcome {
  path: string;
  action: "restored" | "removed" | "unmerged" | "nothing";
  savedCurrent: string | null;
  /** `unmerged`: nothing else was in the file, so it was removed. */
  emptied?: boolean;
  /** The Patchbay key the file held before undo (it stays valid: undo revokes nothing). A secret: not for the API. */
  heldKey?: string;
  /** What undo did to the companion file (Codex's model catalog), when the client has one. */
  companion?: Omit<UndoOutcome, "companion">;
}

/**
 * Puts the file back as it was before the first connect (byte for byte; removed if it did not exist). A version
 * edited since connect is kept aside first. Without a backup in this data folder, a file holding Patchbay's settings
 * is refused (ConfigFileError naming `--data-dir` and `--force`), unless `force`: then Patchbay's settings are taken
 * out (what they replaced cannot be put back; the file is kept aside). Holds the file's connect lock. Throws
 * ConfigFileError (PatchbayError `conflict`: see apply).
 */
export async function undoConnect(
  t: ConnectTarget,
  now: () => number = Date.now,
  options: { force?: boolean } = {},
): Promise<UndoOutcome> {
  const file = configPath(t);
  return lockedFile(t, file, async () => {
    const outcome = await undoLocked(t, file, now, (text) => {
      if (!holdsPatchbayKey(t, text)) return false;
      if (options.force) return true;
      throw new ConfigFileError(
        `${file} holds Patchbay's settings, but the data folder ${t.dataDir} has no backup of its original, so ` +
          "undo cannot put back what they replaced (your own model, for one). If you connected with another data " +
          "folder, undo with its --data-dir. To take Patchbay's settings out anyway, add --force (the file as it is " +
          "is kept aside first). Nothing was changed.",
      );
    });
    // After the config file, which no longer names it; without a backup, only when that file was just taken apart.
    const ct = companionTarget(t, file, "");
    const companion = ct ? await undoLocked(ct, configPath(ct), now, () => outcome.action === "unmerged") : null;
    return companion && companion.action !== "nothing" ? { ...outcome, companion } : outcome;
  });
}

/** Where undo keeps a version of `file` it is about to replace: `<client>-<path id>-<stamp>.replaced`. */
function replacedPath(t: ConnectTarget, file: string, now: () => number): string {
  return path.join(backupsDir(t.dataDir), `${t.client.id}-${pathId(file)}-${stamp(now())}.replaced`);
}

/** The key the client's config text holds, or null (no text, no settings, or a file the client cannot read). */
export function keyInText(client: ConnectableClient, text: string | null): string | null {
  if (text === null) return null;
  try {
    return client.config.read(text)?.key ?? null;
  } catch {
    return null; // a file the client cannot read holds no key
  }
}

/** True when the file holds a Patchbay key (`pb-…`), i.e. Patchbay's settings are in it now. Without a backup record
 *  that is the only proof: a variable of the same name may be the user's own (their `ANTHROPIC_MODEL`, a file undo
 *  already restored). */
function holdsPatchbayKey(t: ConnectTarget, text: string): boolean {
  return keyInText(t.client, text)?.startsWith("pb-") === true;
}

/** The Patchbay key in `bytes` (a file undo found), when small and readable enough to tell; else undefined. */
function heldKeyOf(t: ConnectTarget, bytes: Buffer | null): string | undefined {
  if (bytes === null || bytes.length > MAX_CONFIG_BYTES) return undefined;
  const key = keyInText(t.client, bytes.toString("utf8"));
  return key?.startsWith("pb-") ? key : undefined;
}

/** Undoes one file: from its backup record, else (no record) by taking Patchbay's settings out, when `ours(text)`. */
async function undoLocked(
  t: ConnectTarget,
  file: string,
  now: () => number,
  ours: (text: string) => boolean,
): Promise<UndoOutcome> {
  const found = await readRecord(t, file);
  const record = found?.record;
  // Restoring from a backup parses nothing: any size will do.
  const current = await readBytes(file, false);
  if (!found || !record) {
    if (current === null) return { path: file, action: "nothing", savedCurrent: null };
    refuseHuge(file, current.length);
    const text = decode(current, file);
    if (!ours(text)) return { path: file, action: "nothing", savedCurrent: null };
    const without = t.client.config.unmerge(text);
    if (without === text) return { path: file, action: "nothing", savedCurrent: null };
    // Without the original, the values Patchbay's replaced (the user's own model line) are gone from the file: the
    // whole file is kept aside first, so nothing is lost (another data folder may hold the backup).
    await mkdir(backupsDir(t.dataDir), { recursive: true, mode: 0o700 });
    const savedCurrent = replacedPath(t, file, now);
    await writeFileAtomic(savedCurrent, current, { mode: 0o600 });
    // Nothing but Patchbay's settings was in it: an empty file left behind would only be debris.
    const emptied = /^\s*(\{\s*\}\s*)?$/.test(without);
    if (emptied) await rm(file, { force: true });
    else await writeFileAtomic(file, without);
    const heldKey = heldKeyOf(t, current);
    return {
      path: file,
      action: "unmerged",
      savedCurrent,
      ...(emptied ? { emptied } : {}),
      ...(heldKey ? { heldKey } : {}),
    };
  }
  let savedCurrent: string | null = null;
  if (current !== null && sha256(current) !== record.writtenSha256) {
    savedCurrent = replacedPath(t, file, now);
    await writeFileAtomic(savedCurrent, current, { mode: 0o600 });
  }
  let action: UndoOutcome["action"];
  if (record.existed && record.backup) {
    const original = await readFile(record.backup);
    await writeFileAtomic(file, original, record.mode === null ? {} : { mode: record.mode });
    action = "restored";
  } else {
    await rm(file, { force: true });
    action = "removed";
  }
  if (record.backup) await rm(record.backup, { force: true });
  await rm(found.at, { force: true });
  const heldKey = heldKeyOf(t, current);
  return { path: file, action, savedCurrent, ...(heldKey ? { heldKey } : {}) };
}
