// The neutral contract between wire codecs (server/wires/*) and model backends (server/opencode/*).
// Codecs only know these types; backends only produce them. No I/O here.

/** JSON Schema as sent by clients; passed through untouched. */
export type JsonSchema = Record<string, unknown>;

/** A text or media part of a user/assistant message. Media URLs are `data:` URLs by the time they reach a backend
 *  (http(s) URLs are fetched and inlined by the request service when the app allows remote images). A media part's
 *  `param` is the client's field that held it (`messages[2].content[1].image_url.url`, `input[0].content[3].file_data`),
 *  so later checks (remote images, model capabilities) name the client's own field; backends never send it on. */
export type ContentPart =
  { type: "text"; text: string } | { type: "media"; mediaType: string; url: string; filename?: string; param?: string };

/** A tool call in history or in output. `arguments` is the raw JSON text (never "" in output; "{}" instead). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A reasoning block in assistant history that the provider signed (Anthropic `thinking` with `signature`, or
 *  `redacted_thinking` with `data`): sent back unchanged, and only to a provider that can verify it. */
export interface SignedReasoning {
  text: string;
  /** Anthropic `thinking.signature`. */
  signature?: string;
  /** Anthropic `redacted_thinking.data` (then `text` is ""). */
  redactedData?: string;
}

export type NeutralMessage =
  | { role: "user"; content: ContentPart[] }
  | {
      role: "assistant";
      content: ContentPart[];
      toolCalls: ToolCall[];
      /** Signed reasoning that came before the content (Anthropic wire only; other wires never set it). */
      reasoning?: SignedReasoning[];
    }
  | { role: "tool"; toolCallId: string; content: string };

/** A client function tool, exact name and JSON schema. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: JsonSchema;
  strict?: boolean;
}

/** OpenAI `tool_choice`, normalised. */
export type ToolChoice = "auto" | "none" | "required" | { type: "function"; name: string };

/** Generation parameters; absent means "client did not ask" (the backend clears provider defaults). */
export interface GenerationParams {
  temperature?: number;
  topP?: number;
  /** Anthropic `top_k`. */
  topK?: number;
  /** Max output tokens (chat `max_tokens`/`max_completion_tokens`, Responses `max_output_tokens`). */
  maxOutputTokens?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** `reasoning_effort` / `reasoning.effort`; mapped to an OpenCode model variant when one matches. */
  reasoningEffort?: string;
  parallelToolCalls?: boolean;
}

/** What Patchbay did instead of what the client asked: `ignored` (accepted, no effect), `dropped` (part of the request
 *  not passed on), `approximated` (passed on in another form), `unsupported` (asked for something Patchbay cannot
 *  give). */
export type WarningKind = "ignored" | "dropped" | "approximated" | "unsupported";

/** One note for `x-patchbay-warnings` and the request log. Each layer (decoder, planner, event mapper) returns only
 *  its own; the runner concatenates them once, in that order, and `formatWarning` (core/warnings.ts) is the one way
 *  to turn one into text. */
export interface PatchbayWarning {
  kind: WarningKind;
  /** The field it is about: the client's path (`logit_bias`, `tools[3]`, `messages[].content[].type`) or, in the
   *  planner, the neutral one in wire spelling (`tools[].strict`, `top_k`, `tool_choice`). `[]` stands for "any". */
  param: string;
  /** The sentence the client reads, complete (it names the field itself): header texts stay as they were. */
  detail: string;
}

export type ResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; name: string; schema: JsonSchema; strict?: boolean; description?: string };

/** What every wire decoder produces. Invariants every decoder guarantees (checked once for all wires by
 *  `assertNeutralInvariants`, core/neutral-invariants.ts; later layers rely on them): tool names are unique; every
 *  `tool` message answers a tool call of an earlier assistant message; a named `toolChoice` is one of `tools`. */
export interface NeutralRequest {
  /** Model id as the client sent it (alias or `provider/model`). */
  model: string;
  /** System/developer texts, in order. */
  system: string[];
  messages: NeutralMessage[];
  tools: ToolDefinition[];
  toolChoice: ToolChoice;
  generation: GenerationParams;
  responseFormat: ResponseFormat;
  stream: boolean;
  /** Chat `stream_options.include_usage`. */
  includeUsage: boolean;
  /** Client-provided cache key (`prompt_cache_key`, else `user`). */
  promptCacheKey?: string;
  /** The decoder's warnings (later layers return their own; they never copy these). */
  warnings: PatchbayWarning[];
  /** Provider server tools the client offered (Anthropic `web_search_*`/`web_fetch_*`, Responses `web_search`):
   *  Patchbay runs their calls itself (server/server-tools/). Absent or empty: none offered. */
  serverTools?: ServerToolSpec[];
}

/** Which server tool: a web search or a web page fetch. */
export type ServerToolKind = "web_search" | "web_fetch";

/** A server tool as the client offered it, options normalised (the wire's names in comments). */
export interface ServerToolSpec {
  kind: ServerToolKind;
  /** The name the model calls it by (Anthropic `name`; `web_search` on Responses). */
  name: string;
  /** Calls allowed in this request (`max_uses`); absent = no client limit (Patchbay's own bound applies). */
  maxUses?: number;
  /** Only results/URLs on these domains (`allowed_domains`, Responses `filters.allowed_domains`). */
  allowedDomains?: string[];
  /** Never results/URLs on these domains (`blocked_domains`). */
  blockedDomains?: string[];
  /** Approximate user location (`user_location`): passed to the search backend where it takes one. */
  userLocation?: { city?: string; region?: string; country?: string; timezone?: string };
  /** Web fetch: the most characters of page text returned (derived from `max_content_tokens`). */
  maxContentChars?: number;
  /** Web fetch: the URLs it may fetch (Anthropic: only URLs already in the conversation). Absent: none at all, until a
   *  search or fetch in this request adds some (server-tools/fetchable-urls.ts). */
  fetchScope?: FetchUrlScope;
}

/** One Anthropic `url_sources` filter of tool results: every tool's, none, only the named tools', or all but theirs. */
export type ToolSourceRule =
  { type: "all" } | { type: "none" } | { type: "only"; tools: string[] } | { type: "except"; tools: string[] };

/** A web fetch tool's scope: the URL keys (server-tools/fetchable-urls.ts `urlKey`) the conversation offered so far,
 *  and which server tools' results in this request add more. */
export interface FetchUrlScope {
  urls: string[];
  serverToolResults: ToolSourceRule;
}

/** One web search hit. `snippet` is the backend's text about the page (shown to the model, not to Anthropic clients). */
export interface WebSearchHit {
  url: string;
  title: string;
  snippet: string;
  /** The page's age or date as the backend gave it, else absent. */
  pageAge?: string;
}

/** Why a server tool call produced no result, in Anthropic's error codes (the richest set; other wires map them). */
export type ServerToolErrorCode =
  | "invalid_tool_input"
  | "unavailable"
  | "max_uses_exceeded"
  | "too_many_requests"
  | "query_too_long"
  | "url_not_allowed"
  | "url_not_in_prior_context"
  | "url_not_accessible"
  | "unsupported_content_type"
  | "url_too_long";

/** One server tool call as the request log keeps it (shared/log-entry.ts LogServerToolCall). */
export interface ServerToolCallRecord {
  kind: ServerToolKind;
  /** The query or URL. */
  target: string;
  /** The search backend's label, or "Patchbay fetch". */
  backend: string;
  ms: number;
  /** Hits (search) or 1 (fetched page); 0 with `error`. */
  results: number;
  /** `<error_code>: <message>` of an error outcome. */
  error?: string;
}

/** The outcome of one server tool call. */
export type ServerToolOutcome =
  | { kind: "web_search"; query: string; hits: WebSearchHit[] }
  | { kind: "web_fetch"; url: string; title: string | null; mediaType: string; text: string; retrievedAt: string }
  | { kind: ServerToolKind; error: ServerToolErrorCode; message: string };

/** Token usage in OpenAI semantics: input includes cached tokens, output includes reasoning tokens. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  reasoningTokens: number;
  /** Input tokens written to the provider's prompt cache (part of `inputTokens`); absent when none were reported. */
  cacheWriteTokens?: number;
  /** Server tool calls Patchbay ran (Anthropic `usage.server_tool_use`); absent when the request offered none. */
  serverToolUse?: { webSearchRequests: number; webFetchRequests: number };
}

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

/** An error as an event: it can arrive before or after output started. */
export interface ModelError {
  /** A code from shared/errors.ts (e.g. `upstream_rate_limited`). */
  code: string;
  status: number;
  message: string;
  param?: string | null;
  /** Seconds, forwarded as `Retry-After` when the error is sent before any output. */
  retryAfter?: number;
  /** What the failure is, when the backend can tell: the conversation does not fit the model's context window, or
   *  the account's quota/credit is used up (unlike a rate limit, waiting does not help). Wires map it to their own
   *  codes (Responses: `context_length_exceeded`, `insufficient_quota`). */
  kind?: "context_length" | "quota";
  /** The thrown error behind an `internal_error` (for Patchbay's log; never sent to a client). */
  cause?: unknown;
}

/** Neutral output events, in order: one `start`, then deltas/tool calls, then exactly one `finish` or `error`. */
export type ModelEvent =
  /** `warnings`: the backend's own (its plan of the request), never the decoder's. */
  | { type: "start"; sessionId: string; warnings: PatchbayWarning[]; freshOpenCode?: boolean }
  | { type: "text-delta"; delta: string }
  /** Reasoning text. A delta "" with `signature` ends the current reasoning part with the provider's signature
   *  (Anthropic thinking); encoders of wires without signatures ignore it. */
  | { type: "reasoning-delta"; delta: string; signature?: string }
  | { type: "tool-call"; id: string; name: string; arguments: string }
  /** A server tool call the model made, run by Patchbay (never returned to the client to run). `input` is the
   *  model's arguments as an object. Its `server-tool-result` follows before any other output. */
  | { type: "server-tool-call"; id: string; name: string; kind: ServerToolKind; input: Record<string, unknown> }
  /** The outcome of the server tool call `id`; `record` is what the request log keeps of it. */
  | { type: "server-tool-result"; id: string; outcome: ServerToolOutcome; record?: ServerToolCallRecord }
  /** `warnings`: notes learnt only at the end (e.g. the model ignored tool_choice), for `x-patchbay-warnings`. */
  | { type: "finish"; reason: FinishReason; usage: Usage; warnings?: PatchbayWarning[] }
  | { type: "error"; error: ModelError };

/** Resolved target of a request: OpenCode provider, model and optional variant. */
export interface ModelTarget {
  providerID: string;
  modelID: string;
  variant?: string;
}

/** One model as the backend lists it (for `/v1/models` and the dashboard's pickers). */
export interface ModelInfo {
  /** `provider/model`. */
  id: string;
  providerID: string;
  modelID: string;
  name: string;
  providerName: string;
  /** OpenCode variants (e.g. `low`, `high`), selectable as `provider/model#variant` in aliases. */
  variants: string[];
  capabilities: { toolCall: boolean; attachment: boolean; reasoning: boolean; temperature: boolean };
  limit: { context: number; output: number };
  /** AI SDK package that serves the provider (decides which parameters can pass). */
  npm: string | null;
  /** Release date as epoch seconds when known, else 0. */
  created: number;
}

/** Everything a backend needs for one request. The model was resolved once, by the runner, from the one model list;
 *  the backend does not look it up again. */
export interface BackendRequest {
  /** The app's data key (`appDataKey` in shared/apps.ts); the backend files the session under this folder. */
  app: string;
  /** The resolved model (its provider package decides which parameters can pass). */
  model: ModelInfo;
  /** An OpenCode variant of `model` (checked against `model.variants` by the resolver). */
  variant?: string;
  request: NeutralRequest;
}

/** A model backend (OpenCode in production; fakes in unit tests). */
export interface ModelBackend {
  /** Models of connected providers. Throws PatchbayError `backend_unavailable`/`backend_starting` when down. */
  listModels(): Promise<ModelInfo[]>;
  /** Runs one request. Yields `start` first; ends with `finish` or `error`. Aborting `signal` interrupts the run
   *  (OpenCode session aborted) and ends the iterator. Never throws after `start`: failures are `error` events. */
  stream(req: BackendRequest, signal: AbortSignal): AsyncIterable<ModelEvent>;
  /** Optional, pure: throws PatchbayError 400 `invalid_request_error` for a request this backend cannot carry (e.g.
   *  two tools OpenCode would give one name). Admission calls it, so such a request is refused before it counts
   *  against a budget or leaves a stored response. */
  check?(request: NeutralRequest): void;
}

/** Sum of two usages. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
  if (a.cacheWriteTokens !== undefined || b.cacheWriteTokens !== undefined)
    sum.cacheWriteTokens = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  if (a.serverToolUse || b.serverToolUse)
    sum.serverToolUse = {
      webSearchRequests: (a.serverToolUse?.webSearchRequests ?? 0) + (b.serverToolUse?.webSearchRequests ?? 0),
      webFetchRequests: (a.serverToolUse?.webFetchRequests ?? 0) + (b.serverToolUse?.webFetchRequests ?? 0),
    };
  return sum;
}

export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  reasoningTokens: 0,
});
