// Usage per app per local day and request/error counts per day, kept in memory by the request log.
// Must not read files; the request log feeds it entries (live and, at start, from disk).
import { isErrorStatus, type LogUsage } from "../../shared/log-entry";
import { entryBelongsTo, type LogOwner } from "../../shared/log-filter";
import type { DailyUsage } from "./types";

/** The fields of a log entry that usage counts. */
export interface UsageFacts {
  time: number;
  /** App name (null: no app). */
  app: string | null;
  /** App id; null without an app and in lines written before entries carried it. */
  appId: string | null;
  status: number;
  usage: LogUsage | null;
}

/** Local calendar day of epoch-ms `t` as `YYYY-MM-DD`. */
export function localDay(t: number): string {
  const d = new Date(t);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** The `count` local days ending with the day of `now`, oldest first (DST-safe: steps by calendar date). */
export function lastDays(now: number, count: number): string[] {
  const d = new Date(now);
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--)
    out.push(localDay(new Date(d.getFullYear(), d.getMonth(), d.getDate() - i, 12).getTime()));
  return out;
}

function emptyDay(day: string): DailyUsage {
  return { day, requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0 };
}

function addTo(u: DailyUsage, e: UsageFacts): void {
  u.requests++;
  if (isErrorStatus(e.status)) u.errors++;
  if (e.usage) {
    u.inputTokens += e.usage.inputTokens;
    u.outputTokens += e.usage.outputTokens;
    u.cachedTokens += e.usage.cachedTokens;
    u.reasoningTokens += e.usage.reasoningTokens;
  }
}

/**
 * Usage book: app id → day → totals, plus all-app request/error counts per day. Bounded to `keepDays` days.
 * Entries without an app id but with a name (lines written before entries carried the id) are kept one by one per
 * name, and counted for an app only when they belong to it (`entryBelongsTo`: not before it was created). Only the
 * log files of older versions hold such lines (live entries with an app carry its id), so that list is filled at
 * start and never grows.
 */
export class UsageBook {
  private readonly perApp = new Map<string, Map<string, DailyUsage>>();
  private readonly legacy = new Map<string, UsageFacts[]>();
  private readonly perDay = new Map<string, { requests: number; errors: number }>();

  constructor(private readonly keepDays: number) {}

  /** Counts one request. Errors as {@link isErrorStatus} says (a 499, a client gone, is none). */
  add(e: UsageFacts): void {
    const day = localDay(e.time);
    const isError = isErrorStatus(e.status);
    const total = this.perDay.get(day) ?? { requests: 0, errors: 0 };
    total.requests++;
    if (isError) total.errors++;
    this.perDay.set(day, total);
    if (e.appId === null) {
      if (e.app === null) return;
      // A copy of the facts only: `e` may be a whole entry with its bodies.
      const fact: UsageFacts = { time: e.time, app: e.app, appId: null, status: e.status, usage: e.usage };
      const facts = this.legacy.get(e.app);
      if (facts) facts.push(fact);
      else this.legacy.set(e.app, [fact]);
      return;
    }
    let days = this.perApp.get(e.appId);
    if (!days) this.perApp.set(e.appId, (days = new Map()));
    const u = days.get(day) ?? emptyDay(day);
    addTo(u, e);
    days.set(day, u);
  }

  /** `app`'s usage on `days` consecutive days ending today (oldest first), zero-filled. */
  usage(app: LogOwner, days: number, now: number): DailyUsage[] {
    const book = this.perApp.get(app.id);
    const count = Math.max(1, Math.min(this.keepDays, Math.floor(days)));
    const out = lastDays(now, count).map((day) => ({ ...(book?.get(day) ?? emptyDay(day)) }));
    const byDay = new Map(out.map((u) => [u.day, u]));
    for (const e of this.legacy.get(app.name) ?? []) {
      const u = byDay.get(localDay(e.time));
      if (u && entryBelongsTo(e, app)) addTo(u, e);
    }
    return out;
  }

  /** Requests and errors of the day of `now`, all apps and unauthenticated requests included. */
  today(now: number): { requests: number; errors: number } {
    return { ...(this.perDay.get(localDay(now)) ?? { requests: 0, errors: 0 }) };
  }

  /** The oldest day kept when today is the day of `now`. */
  oldestDay(now: number): string {
    return lastDays(now, this.keepDays)[0] ?? localDay(now);
  }

  /** Forgets days older than `keepDays` before `now`. */
  prune(now: number): void {
    const oldest = this.oldestDay(now);
    for (const day of this.perDay.keys()) if (day < oldest) this.perDay.delete(day);
    for (const days of this.perApp.values()) for (const day of days.keys()) if (day < oldest) days.delete(day);
    for (const [name, facts] of this.legacy) {
      const kept = facts.filter((e) => localDay(e.time) >= oldest);
      if (kept.length) this.legacy.set(name, kept);
      else this.legacy.delete(name);
    }
  }
}
