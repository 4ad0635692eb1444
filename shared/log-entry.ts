// Zod schema of one request-log entry: one per API request, keys and Authorization never included.
import { z } from "zod";

export const LogUsage = z.object({
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cachedTokens: z.number().int(),
  reasoningTokens: z.number().int(),
});
export type LogUsage = z.infer<typeof LogUsage>;

/** One web search or fetch Patchbay ran for the request (issue 23): what was asked, which backend, how it went. */
export const LogServerToolCall = z.object({
  kind: z.enum(["web_search", "web_fetch"]),
  /** The query (search) or URL (fetch), at most 500 characters. */
  target: z.string(),
  /** Who served it: the search backend's label, or "Patchbay fetch". */
  backend: z.string(),
  ms: z.number(),
  /** Hits (search) or 1 (fetched page); 0 with `error`. */
  results: z.number().int(),
  /** `<error_code>: <message>` when the call gave the client an error result. */
  error: z.string().optional(),
});
export type LogServerToolCall = z.infer<typeof LogServerToolCall>;

export const RequestLogEntry = z.object({
  id: z.string(),
  /** Start of the request, epoch ms. */
  time: z.number().int(),
  /** Name of the app whose key made the request (null: no valid key), kept for display. */
  app: z.string().nullable(),
  /** Id of that app (shared/apps.ts App.id): what the log's per-app views and usage file entries by, so a later app
   *  of the same name never sees them. Null without an app, and in lines written before entries carried it (see
   *  entryBelongsTo in shared/log-filter.ts for how those are attributed). */
  appId: z.string().nullable().default(null),
  keyPrefix: z.string().nullable(),
  method: z.string(),
  endpoint: z.string(),
  modelAsked: z.string().nullable(),
  modelResolved: z.string().nullable(),
  stream: z.boolean(),
  status: z.number().int(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable().default(null),
  /** Time to first token, ms (null when no token was produced). */
  ttftMs: z.number().nullable(),
  totalMs: z.number(),
  usage: LogUsage.nullable(),
  sessionId: z.string().nullable(),
  /** The stored response this request created (`resp_…`; Responses requests with `store` on only). */
  responseId: z.string().optional(),
  warnings: z.array(z.string()).default([]),
  /** The request's role from the client's hint headers (shared/routing.ts REQUEST_ROLES), when it named one. */
  role: z.string().optional(),
  /** Claude Code's `x-claude-code-agent-type`, when sent. */
  agentType: z.string().optional(),
  /** The alias or model the app routes that role to, when a route applied. */
  routedTo: z.string().optional(),
  /** The model that answered (`provider/model[#variant]`), when a fallback chain ran. */
  servedBy: z.string().optional(),
  /** Targets of the chain skipped before the one that served, with why (refused, cooling down, not offered). */
  skipped: z.array(z.object({ model: z.string(), reason: z.string() })).optional(),
  /** True when the request waited for OpenCode to (re)start or be recycled, or ran on an OpenCode ready for less than
   *  30 s (slower first token expected). */
  freshOpenCode: z.boolean().optional(),
  /** Web searches and fetches Patchbay ran for this request, in order (requests that offered server tools). */
  serverTools: z.array(LogServerToolCall).optional(),
  /** Present only when the user enabled body logging. */
  requestBody: z.unknown().optional(),
  responseBody: z.unknown().optional(),
});
export type RequestLogEntry = z.infer<typeof RequestLogEntry>;

/** Status Patchbay logs when the client closed the request before its answer ended (nginx's convention). */
export const CLIENT_CLOSED_STATUS = 499;

/** True for a status counted as an error (Overview's "Errors today", the Usage tab, the Logs "errors" filter):
 *  4xx and 5xx, except 499, a client that went away (`head` closing a stream, Ctrl-C in an agent), which no one
 *  needs to fix. */
export function isErrorStatus(status: number): boolean {
  return status >= 400 && status !== CLIENT_CLOSED_STATUS;
}
