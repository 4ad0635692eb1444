// zod schema of the OpenAI Responses request (OpenAI API reference, "Create a model response"), stateless subset.
// Shapes only; unknown fields are tolerated (zod strips them). Meaning and refusals live in decode.ts.
import { z } from "zod";
import {
  FunctionName,
  JsonSchemaObject,
  SchemaName,
  Temperature,
  TokenLimit,
  TopP,
  numberBetween,
} from "../openai/common-schema";

const InputText = z.object({ type: z.literal("input_text"), text: z.string() });
const OutputText = z.object({ type: z.literal("output_text"), text: z.string() });
const Refusal = z.object({ type: z.literal("refusal"), refusal: z.string() });
const InputImage = z.object({
  type: z.literal("input_image"),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  detail: z.string().nullish(),
});
const InputFile = z.object({
  type: z.literal("input_file"),
  file_data: z.string().nullish(),
  file_id: z.string().nullish(),
  file_url: z.string().nullish(),
  filename: z.string().nullish(),
});
/** Recognised so it can be refused with a clear message. */
const InputAudio = z.object({ type: z.literal("input_audio") });

/** A content part of a message item (or of a function_call_output's `output` list). */
export const ResponsesContentPart = z.discriminatedUnion("type", [
  InputText,
  OutputText,
  Refusal,
  InputImage,
  InputFile,
  InputAudio,
]);

const Content = z.union([z.string(), z.array(ResponsesContentPart)], {
  error: "expected a string or an array of content parts",
});

/** A `message` item; an item with `role` and no `type` is a message too (the decoder adds the type). */
export const MessageItem = z.object({
  type: z.literal("message"),
  role: z.enum(["system", "developer", "user", "assistant"]),
  content: Content,
});
/** A `function_call` item from an earlier turn; `namespace` is set when the function belongs to a namespace tool. */
export const FunctionCallItem = z.object({
  type: z.literal("function_call"),
  call_id: z.string().min(1, { error: "must be a non-empty string" }),
  namespace: z.string().min(1, { error: "must be a non-empty string" }).nullish(),
  name: z.string().min(1, { error: "must be a non-empty string" }),
  // "" is allowed in history (a call without arguments); null/absent too.
  arguments: z.string().nullish(),
});
/** A `function_call_output` item answering a call. */
export const FunctionCallOutputItem = z.object({
  type: z.literal("function_call_output"),
  call_id: z.string().min(1, { error: "must be a non-empty string" }),
  output: Content,
});
/** A `custom_tool_call` item from an earlier turn (OpenAPI `CustomToolCall`): free-form `input` text. */
export const CustomToolCallItem = z.object({
  type: z.literal("custom_tool_call"),
  call_id: z.string().min(1, { error: "must be a non-empty string" }),
  namespace: z.string().min(1, { error: "must be a non-empty string" }).nullish(),
  name: z.string().min(1, { error: "must be a non-empty string" }),
  input: z.string({ error: "must be a string" }),
});
/** A `custom_tool_call_output` item answering a custom tool call (OpenAPI `CustomToolCallOutput`). */
export const CustomToolCallOutputItem = z.object({
  type: z.literal("custom_tool_call_output"),
  call_id: z.string().min(1, { error: "must be a non-empty string" }),
  output: Content,
});
/** A `reasoning` item: accepted and dropped. */
export const ReasoningItem = z.object({ type: z.literal("reasoning") });
/** A web search action (ResponseFunctionWebSearch's `action` in the `openai` package; Codex's WebSearchAction):
 *  `search` {query, queries, sources[{url}]}, `open_page` {url}, `find_in_page` {url, pattern}; Codex also writes
 *  `other`. Unknown types are tolerated (nothing of them is kept); known fields of the wrong type are a 400. */
const WebSearchAction = z
  .object({
    type: z.string({ error: "must be a string" }),
    query: z.string({ error: "must be a string" }).nullish(),
    queries: z.array(z.string({ error: "must be a string" }), { error: "expected an array of strings" }).nullish(),
    sources: z
      .array(z.object({ type: z.string().optional(), url: z.string({ error: "must be a string" }) }).loose(), {
        error: "expected an array of {type: 'url', url} sources",
      })
      .nullish(),
    url: z.string({ error: "must be a string" }).nullish(),
    pattern: z.string({ error: "must be a string" }).nullish(),
  })
  .loose();
/** A `web_search_call` item from an earlier response (Codex sends them back): the search is not run again; its
 *  action is read by web-search-history.ts. `action` may be absent (Codex's is optional) or a bare type string
 *  (seen from Codex builds in the wild); `status` is the item status of the `openai` package. */
export const WebSearchCallItem = z.object({
  type: z.literal("web_search_call"),
  id: z.string({ error: "must be a string" }).nullish(),
  status: z
    .enum(["in_progress", "searching", "completed", "failed"], {
      error: "expected one of 'in_progress', 'searching', 'completed', 'failed'",
    })
    .nullish(),
  action: z.union([WebSearchAction, z.string()], { error: "expected an action object" }).nullish(),
});
/** Codex's `agent_message` item (a message between agents in its multi-agent mode): read as user text. Content is a
 *  string or `input_text` parts (Codex 0.171's AgentMessageInputContent). */
export const AgentMessageItem = z.object({
  type: z.literal("agent_message"),
  author: z.string().nullish(),
  recipient: z.string().nullish(),
  content: z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }))]).nullish(),
});
/** Codex's `compaction` item: earlier context compacted by OpenAI's server (opaque `encrypted_content`): dropped. */
export const CompactionItem = z.object({ type: z.literal("compaction") });
/** An `item_reference`: recognised so it can be refused with advice. */
export const ItemReference = z.object({ type: z.literal("item_reference"), id: z.string().nullish() });

/** The item types Patchbay understands (anything else is refused by name in decode.ts before parsing). */
export const KNOWN_ITEM_TYPES = [
  "message",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "reasoning",
  "web_search_call",
  "item_reference",
  "agent_message",
  "compaction",
] as const;

/** One `input` item. */
export const ResponsesInputItem = z.preprocess(
  (item) =>
    typeof item === "object" && item !== null && !Array.isArray(item) && !("type" in item) && "role" in item
      ? { ...item, type: "message" }
      : item,
  z.discriminatedUnion("type", [
    MessageItem,
    FunctionCallItem,
    FunctionCallOutputItem,
    CustomToolCallItem,
    CustomToolCallOutputItem,
    ReasoningItem,
    WebSearchCallItem,
    ItemReference,
    AgentMessageItem,
    CompactionItem,
  ]),
);

/** A function tool (`tools[i]` with `type: "function"`). */
export const ResponsesFunctionTool = z.object({
  type: z.literal("function"),
  name: FunctionName,
  description: z.string().nullish(),
  parameters: JsonSchemaObject.nullish(),
  strict: z.boolean().nullish(),
});

/** `format` of a custom tool (OpenAPI `CustomTextFormatParam` / `CustomGrammarFormatParam`). */
export const CustomToolFormat = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({
    type: z.literal("grammar"),
    syntax: z.enum(["lark", "regex"], { error: "must be 'lark' or 'regex'" }),
    definition: z.string({ error: "must be a string" }),
  }),
]);

/** A custom tool (`tools[i]` with `type: "custom"`, OpenAPI `CustomToolParam`): the model answers with free text. */
export const ResponsesCustomTool = z.object({
  type: z.literal("custom"),
  name: FunctionName,
  description: z.string().nullish(),
  format: CustomToolFormat.nullish(),
});

/** A namespace tool (OpenAPI `NamespaceToolParam`): function/custom tools grouped under a shared name. Members are
 *  checked one by one in tools.ts so errors name `tools[i].tools[j]`. */
export const ResponsesNamespaceTool = z.object({
  type: z.literal("namespace"),
  name: z
    .string({ error: "must be a string" })
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/, { error: "must be 1-128 characters of a-z, A-Z, 0-9, '_', '-', '.', ':'" }),
  description: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string() }), { error: "must be an array of tools" }).min(1, {
    error: "must hold at least one tool",
  }),
});

/** `text.format`. */
export const ResponsesTextFormat = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    name: SchemaName,
    schema: JsonSchemaObject,
    description: z.string().nullish(),
    strict: z.boolean().nullish(),
  }),
]);

/** The Responses request body. Every optional field also accepts `null` (meaning "not set"). */
export const ResponsesRequestSchema = z.object({
  model: z.string({ error: "must be a string" }).min(1, { error: "must be a non-empty model id" }),
  input: z.union([z.string(), z.array(ResponsesInputItem)], { error: "expected a string or an array of input items" }),
  instructions: z.string().nullish(),
  // Checked per entry in decode.ts so hosted tools get their own message.
  tools: z.array(z.looseObject({ type: z.string() }), { error: "must be an array of tools" }).nullish(),
  tool_choice: z
    .union(
      [
        z.enum(["auto", "none", "required"]),
        z.object({
          type: z.string(),
          name: z.string().nullish(),
          mode: z.string().nullish(),
          tools: z.array(z.looseObject({ type: z.string() })).nullish(),
        }),
      ],
      { error: "expected 'auto', 'none', 'required' or {type: 'function', name}" },
    )
    .nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  text: z.object({ format: ResponsesTextFormat.nullish(), verbosity: z.string().nullish() }).nullish(),
  temperature: Temperature.nullish(),
  top_p: TopP.nullish(),
  max_output_tokens: TokenLimit.nullish(),
  reasoning: z.object({ effort: z.string().nullish(), summary: z.string().nullish() }).nullish(),
  metadata: z
    .record(z.string().max(64), z.string().max(512), { error: "must be an object of string values" })
    .nullish(),
  user: z.string().nullish(),
  store: z.boolean().nullish(),
  stream: z.boolean().nullish(),
  prompt_cache_key: z.string().nullish(),
  /** Codex sends per-turn ids here; accepted, not forwarded. */
  client_metadata: z.record(z.string(), z.unknown()).nullish(),
  include: z.array(z.string()).nullish(),
  top_logprobs: numberBetween(0, 20).nullish(),
  truncation: z.enum(["auto", "disabled"]).nullish(),
  background: z.boolean().nullish(),
  max_tool_calls: z.int().min(1).nullish(),
});

/** The parsed Responses request. */
export type ResponsesRequest = z.output<typeof ResponsesRequestSchema>;
/** One parsed input item. */
export type ResponsesItem = z.output<typeof ResponsesInputItem>;
/** One parsed content part. */
export type ResponsesPart = z.output<typeof ResponsesContentPart>;
