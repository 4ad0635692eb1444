// The order people read an app's sessions in: by when each request came. Pure; its own module so the CLI loads it
// without the admin view around it.
import type { SessionSummary } from "../../shared/admin/history";

/**
 * `sessions` newest request first (`receivedAt`, else creation), ties in their given order. Pages come from OpenCode
 * in session-creation order, and a pooled session is created before the request that uses it (seconds, or a whole
 * idle spell), so without this a page read out of order by the time it shows. Across a page boundary the creation
 * order stays (the cursor is OpenCode's).
 */
export function byRequestTime(sessions: readonly SessionSummary[]): SessionSummary[] {
  return sessions
    .map((s, i) => ({ s, i, at: s.receivedAt ?? s.createdAt }))
    .sort((a, b) => b.at - a.at || a.i - b.i)
    .map((x) => x.s);
}
