// Groups the loaded sessions of the Sessions tab into conversations (issue 21 §3.3): each request's session carries
// its conversation (server/conversations), so a 40-turn agent conversation reads as one row that opens into its
// requests. Pure; no React.
import type { SessionSummary } from "../../../../shared/admin-api";

/** One row of the list: a lone request, or a conversation of two or more loaded requests (newest first). */
export type SessionGroup =
  | { kind: "session"; session: SessionSummary }
  | { kind: "conversation"; id: string; title: string; sessions: SessionSummary[] };

/** When the request came (sessions made before Patchbay kept records show their creation). */
export function requestTime(s: SessionSummary): number {
  return s.receivedAt ?? s.createdAt;
}

/** Groups `sessions` (newest first) by conversation, in the order each conversation's newest request appears. A
 *  conversation title is its first own words, else its oldest loaded request's title. */
export function groupSessions(sessions: readonly SessionSummary[]): SessionGroup[] {
  const byKey = new Map<string, SessionSummary[]>();
  for (const s of sessions) {
    const key = s.conversation ? `c:${s.conversation.id}` : `s:${s.id}`;
    const list = byKey.get(key);
    if (list) list.push(s);
    else byKey.set(key, [s]);
  }
  return [...byKey.values()].map((list): SessionGroup => {
    const first = list[0] as SessionSummary;
    if (list.length === 1 || !first.conversation) return { kind: "session", session: first };
    const oldest = list[list.length - 1] as SessionSummary;
    return {
      kind: "conversation",
      id: first.conversation.id,
      title: first.conversation.title ?? (oldest.title || oldest.id),
      sessions: list,
    };
  });
}
