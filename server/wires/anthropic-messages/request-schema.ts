// zod schema of the Anthropic Messages request (Anthropic API reference, "Messages" → "Create a Message").
// Shapes only; unknown fields are tolerated (zod strips them; decode.ts names the ones it ignores). Content blocks are
// parsed one by one in decode.ts so that an unknown block type is a warning, never a 400.
import { z } from "zod";

/** A finite number in [min, max], with a message that states the range. */
function numberBetween(min: number, max: number) {
  const error = `must be a number between ${min} and ${max}`;
  return z.number({ error }).min(min, { error }).max(max, { error });
}

const nonEmpty = z.string({ error: "must be a string" }).min(1, { error: "must be a non-empty string" });

/** `cache_control` on any block; accepted and ignored (OpenCode decides caching itself). */
const CacheControl = z.unknown().optional();

/** `{type: "text", text}` (citations and cache_control tolerated, ignored). */
export const TextBlock = z.object({ type: z.literal("text"), text: z.string({ error: "must be a string" }) });

const Base64Source = z.object({
  type: z.literal("base64"),
  media_type: nonEmpty,
  data: z.string({ error: "must be a base64 string" }),
});
const UrlSource = z.object({ type: z.literal("url"), url: nonEmpty });
const TextSource = z.object({ type: z.literal("text"), media_type: z.string().optional(), data: z.string() });
const FileSource = z.object({ type: z.literal("file"), file_id: z.string() });

/** `{type: "image", source}`: base64 or url sources (the Files API `file` source is refused in decode.ts). */
export const ImageBlock = z.object({
  type: z.literal("image"),
  source: z.discriminatedUnion("type", [Base64Source, UrlSource, FileSource], {
    error: "expected a source of type 'base64', 'url' or 'file'",
  }),
});

/** `{type: "document", source, title?}`: PDF base64, url, or plain-text sources. */
export const DocumentBlock = z.object({
  type: z.literal("document"),
  source: z.discriminatedUnion("type", [Base64Source, UrlSource, TextSource, FileSource], {
    error: "expected a source of type 'base64', 'url', 'text' or 'file'",
  }),
  title: z.string().nullish(),
});

/** `{type: "tool_use", id, name, input}` in assistant history. */
export const ToolUseBlock = z.object({
  type: z.literal("tool_use"),
  id: nonEmpty,
  name: nonEmpty,
  input: z.record(z.string(), z.unknown(), { error: "must be a JSON object" }),
});

/** Blocks allowed inside a `tool_result`'s content (text and images; others become placeholders). */
export const ToolResultInnerBlock = z.object({ type: z.string() }).loose();

/** `{type: "tool_result", tool_use_id, content?, is_error?}` in user messages. */
export const ToolResultBlock = z.object({
  type: z.literal("tool_result"),
  tool_use_id: nonEmpty,
  content: z
    .union([z.string(), z.array(ToolResultInnerBlock)], { error: "expected a string or an array of content blocks" })
    .optional(),
  is_error: z.boolean({ error: "must be a boolean" }).nullish(),
});

/** `{type: "thinking", thinking, signature}` in assistant history. */
export const ThinkingBlock = z.object({
  type: z.literal("thinking"),
  thinking: z.string({ error: "must be a string" }),
  signature: z.string().nullish(),
});

/** `{type: "redacted_thinking", data}` in assistant history. */
export const RedactedThinkingBlock = z.object({ type: z.literal("redacted_thinking"), data: z.string() });

/** `{type: "server_tool_use", id, name, input}` in assistant history (ServerToolUseBlockParam): a search or fetch that
 *  already ran. */
export const ServerToolUseBlock = z.object({
  type: z.literal("server_tool_use"),
  id: nonEmpty,
  name: nonEmpty,
  input: z.record(z.string(), z.unknown(), { error: "must be a JSON object" }),
});

/** One result of a `web_search_tool_result` (WebSearchResultBlockParam). `encrypted_content` is opaque and unused,
 *  so it may be missing (Patchbay's own is ""). */
const WebSearchResult = z.object({
  type: z.literal("web_search_result"),
  url: nonEmpty,
  title: z.string({ error: "must be a string" }),
  encrypted_content: z.string({ error: "must be a string" }).optional(),
  page_age: z.string({ error: "must be a string" }).nullish(),
});

/** A server tool's error result: `{type: "<tool>_tool_result_error", error_code}`. */
const ToolResultError = (type: string) => z.object({ type: z.literal(type), error_code: nonEmpty });

/** `{type: "web_search_tool_result", tool_use_id, content}` in assistant history (WebSearchToolResultBlockParam):
 *  content is the results or a `web_search_tool_result_error`. */
export const WebSearchToolResultBlock = z.object({
  type: z.literal("web_search_tool_result"),
  tool_use_id: nonEmpty,
  content: z.union([z.array(WebSearchResult), ToolResultError("web_search_tool_result_error")], {
    error: "expected an array of web_search_result blocks or a web_search_tool_result_error",
  }),
});

/** `{type: "web_fetch_tool_result", tool_use_id, content}` in assistant history (WebFetchToolResultBlockParam):
 *  content is a `web_fetch_result` (url + document) or a `web_fetch_tool_result_error`. */
export const WebFetchToolResultBlock = z.object({
  type: z.literal("web_fetch_tool_result"),
  tool_use_id: nonEmpty,
  content: z.discriminatedUnion(
    "type",
    [
      z.object({
        type: z.literal("web_fetch_result"),
        url: nonEmpty,
        retrieved_at: z.string({ error: "must be a string" }).nullish(),
        content: DocumentBlock,
      }),
      ToolResultError("web_fetch_tool_result_error"),
    ],
    { error: "expected a web_fetch_result or a web_fetch_tool_result_error" },
  ),
});

/** Any content block: only `type` is checked here; decode.ts parses the known ones with the schemas above. */
export const AnyBlock = z.object({ type: z.string({ error: "must be a string" }) }).loose();

/** A message of `messages`. Claude Code also sends `role: "system"` in the middle of the conversation. */
export const MessageParam = z.object({
  role: z.enum(["user", "assistant", "system"], { error: "expected one of 'user', 'assistant', 'system'" }),
  content: z.union([z.string(), z.array(AnyBlock)], { error: "expected a string or an array of content blocks" }),
});

/** A tool definition: custom tools have `input_schema` and no `type` (or `custom`); server tools have a dated type. */
export const ToolParam = z
  .object({
    type: z.string().nullish(),
    name: nonEmpty,
    description: z.string().nullish(),
    input_schema: z.record(z.string(), z.unknown(), { error: "must be a JSON Schema object" }).optional(),
    strict: z.boolean().nullish(),
    defer_loading: z.boolean().nullish(),
    cache_control: CacheControl,
  })
  .loose();

/** `tool_choice`. */
export const ToolChoiceParam = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("auto"), disable_parallel_tool_use: z.boolean().nullish() }),
    z.object({ type: z.literal("any"), disable_parallel_tool_use: z.boolean().nullish() }),
    z.object({ type: z.literal("tool"), name: nonEmpty, disable_parallel_tool_use: z.boolean().nullish() }),
    z.object({ type: z.literal("none") }),
  ],
  { error: "expected {type: 'auto' | 'any' | 'tool' | 'none'}" },
);

/** `thinking`: enabled with a budget, adaptive, or disabled (`display` and other fields tolerated). */
export const ThinkingParam = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("enabled"), budget_tokens: z.int({ error: "must be an integer" }).min(0) }),
    z.object({ type: z.literal("adaptive") }),
    z.object({ type: z.literal("disabled") }),
  ],
  { error: "expected {type: 'enabled', budget_tokens} | {type: 'adaptive'} | {type: 'disabled'}" },
);

/** `output_config`: `effort` and a JSON-schema `format` (structured outputs). */
export const OutputConfigParam = z
  .object({
    effort: z.string().nullish(),
    format: z
      .object({ type: z.literal("json_schema"), schema: z.record(z.string(), z.unknown()) })
      .loose()
      .nullish(),
  })
  .loose();

/** The request body. */
export const MessagesRequestSchema = z
  .object({
    model: nonEmpty,
    max_tokens: z.int({ error: "must be an integer >= 1" }).min(1, { error: "must be an integer >= 1" }),
    messages: z.array(MessageParam, { error: "expected an array of messages" }),
    system: z
      .union([z.string(), z.array(TextBlock.loose())], { error: "expected a string or an array of text blocks" })
      .nullish(),
    tools: z.array(ToolParam, { error: "expected an array of tools" }).nullish(),
    tool_choice: ToolChoiceParam.nullish(),
    temperature: numberBetween(0, 1).nullish(),
    top_p: numberBetween(0, 1).nullish(),
    top_k: z.int({ error: "must be an integer >= 0" }).min(0).nullish(),
    stop_sequences: z.array(z.string(), { error: "expected an array of strings" }).nullish(),
    stream: z.boolean({ error: "must be a boolean" }).nullish(),
    thinking: ThinkingParam.nullish(),
    output_config: OutputConfigParam.nullish(),
  })
  .loose();

/** The parsed request. */
export type MessagesRequest = z.output<typeof MessagesRequestSchema>;
/** One parsed message. */
export type MessageParamT = z.output<typeof MessageParam>;
/** The count_tokens body: the same as a message request without `max_tokens`. */
export const CountTokensRequestSchema = MessagesRequestSchema.extend({ max_tokens: z.unknown().optional() });
