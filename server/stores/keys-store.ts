// Keys store (keys.json, mode 0600): per-app API keys kept as sha256 + visible prefix; constant-time verification.
// Must never write or return a full key except in the create result, and never log one.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import fsp from "node:fs/promises";
import { z } from "zod";
import type { App } from "../../shared/apps";
import { KEY_PREFIX_LENGTH, KeyRecord, type CreatedKey, type KeyInfo } from "../../shared/keys";
import { PatchbayError } from "../core/errors";
import { createAppsStore, type AppsStoreHandle } from "./apps-store";
import { JsonFileStore } from "./json-file";
import { ensureDataDir, STORE_FILES, storePath, type StoreOptions } from "./store-paths";
import type { AppsStore, KeyMatch, KeysStore, StoreLifecycle } from "./types";
import { parseInput } from "./validation";

/** Format version of keys.json. */
export const KEYS_VERSION = 1;

/** Every key starts with this; the visible prefix is the KEY_PREFIX_LENGTH characters after it. */
export const KEY_SCHEME = "pb-";

const KeysFile = z.object({ keys: z.array(KeyRecord).default([]) });
type KeysFile = z.infer<typeof KeysFile>;

const Label = z
  .string()
  .max(80, "Labels are at most 80 characters")
  .refine(
    (s) => ![...s].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127),
    "Labels must not contain control characters",
  );
export interface KeysStoreOptions extends StoreOptions {
  /** Apps store: `create` refuses unknown apps, `verify` refuses keys whose app is gone. Default: the store opens
   *  its own read view of `<dataDir>/apps.json` (pass the shared one when you have it). */
  apps?: Pick<AppsStore, "get"> & { refresh?(): void };
  /** Batching interval of last-used times (ms, default 10 000); also flushed on close(). */
  lastUsedFlushMs?: number;
}

/**
 * A new random key: `pb-` + 32 random bytes in base64url (43 characters). The body never starts with `-`, so the
 * bare prefix a user copies into `patchbay key revoke APP PREFIX` is never read as a command-line option.
 */
export function generateKey(): string {
  for (;;) {
    const body = randomBytes(32).toString("base64url");
    if (!body.startsWith("-")) return KEY_SCHEME + body;
  }
}

/** The visible prefix of a key: the KEY_PREFIX_LENGTH characters after `pb-`. */
export function keyPrefixOf(key: string): string {
  return key.slice(KEY_SCHEME.length, KEY_SCHEME.length + KEY_PREFIX_LENGTH);
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/**
 * Opens `<dataDir>/keys.json`. Errors: `app_not_found`, `key_not_found`, `invalid_request_error` (bad label),
 * `storage_error`. `verify` is synchronous and sees revocations by other processes within ~1 s.
 */
export async function createKeysStore(options: KeysStoreOptions): Promise<KeysStore & StoreLifecycle> {
  await ensureDataDir(options.dataDir);
  const clock = options.clock ?? Date.now;
  const flushMs = options.lastUsedFlushMs ?? 10_000;
  const path = storePath(options.dataDir, STORE_FILES.keys);
  const ownApps = options.apps
    ? null
    : await createAppsStore({ dataDir: options.dataDir, watch: options.watch, clock, onInvalid: options.onInvalid });
  const apps: Pick<AppsStore, "get"> & { refresh?(): void } = options.apps ?? (ownApps as AppsStoreHandle);
  const findApp = (name: string): App | undefined => {
    const found = apps.get(name);
    if (found) return found;
    ownApps?.refresh(); // our own view may lag a write made a moment ago by another store instance
    return apps.get(name);
  };
  /** True when `k` belongs to the app that now carries its name (same id); see KeyRecord. */
  const ownedByCurrentApp = (k: KeyRecord): boolean => k.appId !== undefined && apps.get(k.app)?.id === k.appId;
  // Tighten a file whose mode was loosened by hand; it holds key hashes.
  await fsp.chmod(path, 0o600).catch(() => undefined);
  const file = await JsonFileStore.open<KeysFile>({
    file: path,
    schema: KeysFile,
    version: KEYS_VERSION,
    defaults: () => ({ keys: [] }),
    mode: 0o600,
    watch: options.watch,
    clock,
    writeFile: options.writeFile,
    onNotice: options.onNotice,
    onInvalid: options.onInvalid,
  });

  // sha256 hex → record, rebuilt on every change (own or external).
  let byHash = new Map<string, KeyRecord>();
  const reindex = (data: KeysFile) => {
    byHash = new Map(data.keys.map((k) => [k.sha256, k]));
  };
  reindex(file.get());
  file.onChange(reindex);

  // prefix → last-used time not yet written.
  const pending = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const flush = async (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.size === 0) return;
    const batch = new Map(pending);
    pending.clear();
    try {
      await file.update((draft) => {
        for (const rec of draft.keys) {
          const used = batch.get(rec.prefix);
          if (used !== undefined && (rec.lastUsedAt ?? 0) < used) rec.lastUsedAt = used;
        }
      });
    } catch {
      // Keep the times for the next attempt (the disk may come back); never fail a request over this.
      for (const [prefix, at] of batch) if ((pending.get(prefix) ?? 0) < at) pending.set(prefix, at);
    }
  };

  /** Writes pending times within `flushMs`; a key's first use at once (`key list` reads the file, and "never"
   *  next to a key that just worked reads as if it did not). */
  const scheduleFlush = (firstUse: boolean) => {
    if (closed) return;
    if (firstUse && timer) clearTimeout(timer);
    else if (timer) return;
    timer = setTimeout(() => void flush(), firstUse ? 0 : flushMs);
    timer.unref();
  };

  return {
    async create(app, label = "") {
      const validLabel = parseInput(Label, label, "label");
      const owner = findApp(app);
      if (!owner) throw new PatchbayError("app_not_found", `No app named "${app}".`, { param: "app" });
      const out: { created?: CreatedKey } = {};
      await file.update((draft) => {
        // Keys of an earlier app with this name can never verify again; drop them while we write anyway.
        draft.keys = draft.keys.filter((k) => k.app !== app || k.appId === owner.id);
        let key = generateKey();
        // The prefix identifies a key in lists and revoke commands, so it must be unique across all keys.
        while (draft.keys.some((k) => k.prefix === keyPrefixOf(key))) key = generateKey();
        const record: KeyRecord = {
          prefix: keyPrefixOf(key),
          app,
          label: validLabel,
          createdAt: clock(),
          lastUsedAt: null,
          sha256: sha256(key).toString("hex"),
          appId: owner.id,
        };
        draft.keys.push(record);
        out.created = {
          prefix: record.prefix,
          app,
          label: validLabel,
          createdAt: record.createdAt,
          lastUsedAt: null,
          key,
        };
      });
      if (!out.created) throw new PatchbayError("internal_error", "Key was not created.");
      return out.created;
    },

    list(app) {
      return file
        .get()
        .keys.filter((k) => k.app === app && ownedByCurrentApp(k))
        .map((k): KeyInfo => {
          const used = pending.get(k.prefix);
          const lastUsedAt = used !== undefined && (k.lastUsedAt ?? 0) < used ? used : k.lastUsedAt;
          return { prefix: k.prefix, app: k.app, label: k.label, createdAt: k.createdAt, lastUsedAt };
        });
    },

    async revoke(app, prefix) {
      await file.update((draft) => {
        const found = findIn(draft, app, prefix);
        if (!found) {
          throw new PatchbayError("key_not_found", `No key with prefix "${prefix}" for app "${app}".`, {
            param: "prefix",
          });
        }
        draft.keys = draft.keys.filter((k) => k !== found);
      });
    },

    async revokeAll(app) {
      await file.update((draft) => {
        draft.keys = draft.keys.filter((k) => k.app !== app);
      });
    },

    verify(presented): KeyMatch | null {
      if (typeof presented !== "string" || !presented.startsWith(KEY_SCHEME) || presented.length > 512) return null;
      const digest = sha256(presented);
      const hex = digest.toString("hex");
      // Look at both files now, not after the throttled ~1 s re-read (one stat each when unchanged): what the CLI
      // changed a moment ago in another process (a key created or revoked, an app's budget, allowlist or limits)
      // applies to the very next request. A change re-indexes.
      file.refresh();
      apps.refresh?.();
      const record = byHash.get(hex);
      if (!record) return null;
      if (!timingSafeEqual(digest, Buffer.from(record.sha256, "hex"))) return null;
      if (!ownedByCurrentApp(record)) return null;
      const firstUse = record.lastUsedAt == null && !pending.has(record.prefix);
      pending.set(record.prefix, clock());
      scheduleFlush(firstUse);
      return { app: record.app, prefix: record.prefix };
    },

    onChange: (listener) => file.onChange(() => listener()),

    notices: () => file.notices(),

    async close() {
      if (closed) return;
      closed = true;
      await flush();
      await file.close();
      await ownApps?.close();
    },
  };
}

/** Finds a key in freshly read data; accepts the prefix with its `pb-` too (as shown next to a key). */
function findIn(data: KeysFile, app: string, prefix: string): KeyRecord | undefined {
  const bare = prefix.startsWith(KEY_SCHEME) ? prefix.slice(KEY_SCHEME.length) : prefix;
  return (
    data.keys.find((k) => k.app === app && k.prefix === prefix) ??
    data.keys.find((k) => k.app === app && k.prefix === bare)
  );
}
