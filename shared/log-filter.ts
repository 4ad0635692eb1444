// The request-log filter, one copy for the server's query and the dashboard's live rows, so the two always agree.
// Pure; no Node, no DOM.
import { isErrorStatus, type RequestLogEntry } from "./log-entry";

/** A log filter as the admin API and the Logs page take it; an empty or absent field matches everything. */
export interface LogFilter {
  /** Name of a current app: its entries only (by its id, see {@link entryBelongsTo}), never those of a deleted app
   *  that had the same name; a name no app carries now matches nothing. */
  app?: string;
  /** A status (`404`), a class (`4xx`) or `error` (any status ≥ 400). */
  status?: string;
  /** Case-insensitive substring of the model asked for or the model resolved. */
  model?: string;
  /** Entries that started at or after this time (epoch ms). */
  since?: number;
  /** Entries that started before this time (epoch ms). */
  until?: number;
}

/** The status filter values the Logs page offers, with their labels. */
export const STATUS_FILTER_OPTIONS: ReadonlyArray<{ value: string; label: string }> = [
  { value: "2xx", label: "Succeeded (2xx)" },
  { value: "error", label: "Failed (4xx/5xx)" },
  { value: "4xx", label: "Client errors (4xx)" },
  { value: "5xx", label: "Server errors (5xx)" },
];

/** True when `status` is a valid status filter (empty = none). */
export function isValidStatusFilter(status: string): boolean {
  return status === "" || status === "error" || /^[1-5]xx$/.test(status) || /^\d{3}$/.test(status);
}

/** A predicate for `status`; throws `RangeError` for an invalid filter (the server maps it to a 400). */
export function statusMatcher(status: string | undefined): (s: number) => boolean {
  if (status === undefined || status === "") return () => true;
  if (!isValidStatusFilter(status)) throw new RangeError(`Invalid status filter '${status}'.`);
  if (status === "error") return isErrorStatus;
  if (status.endsWith("xx")) return (s) => Math.floor(s / 100) === Number(status[0]);
  return (s) => s === Number(status);
}

/** What log entries are attributed to: an app's identity (shared/apps.ts App). `createdAt` is epoch ms. */
export interface LogOwner {
  id: string;
  name: string;
  createdAt: number;
}

/** The app that carries `name` now, if any (the apps store's or the dashboard's list). */
export type AppNamed = (name: string) => LogOwner | undefined;

/**
 * True when `e` belongs to `app`. Entries carry their app's id. Lines written before they did carry only the name;
 * such a line belongs to the app of that name that existed when the request started. Names are unique at any moment
 * and an app exists without a break from its `createdAt` until it is deleted, so that app is `app` exactly when `app`
 * was created at or before the entry's time; an older line belonged to an earlier app of the same name (deleted).
 */
export function entryBelongsTo(e: Pick<RequestLogEntry, "app" | "appId" | "time">, app: LogOwner): boolean {
  if (e.appId !== null) return e.appId === app.id;
  return e.app === app.name && e.time >= app.createdAt;
}

/** The name shown for an entry's app: the name, plus " (deleted)" when no current app owns the entry (its app was
 *  deleted, maybe replaced by another of the same name); null for requests without an app. Without `appNamed` (the
 *  apps are not known yet) just the name. */
export function entryAppLabel(e: Pick<RequestLogEntry, "app" | "appId" | "time">, appNamed?: AppNamed): string | null {
  if (e.app === null || !appNamed) return e.app;
  const owner = appNamed(e.app);
  return owner && entryBelongsTo(e, owner) ? e.app : `${e.app} (deleted)`;
}

/** A predicate for every field of `f`; `appNamed` resolves the app filter to the app that carries the name now.
 *  Throws `RangeError` for an invalid status filter. */
export function logEntryMatcher(f: LogFilter, appNamed: AppNamed): (e: RequestLogEntry) => boolean {
  const matchStatus = statusMatcher(f.status);
  const model = f.model?.trim().toLowerCase() ?? "";
  const owner = f.app ? appNamed(f.app) : undefined;
  return (e) =>
    (!f.app || (owner !== undefined && entryBelongsTo(e, owner))) &&
    matchStatus(e.status) &&
    (f.since === undefined || e.time >= f.since) &&
    (f.until === undefined || e.time < f.until) &&
    (model === "" ||
      (e.modelAsked ?? "").toLowerCase().includes(model) ||
      (e.modelResolved ?? "").toLowerCase().includes(model));
}
