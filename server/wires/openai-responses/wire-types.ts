// Types of what Patchbay sends on the Responses wire (OpenAI API reference, "The response object" and "Streaming
// events"), plus the request fields a response echoes. Types only.
import type { OutputWebSearchCallItem, UrlCitation } from "../../server-tools/responses-items";

/** `text.format` as echoed. */
export type ResponseTextFormatOut =
  | { type: "text" }
  | { type: "json_object" }
  | {
      type: "json_schema";
      name: string;
      schema: Record<string, unknown>;
      strict: boolean | null;
      description?: string;
    };

/** A function tool as echoed. */
export interface ResponseFunctionToolOut {
  type: "function";
  name: string;
  description: string | null;
  parameters: Record<string, unknown>;
  strict: boolean | null;
}

/** A custom tool as echoed (OpenAPI `CustomToolParam`). */
export interface ResponseCustomToolOut {
  type: "custom";
  name: string;
  description?: string;
  format: { type: "text" } | { type: "grammar"; syntax: "lark" | "regex"; definition: string };
}

/** A namespace tool as echoed (OpenAPI `NamespaceToolParam`). */
export interface ResponseNamespaceToolOut {
  type: "namespace";
  name: string;
  description: string;
  tools: Array<ResponseFunctionToolOut | ResponseCustomToolOut>;
}

/** The web search tool as echoed, since Patchbay runs it (OpenAPI `WebSearchTool` / `WebSearchPreviewTool`): its type
 *  and the fields of it Patchbay read, as it read them (plus Codex's `external_web_access`); nothing else the client
 *  put in the object comes back. */
export interface ResponseWebSearchToolOut {
  type: "web_search" | "web_search_2025_08_26" | "web_search_preview" | "web_search_preview_2025_03_11";
  filters?: { allowed_domains: string[] };
  search_context_size?: "low" | "medium" | "high";
  user_location?: { type: "approximate"; city?: string; region?: string; country?: string; timezone?: string };
  external_web_access?: boolean;
}

/** A tool as echoed in `response.tools`: the client tools Patchbay offered and the web search it runs (hosted tools
 *  it dropped are left out). */
export type ResponseToolOut =
  ResponseFunctionToolOut | ResponseCustomToolOut | ResponseNamespaceToolOut | ResponseWebSearchToolOut;

/** `tool_choice` as echoed. */
export type ResponseToolChoiceOut =
  "auto" | "none" | "required" | { type: "function"; name: string } | { type: "custom"; name: string };

/** The request fields a response object repeats, normalised (absent → null or the API default). Returned by
 *  `decodeResponsesRequest` and given to the `ResponsesEncoder`. */
export interface ResponseEcho {
  instructions: string | null;
  max_output_tokens: number | null;
  metadata: Record<string, string>;
  parallel_tool_calls: boolean;
  prompt_cache_key: string | null;
  /** `summary` requested → reasoning is streamed as a `reasoning` item with summary text (see ResponsesEncoder). */
  reasoning: { effort: string | null; summary: string | null };
  temperature: number | null;
  text: { format: ResponseTextFormatOut };
  tool_choice: ResponseToolChoiceOut;
  tools: ResponseToolOut[];
  top_p: number | null;
  user: string | null;
  /** Whether this response is stored (set by the Responses route; absent: false). */
  store?: boolean;
  /** The `previous_response_id` the request named (set by the Responses route; absent: null). */
  previous_response_id?: string | null;
}

/** An `output_text` content part. */
export interface OutputTextPart {
  type: "output_text";
  text: string;
  annotations: UrlCitation[];
  logprobs: [];
}

export type ItemStatus = "in_progress" | "completed" | "incomplete";

/** A `message` output item. */
export interface OutputMessageItem {
  id: string;
  type: "message";
  status: ItemStatus;
  role: "assistant";
  content: OutputTextPart[];
}

/** A `function_call` output item: `id` is `fc_...`, `call_id` the tool call id the client answers with; `namespace`
 *  is present when the function belongs to a namespace tool (`name` is then the member's own name). */
export interface OutputFunctionCallItem {
  id: string;
  type: "function_call";
  status: ItemStatus;
  call_id: string;
  namespace?: string;
  name: string;
  arguments: string;
}

/** A `custom_tool_call` output item (OpenAPI `CustomToolCall` + item `status`): `id` is `ctc_...`, `input` the model's
 *  free-form text. */
export interface OutputCustomToolCallItem {
  id: string;
  type: "custom_tool_call";
  status: ItemStatus;
  call_id: string;
  namespace?: string;
  name: string;
  input: string;
}

/** A summary part of a `reasoning` item. */
export interface SummaryTextPart {
  type: "summary_text";
  text: string;
}

/** A `reasoning` output item (reasoning text as its summary). */
export interface OutputReasoningItem {
  id: string;
  type: "reasoning";
  status: ItemStatus;
  summary: SummaryTextPart[];
}

export type OutputItem =
  OutputMessageItem | OutputFunctionCallItem | OutputCustomToolCallItem | OutputReasoningItem | OutputWebSearchCallItem;

/** Responses usage; `input_tokens` includes cached tokens, `output_tokens` includes reasoning tokens.
 *  `cache_write_tokens` (required by the OpenAPI `ResponseUsage` schema) is 0 when the provider reported none. */
export interface ResponseUsageOut {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";

/** The response object (`object: "response"`). `store` says whether Patchbay keeps it (GET /v1/responses/{id}). */
export interface ResponseObject {
  id: string;
  object: "response";
  /** Unix seconds. */
  created_at: number;
  status: ResponseStatus;
  background: false;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: "max_output_tokens" | "content_filter" } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: null;
  model: string;
  output: OutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  prompt_cache_key: string | null;
  reasoning: { effort: string | null; summary: string | null };
  service_tier: "default";
  store: boolean;
  temperature: number | null;
  text: { format: ResponseTextFormatOut };
  tool_choice: ResponseToolChoiceOut;
  tools: ResponseToolOut[];
  top_logprobs: 0;
  top_p: number | null;
  truncation: "disabled";
  usage: ResponseUsageOut | null;
  user: string | null;
  metadata: Record<string, string>;
}

/** A streaming event: `type` (also the SSE event name), `sequence_number` from 0 without gaps, then its fields. */
export type ResponseStreamEvent = { type: string; sequence_number: number } & Record<string, unknown>;
