// The narrow slice of OpenCode the history service uses (list, status, get, delete, messages), and its adapter over
// the SDK v2 client that parses every answer with zod. Knows nothing about apps, cursors of our own or limits.
import type { OpencodeClient } from "@opencode-ai/sdk/v2";
import { z } from "zod";
import type { SessionTokens } from "../../shared/admin/history";
import { PatchbayError } from "../core/errors";
import { isPooledSessionTitle } from "../opencode/protocol/pooled-session";

/** A session as the history service needs it. Times are epoch ms. */
export interface RawSession {
  id: string;
  title: string;
  directory: string;
  createdAt: number;
  updatedAt: number;
  /** `provider/model`, null before the first prompt. */
  model: string | null;
  tokens: SessionTokens;
  cost: number;
}

/** One window of `GET /api/session` (v2 list, newest first by creation, tie-safe opaque cursor). */
export interface SessionWindow {
  items: RawSession[];
  /** OpenCode's cursor for the items after the last one; null when this window reached the end. */
  next: string | null;
}

/** A message with its parts, as OpenCode returns it (parsed loosely: unknown part kinds pass through). */
export interface RawMessage {
  info: RawMessageInfo;
  parts: RawPart[];
}

/** Thrown by {@link OpenCodeHistoryPort.messages} / `message` when OpenCode answers 400 for readable-looking input
 *  (1.18.33 cannot encode messages that requested structured output, DESIGN §3). */
export class UnreadableMessagesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadableMessagesError";
  }
}

/** Thrown by {@link OpenCodeHistoryPort.listSessions} when OpenCode rejects a cursor (400 InvalidCursorError). */
export class InvalidOpenCodeCursorError extends Error {
  constructor() {
    super("OpenCode rejected the session cursor");
    this.name = "InvalidOpenCodeCursorError";
  }
}

/**
 * What the history service calls. Every method throws PatchbayError `backend_unavailable` when OpenCode is down or
 * answers with an unexpected error. Calls given a `directory` run in that directory's OpenCode instance and boot it
 * when it is not live (≈ 0.5–2 s and tens of MB); `undefined` runs them in the default instance, which works for
 * get/delete/messages because they address sessions by id (verified on 1.18.33). Only `busySessions` needs the
 * session's own instance; `listSessions` (v2) reads the database without booting anything.
 */
export interface OpenCodeHistoryPort {
  /** Sessions filed under exactly `directory` by creation time, newest first (`desc`, default) or oldest first
   *  (`asc`); `cursor` from a previous window of the same order. */
  listSessions(
    directory: string,
    opts: { limit: number; cursor?: string; search?: string; order?: "asc" | "desc" },
  ): Promise<SessionWindow>;
  /** Ids of the sessions of `directory`'s instance that are busy or retrying (idle ones are absent). */
  busySessions(directory: string): Promise<Set<string>>;
  /** The session, or null when it does not exist. */
  getSession(id: string): Promise<RawSession | null>;
  /** Deletes it; `missing` when OpenCode did not know it (404). `directory`: see below. */
  deleteSession(id: string, directory: string | undefined): Promise<"deleted" | "missing">;
  /** The newest `limit` messages before `before` (OpenCode's message cursor), oldest first, and the cursor to older
   *  ones. Throws {@link UnreadableMessagesError} when OpenCode cannot encode one of them. */
  messages(
    id: string,
    directory: string | undefined,
    opts: { limit: number; before?: string },
  ): Promise<{ items: RawMessage[]; next: string | null }>;
  /** One message; null when missing; throws {@link UnreadableMessagesError} when OpenCode cannot encode it. */
  message(id: string, directory: string | undefined, messageId: string): Promise<RawMessage | null>;
}

/** Where the adapter gets an authenticated SDK client (the supervisor's `client()`); throws while OpenCode is down. */
export interface OpenCodeClientFactory {
  client(directory?: string): OpencodeClient;
  /** Resolves once OpenCode is ready; throws PatchbayError `backend_starting` after `timeoutMs` (ms) or
   *  `backend_unavailable` when it is down (the supervisor's `whenReady`). Absent: calls go out at once. */
  whenReady?(timeoutMs: number): Promise<void>;
}

/** How long a history call waits for a starting OpenCode (ms), as long as the OpenAI routes wait. */
const READY_WAIT_MS = 15_000;

// ---- wire schemas (only the fields used; OpenCode adds fields freely) ------------------------------------------------

const Tokens = z.object({
  input: z.number().catch(0),
  output: z.number().catch(0),
  reasoning: z.number().catch(0),
  cache: z.object({ read: z.number().catch(0), write: z.number().catch(0) }).catch({ read: 0, write: 0 }),
});
const ZERO_TOKENS = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };

const ModelRef = z.object({ id: z.string(), providerID: z.string() });

/** `SessionV2Info` of the v2 list. */
const V2Session = z.object({
  id: z.string(),
  title: z.string().catch(""),
  model: ModelRef.optional().catch(undefined),
  cost: z.number().catch(0),
  tokens: Tokens.catch(ZERO_TOKENS),
  time: z.object({ created: z.number(), updated: z.number() }),
  location: z.object({ directory: z.string() }),
});
const V2SessionPage = z.object({
  data: z.array(V2Session),
  cursor: z.object({ next: z.string().optional() }).catch({}),
});

/** Classic `Session` of `GET /session/:id`. */
const ClassicSession = z.object({
  id: z.string(),
  title: z.string().catch(""),
  directory: z.string(),
  model: ModelRef.optional().catch(undefined),
  cost: z.number().catch(0),
  tokens: Tokens.catch(ZERO_TOKENS),
  time: z.object({ created: z.number(), updated: z.number() }),
});

const StatusMap = z.record(z.string(), z.object({ type: z.string() }).passthrough());

const MessageInfo = z
  .object({
    id: z.string(),
    role: z.enum(["user", "assistant"]),
    time: z.object({ created: z.number().optional(), completed: z.number().optional() }).catch({}),
    parentID: z.string().optional(),
    providerID: z.string().optional(),
    modelID: z.string().optional(),
    model: z.object({ providerID: z.string(), modelID: z.string() }).optional().catch(undefined),
    finish: z.string().optional().catch(undefined),
    error: z
      .object({ name: z.string(), data: z.object({ message: z.string().optional() }).passthrough().optional() })
      .optional()
      .catch(undefined),
    tokens: Tokens.optional().catch(undefined),
  })
  .passthrough();
export type RawMessageInfo = z.infer<typeof MessageInfo>;

const Part = z.object({ id: z.string().optional(), type: z.string() }).passthrough();
export type RawPart = z.infer<typeof Part>;

const MessageWithParts = z.object({ info: MessageInfo, parts: z.array(Part) });

const ErrorBody = z
  .object({
    name: z.string().optional(),
    _tag: z.string().optional(),
    data: z.object({ message: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();

// ---- adapter -------------------------------------------------------------------------------------------------------

/** Per-call timeout (ms): OpenCode answers these in tens of ms; a hung instance must not hang the dashboard. */
const CALL_TIMEOUT_MS = 15_000;

interface SdkResult {
  data?: unknown;
  error?: unknown;
  response?: Response;
}

function modelName(m: { id: string; providerID: string } | undefined): string | null {
  return m ? `${m.providerID}/${m.id}` : null;
}

/** OpenCode's token counts (`cache.read`/`cache.write` nested) in the admin API's flat shape. */
export function tokensOf(t: z.infer<typeof Tokens>): SessionTokens {
  return {
    input: t.input,
    output: t.output,
    reasoning: t.reasoning,
    cacheRead: t.cache.read,
    cacheWrite: t.cache.write,
  };
}

function errorText(error: unknown): string {
  const e = ErrorBody.safeParse(error);
  if (!e.success) return String(error);
  return e.data.data?.message ?? e.data.name ?? e.data._tag ?? "unknown error";
}

/** OpenCode's 400 for an answer it cannot encode (`data.kind: "Body"`), as opposed to a rejected request. */
function isEncodingFailure(error: unknown): boolean {
  return ErrorBody.safeParse(error).data?.data?.kind === "Body";
}

/** Converts a transport failure (connection refused, timeout) into `backend_unavailable`. */
async function callOpenCode<T extends SdkResult>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof PatchbayError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    throw new PatchbayError("backend_unavailable", `OpenCode did not answer while ${what}: ${detail}`, { cause: err });
  }
}

function unexpected(what: string, r: SdkResult): PatchbayError {
  const status = r.response?.status ?? 0;
  return new PatchbayError(
    "backend_unavailable",
    `OpenCode failed while ${what} (HTTP ${status}: ${errorText(r.error)}).`,
  );
}

function parseOrFail<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new PatchbayError(
      "backend_unavailable",
      `OpenCode sent an unexpected answer while ${what}: ${r.error.issues[0]?.message ?? "invalid"}.`,
    );
  return r.data;
}

/** The port over the SDK: classic `session.*` for status/get/delete/messages, v2 `session.list` for paging. */
export function createOpenCodeHistoryPort(factory: OpenCodeClientFactory): OpenCodeHistoryPort {
  const signal = () => AbortSignal.timeout(CALL_TIMEOUT_MS);
  // Right after a (re)start the history waits for OpenCode like API requests do, instead of failing at once.
  const call = async <T extends SdkResult>(what: string, run: () => Promise<T>): Promise<T> => {
    await factory.whenReady?.(READY_WAIT_MS);
    return callOpenCode(what, run);
  };
  /** One page of OpenCode's v2 session list, pooled sessions included; `next` is null on the last page. */
  async function listPage(
    directory: string,
    opts: { limit: number; order?: "asc" | "desc"; cursor?: string | undefined; search?: string | undefined },
  ): Promise<{ items: RawSession[]; next: string | null }> {
    const what = "listing sessions";
    const r: SdkResult = await call(what, () =>
      factory.client().v2.session.list(
        {
          directory,
          limit: opts.limit,
          order: opts.order ?? "desc",
          ...(opts.cursor ? { cursor: opts.cursor } : {}),
          ...(opts.search ? { search: opts.search } : {}),
        },
        { signal: signal() },
      ),
    );
    if (r.error !== undefined) {
      if (r.response?.status === 400 && ErrorBody.safeParse(r.error).data?._tag === "InvalidCursorError")
        throw new InvalidOpenCodeCursorError();
      throw unexpected(what, r);
    }
    const page = parseOrFail(V2SessionPage, r.data, what);
    const items = page.data.map((s) => ({
      id: s.id,
      title: s.title,
      directory: s.location.directory,
      createdAt: s.time.created,
      updatedAt: s.time.updated,
      model: modelName(s.model),
      tokens: tokensOf(s.tokens),
      cost: s.cost,
    }));
    // OpenCode hands out a `next` cursor even on the last page; a short page is the end.
    return { items, next: items.length < opts.limit ? null : (page.cursor.next ?? null) };
  }

  return {
    async listSessions(directory, opts) {
      // Pre-created sessions of the session pool are not the user's history: they are dropped, and the page is
      // topped up from OpenCode's next page so a caller asking for N still gets N (pooled sessions are the newest, so
      // an unfilled page would look like the end of the list to a prune's walk).
      const items: RawSession[] = [];
      let cursor = opts.cursor;
      for (;;) {
        const page = await listPage(directory, { ...opts, limit: opts.limit - items.length, cursor });
        items.push(...page.items.filter((s) => !isPooledSessionTitle(s.title)));
        if (items.length >= opts.limit || page.next === null) return { items, next: page.next };
        cursor = page.next;
      }
    },

    async busySessions(directory) {
      const what = "reading session status";
      const r: SdkResult = await call(what, () => factory.client().session.status({ directory }, { signal: signal() }));
      if (r.error !== undefined) throw unexpected(what, r);
      const map = parseOrFail(StatusMap, r.data ?? {}, what);
      return new Set(
        Object.entries(map)
          .filter(([, s]) => s.type !== "idle")
          .map(([id]) => id),
      );
    },

    async getSession(id) {
      const what = "reading a session";
      const r: SdkResult = await call(what, () =>
        factory.client().session.get({ sessionID: id }, { signal: signal() }),
      );
      if (r.error !== undefined) {
        if (r.response?.status === 404) return null;
        throw unexpected(what, r);
      }
      const s = parseOrFail(ClassicSession, r.data, what);
      return {
        id: s.id,
        title: s.title,
        directory: s.directory,
        createdAt: s.time.created,
        updatedAt: s.time.updated,
        model: modelName(s.model),
        tokens: tokensOf(s.tokens),
        cost: s.cost,
      };
    },

    async deleteSession(id, directory) {
      const what = "deleting a session";
      const r: SdkResult = await call(what, () =>
        factory.client().session.delete({ sessionID: id, ...(directory ? { directory } : {}) }, { signal: signal() }),
      );
      if (r.error !== undefined) {
        if (r.response?.status === 404) return "missing";
        throw unexpected(what, r);
      }
      return "deleted";
    },

    async messages(id, directory, opts) {
      const what = "reading messages";
      const r: SdkResult = await call(what, () =>
        factory.client().session.messages(
          {
            sessionID: id,
            ...(directory ? { directory } : {}),
            limit: opts.limit,
            ...(opts.before ? { before: opts.before } : {}),
          },
          { signal: signal() },
        ),
      );
      if (r.error !== undefined) {
        if (r.response?.status === 400 && isEncodingFailure(r.error))
          throw new UnreadableMessagesError(errorText(r.error));
        if (r.response?.status === 400 && opts.before) {
          throw new PatchbayError("invalid_request_error", "The message cursor is not valid; reload the session.", {
            param: "cursor",
          });
        }
        if (r.response?.status === 404) throw new PatchbayError("session_not_found", `Session ${id} does not exist.`);
        throw unexpected(what, r);
      }
      const items = parseOrFail(z.array(MessageWithParts), r.data, what);
      return { items, next: r.response?.headers.get("x-next-cursor") ?? null };
    },

    async message(id, directory, messageId) {
      const what = "reading a message";
      const r: SdkResult = await call(what, () =>
        factory
          .client()
          .session.message(
            { sessionID: id, ...(directory ? { directory } : {}), messageID: messageId },
            { signal: signal() },
          ),
      );
      if (r.error !== undefined) {
        if (r.response?.status === 404) return null;
        if (r.response?.status === 400 && isEncodingFailure(r.error))
          throw new UnreadableMessagesError(errorText(r.error));
        throw unexpected(what, r);
      }
      return parseOrFail(MessageWithParts, r.data, what);
    },
  };
}
