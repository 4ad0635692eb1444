// Interfaces of the stores, implemented in this folder and consumed by the request service, the admin API and the CLI.
import type { AppNamed, LogFilter, LogOwner } from "../../shared/log-filter";
import type { App, AppPatch } from "../../shared/apps";
import type { CreatedKey, KeyInfo } from "../../shared/keys";
import type { Settings, SettingsPatch } from "../../shared/settings";
import type { RequestLogEntry } from "../../shared/log-entry";

/** Settings store (settings.json). Reads are synchronous from memory; changes on disk by another process are picked
 *  up within ~1 s. Writes are atomic and serialized. */
export interface SettingsStore {
  get(): Settings;
  /** Validates and persists; throws PatchbayError `invalid_request_error` (bad value) or `storage_error` (disk). */
  update(patch: SettingsPatch): Promise<Settings>;
  /** Called after every change (own or from disk). Returns an unsubscribe function. */
  onChange(listener: (s: Settings) => void): () => void;
}

/** Apps store (apps.json). */
export interface AppsStore {
  list(): App[];
  /** Undefined when absent. */
  get(name: string): App | undefined;
  /** Throws PatchbayError `app_exists` (409), `invalid_request_error` (bad name/patterns), `storage_error`. */
  create(name: string, init?: AppPatch): Promise<App>;
  /** Throws `app_not_found`, `invalid_request_error`, `storage_error`. */
  update(name: string, patch: AppPatch): Promise<App>;
  /** Deletes the app and (through the caller) its keys. With `id`, only while the app of that name has that id (a
   *  delete that started before an app of the same name was made again must not remove the new one). Throws
   *  `app_not_found`. */
  delete(name: string, id?: string): Promise<void>;
  onChange(listener: () => void): () => void;
}

/** Result of verifying a presented API key. */
export interface KeyMatch {
  app: string;
  prefix: string;
}

/** Keys store (keys.json, mode 0600): sha256 + visible prefix only. */
export interface KeysStore {
  /** Creates a key for an existing app (recording the app's id); the full key is in the result only. Throws
   *  `app_not_found`. */
  create(app: string, label?: string): Promise<CreatedKey>;
  /** Keys of the app that now carries this name (keys of an earlier app of the same name are not listed). */
  list(app: string): KeyInfo[];
  /** Throws `key_not_found`. */
  revoke(app: string, prefix: string): Promise<void>;
  /** Removes every key of an app (used when the app is deleted). */
  revokeAll(app: string): Promise<void>;
  /** Constant-time check of a presented key; null when unknown, revoked, or its app is gone or was recreated under the
   *  same name (keys carry their app's id). Records last-used time (batched). */
  verify(presented: string): KeyMatch | null;
  /** Called after every change of the keys (own or from disk); returns an unsubscribe function. */
  onChange?(listener: () => void): () => void;
}

/** Filters for the request-log query. Times are epoch ms. */
/** A log query: the shared filter (shared/log-filter.ts) plus paging. */
export interface LogQuery extends LogFilter {
  /** Page size (default 50, max 500). */
  limit?: number;
  /** Opaque cursor from a previous page (entries older than it). */
  cursor?: string;
}

export interface LogPage {
  entries: RequestLogEntry[];
  nextCursor: string | null;
}

/** Per-app usage for one day (local date `YYYY-MM-DD`). */
export interface DailyUsage {
  day: string;
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
}

/** Request log: JSON lines with size-based rotation, an in-memory ring for the live view, usage per app and day. */
export interface RequestLog {
  /** Appends (redacted before storing and broadcasting). Never throws: disk errors are reported via `lastError`. */
  append(entry: RequestLogEntry): void;
  /** A page of entries, newest first. `appNamed` resolves `q.app` to the app carrying that name now (its entries only,
   *  by id); throws PatchbayError 400 for a bad status filter or cursor. */
  query(q: LogQuery, appNamed: AppNamed): LogPage;
  /** The newest `n` entries, oldest first (for SSE replay). */
  recent(n: number): RequestLogEntry[];
  /** Live entries; returns an unsubscribe function. */
  subscribe(listener: (e: RequestLogEntry) => void): () => void;
  /** `app`'s usage (its entries by id, see shared/log-filter.ts entryBelongsTo) on `days` days ending today. */
  usage(app: LogOwner, days: number): DailyUsage[];
  totals(): { requests: number; errors: number; requestsToday: number; errorsToday: number };
  /** Last write error (e.g. disk full), else null. */
  lastError(): string | null;
  /** Flushes pending writes. */
  close(): Promise<void>;
}

/** Lifecycle of the file-backed stores (settings, apps, keys); their factories return `XStore & StoreLifecycle`. */
export interface StoreLifecycle {
  /** Messages the UI should show, e.g. a corrupt file was set aside (see PatchbayStatus.notices). */
  notices(): string[];
  /** Flushes pending writes (e.g. batched last-used times) and stops watching files. Idempotent. */
  close(): Promise<void>;
}
