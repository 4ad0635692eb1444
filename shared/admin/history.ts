// Zod schemas of per-app session history on the admin API: session summaries, messages, deletion, prune preview and
// sweep results. Shared by the server's history service and the renderer's Sessions tab. No Node, no DOM.
import { z } from "zod";
import { AppName } from "../apps";

/** OpenCode session ids (`ses_…`). */
export const SessionId = z.string().regex(/^ses_[A-Za-z0-9]{1,60}$/, "Session ids look like ses_…");

/** Tokens as OpenCode stores them on the session (sum over its assistant steps): `input` excludes cache reads and
 *  writes, `output` excludes reasoning (DESIGN §3 "Usage"). */
export const SessionTokens = z.object({
  input: z.number(),
  output: z.number(),
  reasoning: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
});
export type SessionTokens = z.infer<typeof SessionTokens>;

/** OpenCode tokens in OpenAI terms: input includes cache reads and writes, output includes reasoning. The one copy of
 *  this rule (the event mapper, the CLI and the dashboard all use it). */
export function openAiTokenTotals(t: SessionTokens): { input: number; output: number } {
  return { input: t.input + t.cacheRead + t.cacheWrite, output: t.output + t.reasoning };
}

/** One session of an app as listed. Times are epoch ms. */
export const SessionSummary = z.object({
  id: SessionId,
  title: z.string(),
  /** The instance directory (absolute) the session is filed under: one per tool set of the app. */
  directory: z.string(),
  /** Name of the tool-set folder inside the app's folder (last path segment of `directory`). */
  toolSet: z.string(),
  createdAt: z.number(),
  /** Last activity (OpenCode `time.updated`); age limits use this. */
  updatedAt: z.number(),
  /** `provider/model` of the last prompt, null before the first one. */
  model: z.string().nullable(),
  tokens: SessionTokens,
  /** USD as OpenCode computed it (0 when the provider has no prices). */
  cost: z.number(),
  /** Still generating (OpenCode status busy or retrying): never deleted. */
  running: z.boolean(),
  /** When the request reached Patchbay (epoch ms); `createdAt` can be earlier (sessions are created ahead of
   *  requests). Absent for sessions Patchbay has no record of (made before it kept one). */
  receivedAt: z.number().optional(),
  /** The conversation the request belongs to (grouped by what the client sent: its session id header, a
   *  `previous_response_id` chain, or the conversation's opening); absent without a record. */
  conversation: z.object({ id: z.string(), title: z.string().nullable() }).optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/** `:name/:id` path parameters of per-session routes. */
export const SessionParams = z.strictObject({ name: AppName, id: SessionId });

/** `GET /admin/api/apps/:name/sessions`: newest first (by creation), `cursor` from the previous page. */
export const SessionListQuery = z.strictObject({
  cursor: z.string().min(1).max(16_384).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  /** Case-insensitive substring of the title (OpenCode's own title search). */
  search: z.string().trim().min(1).max(200).optional(),
});
export type SessionListQuery = z.infer<typeof SessionListQuery>;

export const SessionPage = z.object({ sessions: z.array(SessionSummary), nextCursor: z.string().nullable() });
export type SessionPage = z.infer<typeof SessionPage>;

/** One piece of a message as the session view shows it. Long texts are cut (`truncated`). */
export const MessagePart = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string(), truncated: z.boolean(), synthetic: z.boolean() }),
  z.object({ type: z.literal("reasoning"), text: z.string(), truncated: z.boolean() }),
  z.object({
    type: z.literal("tool"),
    callId: z.string(),
    /** The client's tool name (OpenCode-side renames undone). */
    tool: z.string(),
    /** `returned`: a client tool call, handed back to the client to run (Patchbay never runs client tools). */
    status: z.enum(["pending", "running", "completed", "error", "returned"]),
    /** JSON of the arguments (cut when long). */
    input: z.string(),
    /** Tool result or error text, null while pending/running; for a `returned` call, the result a later request of
     *  the app carried back, or null when none did (yet). */
    output: z.string().nullable(),
    truncated: z.boolean(),
  }),
  z.object({
    type: z.literal("image"),
    mime: z.string(),
    filename: z.string().nullable(),
    /** Size of the image data (bytes, from the data URL), null for links. */
    bytes: z.number().nullable(),
    /** The image as a data URL when it is small enough to show inline, else null (placeholder). */
    dataUrl: z.string().nullable(),
  }),
  z.object({
    type: z.literal("file"),
    mime: z.string(),
    filename: z.string().nullable(),
    bytes: z.number().nullable(),
  }),
  /** A message OpenCode cannot return (structured-output bug, DESIGN §3). */
  z.object({ type: z.literal("unreadable"), reason: z.string() }),
]);
export type MessagePart = z.infer<typeof MessagePart>;

/** One message of a session. */
export const SessionMessage = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  createdAt: z.number().nullable(),
  completedAt: z.number().nullable(),
  /** `provider/model` (assistant messages, and user messages when known). */
  model: z.string().nullable(),
  /** Assistant: OpenCode's finish reason (`stop`, `tool-calls`, `length`, …). */
  finish: z.string().nullable(),
  /** Assistant: the error OpenCode recorded (e.g. the upstream's message), else null. */
  error: z.string().nullable(),
  tokens: SessionTokens.nullable(),
  parts: z.array(MessagePart),
});
export type SessionMessage = z.infer<typeof SessionMessage>;

/** `GET /admin/api/apps/:name/sessions/:id/messages`: the newest `limit` messages first; `cursor` pages to older. */
export const MessageListQuery = z.strictObject({
  cursor: z.string().min(1).max(2048).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export type MessageListQuery = z.infer<typeof MessageListQuery>;

/** A page of messages in chronological order (oldest first); `nextCursor` leads to older messages. */
export const MessagePage = z.object({
  session: SessionSummary,
  messages: z.array(SessionMessage),
  nextCursor: z.string().nullable(),
  /** Set when older messages exist that OpenCode cannot return (they are not shown). */
  incomplete: z.string().nullable(),
});
export type MessagePage = z.infer<typeof MessagePage>;

/** `POST /admin/api/apps/:name/sessions/delete`. */
export const DeleteSessionsBody = z.strictObject({ ids: z.array(SessionId).min(1).max(500) });

/** A conversation id as `SessionSummary.conversation.id` gives it. */
export const ConversationId = z.string().min(1).max(200);

/** `POST /admin/api/apps/:name/conversations/delete`: every request (session) of these conversations. */
export const DeleteConversationsBody = z.strictObject({ ids: z.array(ConversationId).min(1).max(100) });

/** Outcome of deleting a selection: running sessions are never deleted. */
export const DeleteSessionsResult = z.object({
  deleted: z.array(z.string()),
  /** Unknown, already gone, or not this app's. */
  missing: z.array(z.string()),
  running: z.array(z.string()),
  failed: z.array(z.object({ id: z.string(), message: z.string() })),
});
export type DeleteSessionsResult = z.infer<typeof DeleteSessionsResult>;

/** A history limit in a query: a number, or `none` for "keep forever"; omitted = the app's saved limit. */
const LimitParam = (max: number) => z.union([z.literal("none"), z.coerce.number().int().min(1).max(max)]).optional();

/** `GET /admin/api/apps/:name/history/preview`: limits to preview (the UI sends what is being edited). */
export const PrunePreviewQuery = z.strictObject({ maxSessions: LimitParam(1_000_000), maxAgeDays: LimitParam(36_500) });
export type PrunePreviewQuery = z.infer<typeof PrunePreviewQuery>;

/** What a prune would delete now. `oldest`/`newest` are `updatedAt` of the sessions to delete (epoch ms). */
export const PrunePreview = z.object({
  limits: z.object({ maxSessions: z.number().nullable(), maxAgeDays: z.number().nullable() }),
  /** Sessions of the app looked at. */
  scanned: z.number().int(),
  /** Sessions that would be deleted. */
  count: z.number().int(),
  /** Over the limits but running now (kept). */
  skippedRunning: z.number().int(),
  oldest: z.number().nullable(),
  newest: z.number().nullable(),
  /** Up to 10 of the sessions to delete, newest first. */
  sample: z.array(SessionSummary),
  /** Stored Responses the same limits would delete (absent when Patchbay keeps none). */
  responses: z.number().int().optional(),
});
export type PrunePreview = z.infer<typeof PrunePreview>;

/** `POST /admin/api/apps/:name/history/prune`. */
export const PruneBody = z.strictObject({ dryRun: z.boolean().optional() });

/** Result of one bounded sweep (prune) of an app. Times are epoch ms. */
export const SweepResult = z.object({
  app: z.string(),
  /** What started it. */
  trigger: z.enum(["request", "timer", "manual"]),
  startedAt: z.number(),
  finishedAt: z.number(),
  scanned: z.number().int(),
  removed: z.number().int(),
  alreadyMissing: z.number().int(),
  failed: z.number().int(),
  skippedRunning: z.number().int(),
  /** Sessions still over the limits, left for the next sweep (budget or deadline reached). */
  remaining: z.number().int(),
  dryRun: z.boolean(),
  /** Why the sweep could not run or stopped early (e.g. OpenCode down), else null. */
  error: z.string().nullable(),
  /** Stored Responses deleted by this sweep (absent when Patchbay keeps none). */
  responsesRemoved: z.number().int().optional(),
});
export type SweepResult = z.infer<typeof SweepResult>;

/** A sweep result with every count at zero (the start of a sweep, or a sweep that failed before doing anything). */
export function emptySweepResult(
  app: string,
  trigger: SweepResult["trigger"],
  at: number,
  opts: { dryRun?: boolean; error?: string | null } = {},
): SweepResult {
  return {
    app,
    trigger,
    startedAt: at,
    finishedAt: at,
    scanned: 0,
    removed: 0,
    alreadyMissing: 0,
    failed: 0,
    skippedRunning: 0,
    remaining: 0,
    dryRun: opts.dryRun === true,
    error: opts.error ?? null,
  };
}

/** `GET /admin/api/apps/:name/history/last-sweep`. */
export const LastSweep = z.object({ sweep: SweepResult.nullable(), sweeping: z.boolean() });
export type LastSweep = z.infer<typeof LastSweep>;
