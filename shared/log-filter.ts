// The request-log filter, one copy for the server's query and the dashboard's live rows, so the two always agree.
// Pure; no Node, no DOM.
import type { RequestLogEntry } from "./log-entry";

/** A log filter as the admin API and the Logs page take it; an empty or absent field matches everything. */
export interface LogFilter {
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
  if (status === "error") return (s) => s >= 400;
  if (status.endsWith("xx")) return (s) => Math.floor(s / 100) === Number(status[0]);
  return (s) => s === Number(status);
}

/** A predicate for every field of `f` (throws `RangeError` for an invalid status filter). */
export function logEntryMatcher(f: LogFilter): (e: RequestLogEntry) => boolean {
  const matchStatus = statusMatcher(f.status);
  const model = f.model?.trim().toLowerCase() ?? "";
  return (e) =>
    (!f.app || e.app === f.app) &&
    matchStatus(e.status) &&
    (f.since === undefined || e.time >= f.since) &&
    (f.until === undefined || e.time < f.until) &&
    (model === "" ||
      (e.modelAsked ?? "").toLowerCase().includes(model) ||
      (e.modelResolved ?? "").toLowerCase().includes(model));
}
