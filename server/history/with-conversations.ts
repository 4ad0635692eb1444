// The admin API's history seen through Patchbay's request records: sessions carry when their request came and their
// conversation, client tool calls show as returned to the client (with the result a later request carried) instead of
// OpenCode's "rejected permission" error, deleting removes the records too, and whole conversations can be deleted.
import type {
  DeleteSessionsResult,
  MessagePage,
  PrunePreview,
  SessionMessage,
  SessionSummary,
} from "../../shared/admin/history";
import type { AdminHistory } from "./index";
import type { RequestIndex, RequestRecord } from "../conversations/request-index";
import { displayTitle } from "../conversations/session-title";

/**
 * How OpenCode ends a tool call the companion plugin hands back to the client: the plugin rejects the permission
 * request (server/opencode/plugin/companion.ts), and OpenCode records `PermissionRejectedError` (or, for a deny rule,
 * `PermissionDeniedError`) on the tool part. Patchbay never runs client tools, so on a bridge session this is always
 * "returned to the client", never a failure.
 */
const RETURNED_TO_CLIENT = [
  /The user rejected permission to use this specific tool call/i,
  /The user has specified a rule which prevents you from using this specific tool call/i,
];

/** True when a tool part's error text is OpenCode's hand-back of a client tool call. */
export function isReturnedToClient(error: string | null): boolean {
  return error !== null && RETURNED_TO_CLIENT.some((r) => r.test(error));
}

/** `s` with its display title, arrival time and conversation from `record` (when there is one). */
export function annotateSession(s: SessionSummary, record: RequestRecord | undefined): SessionSummary {
  const out: SessionSummary = { ...s, title: displayTitle(s.title) };
  if (!record) return out;
  return {
    ...out,
    receivedAt: record.receivedAt,
    conversation: { id: record.conversation, title: record.conversationTitle },
  };
}

/** Messages with client tool calls marked `returned`, their output the carried result (or null). */
export function markReturnedCalls(messages: readonly SessionMessage[], results: ReadonlyMap<string, string>) {
  return messages.map((m) => ({
    ...m,
    parts: m.parts.map((p) =>
      p.type === "tool" && p.status === "error" && isReturnedToClient(p.output)
        ? { ...p, status: "returned" as const, output: results.get(p.callId) ?? null }
        : p,
    ),
  }));
}

/** What deleting whole conversations adds to the admin history. */
export interface ConversationAdmin {
  /** Deletes every session (request) of these conversations of `app`; running ones are kept (`running`). Ids of
   *  conversations with no known request are `missing`. */
  deleteConversations(app: string, ids: readonly string[]): Promise<DeleteSessionsResult>;
}

/** Wraps the admin history with the request records of `index` (see the file comment). */
export function withConversations(admin: AdminHistory, index: RequestIndex): AdminHistory & ConversationAdmin {
  const annotate = async (app: string, sessions: readonly SessionSummary[]) => {
    const records = await index.records(app);
    return sessions.map((s) => annotateSession(s, records.get(s.id)));
  };
  const remove = async (app: string, ids: readonly string[]): Promise<DeleteSessionsResult> => {
    const r = await admin.service.delete(app, ids);
    await index.forget(app, [...r.deleted, ...r.missing]);
    return r;
  };
  return {
    ...admin,
    service: {
      list: async (app, q) => {
        const page = await admin.service.list(app, q);
        return { ...page, sessions: await annotate(app, page.sessions) };
      },
      messages: async (app, id, q): Promise<MessagePage> => {
        const page = await admin.service.messages(app, id, q);
        const [session] = await annotate(app, [page.session]);
        return {
          ...page,
          session: session ?? page.session,
          messages: markReturnedCalls(page.messages, await index.results(app)),
        };
      },
      delete: remove,
      deleteOne: async (app, id) => {
        await admin.service.deleteOne(app, id);
        await index.forget(app, [id]);
      },
      previewPrune: async (app, limits): Promise<PrunePreview> => {
        const p = await admin.service.previewPrune(app, limits);
        return { ...p, sample: await annotate(app, p.sample) };
      },
    },
    async deleteConversations(app, ids) {
      const wanted = new Set(ids);
      const records = [...(await index.records(app)).values()];
      const sessions = records.filter((r) => wanted.has(r.conversation)).map((r) => r.session);
      const known = new Set(records.filter((r) => wanted.has(r.conversation)).map((r) => r.conversation));
      const unknown = [...wanted].filter((id) => !known.has(id));
      if (sessions.length === 0) return { deleted: [], missing: unknown, running: [], failed: [] };
      const r = await remove(app, sessions);
      return { ...r, missing: [...r.missing, ...unknown] };
    },
  };
}
