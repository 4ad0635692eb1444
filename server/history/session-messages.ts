// Reading one session's messages page by page, with the one-by-one fallback for messages OpenCode cannot encode.
// Reads only, and only sessions filed under the asking app.
import type { MessagePage, SessionMessage } from "../../shared/admin/history";
import { mapMessages, unreadableMessage } from "./message-view";
import { UnreadableMessagesError, type RawMessage, type RawSession } from "./opencode-port";
import { runningAmong } from "./running-sessions";
import { ownedSession, scope, type HistoryContext } from "./service-context";
import { toSummary } from "./session-list";

const DEFAULT_MESSAGES_PAGE = 50;
const UNREADABLE_REASON =
  "OpenCode 1.18.33 cannot return this message (it asked for structured output); its content is not available here.";

/**
 * A page of a session's messages: the newest `limit` (default 50, max 100) before `cursor`, oldest first;
 * `nextCursor` leads to older ones. When OpenCode's list endpoint fails (it cannot encode messages that asked for
 * structured output), reads them one at a time and shows a placeholder for the unreadable one.
 * Throws `app_not_found`, `session_not_found` (unknown or another app's session).
 */
export async function readMessages(
  ctx: HistoryContext,
  app: string,
  sessionId: string,
  q: { cursor?: string; limit?: number } = {},
): Promise<MessagePage> {
  const session = await ownedSession(ctx, app, sessionId);
  const limit = Math.min(100, Math.max(1, Math.trunc(q.limit ?? DEFAULT_MESSAGES_PAGE)));
  const summary = toSummary(session, await runningAmong(ctx, [session]));
  try {
    const page = await ctx.port.messages(session.id, scope(ctx, session.directory), {
      limit,
      ...(q.cursor ? { before: q.cursor } : {}),
    });
    return {
      session: summary,
      messages: mapMessages(page.items, ctx.viewLimits),
      nextCursor: page.next,
      incomplete: null,
    };
  } catch (err) {
    if (!(err instanceof UnreadableMessagesError)) throw err;
    return { session: summary, ...(await readOneByOne(ctx, session, limit, q.cursor)) };
  }
}

/** Fallback when a page cannot be encoded: walk back one message at a time; placeholders for unreadable ones. */
async function readOneByOne(
  ctx: HistoryContext,
  session: RawSession,
  limit: number,
  before: string | undefined,
): Promise<{ messages: SessionMessage[]; nextCursor: string | null; incomplete: string | null }> {
  const newestFirst: RawMessage[] = [];
  let cursor = before;
  let nextCursor: string | null = null;
  let blocked = false;
  while (newestFirst.length < limit) {
    try {
      const r = await ctx.port.messages(session.id, scope(ctx, session.directory), {
        limit: 1,
        ...(cursor ? { before: cursor } : {}),
      });
      const m = r.items[0];
      nextCursor = r.next;
      if (!m) break;
      newestFirst.push(m);
      if (!r.next) break;
      cursor = r.next;
    } catch (err) {
      if (!(err instanceof UnreadableMessagesError)) throw err;
      blocked = true;
      nextCursor = null;
      break;
    }
  }
  const chronological = newestFirst.reverse();
  const messages = mapMessages(chronological, ctx.viewLimits);
  if (!blocked) return { messages, nextCursor, incomplete: null };

  // The blocking message is older than everything read; assistants name their user message (parentID), so try those
  // one by one (`session.message`) and show a placeholder where OpenCode cannot encode them either.
  const known = new Set(chronological.map((m) => m.info.id));
  const parents = [
    ...new Set(chronological.map((m) => m.info.parentID).filter((p): p is string => !!p && !known.has(p))),
  ];
  const recovered: SessionMessage[] = [];
  for (const id of parents) {
    try {
      const m = await ctx.port.message(session.id, scope(ctx, session.directory), id);
      if (m) recovered.push(...mapMessages([m], ctx.viewLimits));
    } catch (err) {
      if (!(err instanceof UnreadableMessagesError)) throw err;
      recovered.push(unreadableMessage(id, "user", UNREADABLE_REASON));
    }
  }
  if (parents.length === 0) recovered.push(unreadableMessage(`unreadable-${session.id}`, "user", UNREADABLE_REASON));
  return {
    messages: [...recovered, ...messages],
    nextCursor: null,
    incomplete:
      "OpenCode could not return every message of this session (structured-output messages cannot be read in OpenCode 1.18.33); older messages, if any, are not shown.",
  };
}
