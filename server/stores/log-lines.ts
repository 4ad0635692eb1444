// One line of the request log's files: parse it (whole, or only its usage facts, cheaply), page cursors, and the
// query matcher with its 400. Pure; the log itself (ring, buffered writes, rotation, queries) is request-log.ts.
import { RequestLogEntry } from "../../shared/log-entry";
import { logEntryMatcher, type AppNamed } from "../../shared/log-filter";
import { PatchbayError } from "../core/errors";
import { seqOfLine } from "./log-files";
import type { UsageFacts } from "./log-usage";
import type { LogQuery } from "./types";

/** A parsed line: its sequence number and entry. */
export interface Stored {
  seq: number;
  entry: RequestLogEntry;
}

/** Opaque cursor: entries older than seq. */
export function encodeCursor(seq: number): string {
  return Buffer.from(`s:${seq}`).toString("base64url");
}

/** The sequence number of a cursor from {@link encodeCursor}; throws a 400 naming `cursor` for anything else. */
export function decodeCursor(cursor: string): number {
  const m = /^s:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m)
    throw new PatchbayError("invalid_request_error", "Invalid cursor; use the nextCursor of a previous page.", {
      param: "cursor",
    });
  return Number(m[1]);
}

/** The shared matcher for a query (`appNamed` resolves its app filter); an invalid status filter is a 400 naming
 *  `status`. */
export function queryMatcher(q: LogQuery, appNamed: AppNamed): (e: RequestLogEntry) => boolean {
  try {
    return logEntryMatcher(q, appNamed);
  } catch {
    throw new PatchbayError(
      "invalid_request_error",
      'Invalid status filter; use a status such as 404, a class such as "4xx", or "error".',
      { param: "status" },
    );
  }
}

/** Parses a stored line into seq + entry; null for lines that are not valid entries. */
export function parseLine(line: string): Stored | null {
  const seq = seqOfLine(line);
  if (seq === null) return null;
  try {
    const parsed = RequestLogEntry.safeParse(JSON.parse(line));
    return parsed.success ? { seq, entry: parsed.data } : null;
  } catch {
    return null;
  }
}

/** Usage-relevant fields of a parsed line, checked by hand (cheaper than a full parse for every line at start). */
export function usageFacts(raw: unknown): UsageFacts | null {
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.time !== "number" || typeof r.status !== "number") return null;
  const app = typeof r.app === "string" ? r.app : null;
  const appId = typeof r.appId === "string" ? r.appId : null;
  const u = r.usage as Record<string, unknown> | null | undefined;
  const usage =
    u && typeof u === "object"
      ? {
          inputTokens: num(u.inputTokens),
          outputTokens: num(u.outputTokens),
          cachedTokens: num(u.cachedTokens),
          reasoningTokens: num(u.reasoningTokens),
        }
      : null;
  return { time: r.time, app, appId, status: r.status, usage };
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}
