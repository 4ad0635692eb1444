// zod schemas of the OpenAI wire RESPONSE shapes (OpenAI API reference: chat completion object, chunk object, error
// envelope, response object, Responses streaming events, models), used by tests to judge what the encoders produce.
// Strict where the reference fixes the shape, so an unexpected field fails a test. Test-only.
import { z } from "zod";

const FinishReason = z.enum(["stop", "length", "tool_calls", "content_filter", "function_call"]);
const NonNegInt = z.int().min(0);

export const ChatUsageSchema = z.strictObject({
  prompt_tokens: NonNegInt,
  completion_tokens: NonNegInt,
  total_tokens: NonNegInt,
  prompt_tokens_details: z.strictObject({ cached_tokens: NonNegInt }),
  completion_tokens_details: z.strictObject({ reasoning_tokens: NonNegInt }),
});

export const ChatToolCallSchema = z.strictObject({
  id: z.string().min(1),
  type: z.literal("function"),
  function: z.strictObject({ name: z.string().min(1), arguments: z.string().min(1) }),
});

export const ChatCompletionSchema = z.strictObject({
  id: z.string().min(1),
  object: z.literal("chat.completion"),
  created: NonNegInt,
  model: z.string().min(1),
  choices: z
    .array(
      z.strictObject({
        index: NonNegInt,
        message: z.strictObject({
          role: z.literal("assistant"),
          content: z.string().nullable(),
          refusal: z.null(),
          tool_calls: z.array(ChatToolCallSchema).min(1).optional(),
          reasoning_content: z.string().min(1).optional(),
        }),
        logprobs: z.null(),
        finish_reason: FinishReason,
      }),
    )
    .length(1),
  usage: ChatUsageSchema,
});

export const ChatToolCallDeltaSchema = z.strictObject({
  index: NonNegInt,
  id: z.string().min(1).optional(),
  type: z.literal("function").optional(),
  function: z.strictObject({ name: z.string().min(1).optional(), arguments: z.string() }),
});

export const ChatChunkSchema = z.strictObject({
  id: z.string().min(1),
  object: z.literal("chat.completion.chunk"),
  created: NonNegInt,
  model: z.string().min(1),
  choices: z.array(
    z.strictObject({
      index: NonNegInt,
      delta: z.strictObject({
        role: z.literal("assistant").optional(),
        content: z.string().optional(),
        reasoning_content: z.string().optional(),
        tool_calls: z.array(ChatToolCallDeltaSchema).min(1).optional(),
      }),
      logprobs: z.null(),
      finish_reason: FinishReason.nullable(),
    }),
  ),
  usage: ChatUsageSchema.optional(),
});

export const OpenAiErrorBodySchema = z.strictObject({
  error: z.strictObject({
    message: z.string().min(1),
    type: z.string().min(1),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});

// ---- Responses -------------------------------------------------------------------------------------------------

const ItemStatus = z.enum(["in_progress", "completed", "incomplete"]);
const OutputTextPart = z.strictObject({
  type: z.literal("output_text"),
  text: z.string(),
  annotations: z.array(z.unknown()),
  logprobs: z.array(z.unknown()),
});
const SummaryText = z.strictObject({ type: z.literal("summary_text"), text: z.string() });

export const OutputItemSchema = z.discriminatedUnion("type", [
  z.strictObject({
    id: z.string().startsWith("msg"),
    type: z.literal("message"),
    status: ItemStatus,
    role: z.literal("assistant"),
    content: z.array(OutputTextPart),
  }),
  z.strictObject({
    id: z.string().startsWith("fc"),
    type: z.literal("function_call"),
    status: ItemStatus,
    call_id: z.string().min(1),
    namespace: z.string().min(1).optional(),
    name: z.string().min(1),
    arguments: z.string(),
  }),
  z.strictObject({
    id: z.string().startsWith("ctc"),
    type: z.literal("custom_tool_call"),
    status: ItemStatus,
    call_id: z.string().min(1),
    namespace: z.string().min(1).optional(),
    name: z.string().min(1),
    input: z.string(),
  }),
  z.strictObject({
    id: z.string().startsWith("rs"),
    type: z.literal("reasoning"),
    status: ItemStatus,
    summary: z.array(SummaryText),
  }),
]);

export const ResponseUsageSchema = z.strictObject({
  input_tokens: NonNegInt,
  input_tokens_details: z.strictObject({ cached_tokens: NonNegInt, cache_write_tokens: NonNegInt }),
  output_tokens: NonNegInt,
  output_tokens_details: z.strictObject({ reasoning_tokens: NonNegInt }),
  total_tokens: NonNegInt,
});

const TextFormat = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text") }),
  z.strictObject({ type: z.literal("json_object") }),
  z.strictObject({
    type: z.literal("json_schema"),
    name: z.string(),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullable(),
    description: z.string().optional(),
  }),
]);

const FunctionToolSchema = z.strictObject({
  type: z.literal("function"),
  name: z.string(),
  description: z.string().nullable(),
  parameters: z.record(z.string(), z.unknown()),
  strict: z.boolean().nullable(),
});
const CustomToolSchema = z.strictObject({
  type: z.literal("custom"),
  name: z.string(),
  description: z.string().optional(),
  format: z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("text") }),
    z.strictObject({ type: z.literal("grammar"), syntax: z.enum(["lark", "regex"]), definition: z.string() }),
  ]),
});
/** OpenAPI `WebSearchTool` / `WebSearchPreviewTool` (plus Codex's `external_web_access`), echoed as the client sent it. */
const UserLocation = z
  .strictObject({
    type: z.literal("approximate"),
    city: z.string().nullish(),
    country: z.string().nullish(),
    region: z.string().nullish(),
    timezone: z.string().nullish(),
  })
  .nullish();
const WebSearchToolSchema = z.strictObject({
  type: z.enum(["web_search", "web_search_2025_08_26", "web_search_preview", "web_search_preview_2025_03_11"]),
  filters: z.strictObject({ allowed_domains: z.array(z.string()).nullish() }).nullish(),
  search_context_size: z.enum(["low", "medium", "high"]).optional(),
  user_location: UserLocation,
  external_web_access: z.boolean().optional(),
});
const ToolSchema = z.discriminatedUnion("type", [
  FunctionToolSchema,
  CustomToolSchema,
  WebSearchToolSchema,
  z.strictObject({
    type: z.literal("namespace"),
    name: z.string().min(1),
    description: z.string(),
    tools: z.array(z.discriminatedUnion("type", [FunctionToolSchema, CustomToolSchema])).min(1),
  }),
]);

export const ResponseObjectSchema = z.strictObject({
  id: z.string().min(1),
  object: z.literal("response"),
  created_at: NonNegInt,
  status: z.enum(["in_progress", "completed", "incomplete", "failed"]),
  background: z.literal(false),
  error: z.strictObject({ code: z.string().min(1), message: z.string().min(1) }).nullable(),
  incomplete_details: z.strictObject({ reason: z.enum(["max_output_tokens", "content_filter"]) }).nullable(),
  instructions: z.string().nullable(),
  max_output_tokens: z.int().nullable(),
  max_tool_calls: z.null(),
  model: z.string().min(1),
  output: z.array(OutputItemSchema),
  parallel_tool_calls: z.boolean(),
  previous_response_id: z.string().nullable(),
  prompt_cache_key: z.string().nullable(),
  reasoning: z.strictObject({ effort: z.string().nullable(), summary: z.string().nullable() }),
  service_tier: z.string(),
  store: z.boolean(),
  temperature: z.number().nullable(),
  text: z.strictObject({ format: TextFormat }),
  tool_choice: z.union([
    z.enum(["auto", "none", "required"]),
    z.strictObject({ type: z.enum(["function", "custom"]), name: z.string() }),
  ]),
  tools: z.array(ToolSchema),
  top_logprobs: z.int(),
  top_p: z.number().nullable(),
  truncation: z.literal("disabled"),
  usage: ResponseUsageSchema.nullable(),
  user: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
});

const Seq = { sequence_number: NonNegInt };
const ItemRef = { item_id: z.string().min(1), output_index: NonNegInt };

/** Every event the encoder may emit (strict per type). */
export const ResponseStreamEventSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("response.created"), ...Seq, response: ResponseObjectSchema }),
  z.strictObject({ type: z.literal("response.in_progress"), ...Seq, response: ResponseObjectSchema }),
  z.strictObject({ type: z.literal("response.completed"), ...Seq, response: ResponseObjectSchema }),
  z.strictObject({ type: z.literal("response.incomplete"), ...Seq, response: ResponseObjectSchema }),
  z.strictObject({ type: z.literal("response.failed"), ...Seq, response: ResponseObjectSchema }),
  z.strictObject({
    type: z.literal("response.output_item.added"),
    ...Seq,
    output_index: NonNegInt,
    item: OutputItemSchema,
  }),
  z.strictObject({
    type: z.literal("response.output_item.done"),
    ...Seq,
    output_index: NonNegInt,
    item: OutputItemSchema,
  }),
  z.strictObject({
    type: z.literal("response.content_part.added"),
    ...Seq,
    ...ItemRef,
    content_index: NonNegInt,
    part: OutputTextPart,
  }),
  z.strictObject({
    type: z.literal("response.content_part.done"),
    ...Seq,
    ...ItemRef,
    content_index: NonNegInt,
    part: OutputTextPart,
  }),
  z.strictObject({
    type: z.literal("response.output_text.delta"),
    ...Seq,
    ...ItemRef,
    content_index: NonNegInt,
    delta: z.string(),
    logprobs: z.array(z.unknown()),
  }),
  z.strictObject({
    type: z.literal("response.output_text.done"),
    ...Seq,
    ...ItemRef,
    content_index: NonNegInt,
    text: z.string(),
    logprobs: z.array(z.unknown()),
  }),
  z.strictObject({ type: z.literal("response.function_call_arguments.delta"), ...Seq, ...ItemRef, delta: z.string() }),
  z.strictObject({
    type: z.literal("response.function_call_arguments.done"),
    ...Seq,
    ...ItemRef,
    name: z.string(),
    arguments: z.string(),
  }),
  z.strictObject({ type: z.literal("response.custom_tool_call_input.delta"), ...Seq, ...ItemRef, delta: z.string() }),
  z.strictObject({ type: z.literal("response.custom_tool_call_input.done"), ...Seq, ...ItemRef, input: z.string() }),
  z.strictObject({
    type: z.literal("response.reasoning_summary_part.added"),
    ...Seq,
    ...ItemRef,
    summary_index: NonNegInt,
    part: SummaryText,
  }),
  z.strictObject({
    type: z.literal("response.reasoning_summary_part.done"),
    ...Seq,
    ...ItemRef,
    summary_index: NonNegInt,
    part: SummaryText,
  }),
  z.strictObject({
    type: z.literal("response.reasoning_summary_text.delta"),
    ...Seq,
    ...ItemRef,
    summary_index: NonNegInt,
    delta: z.string(),
  }),
  z.strictObject({
    type: z.literal("response.reasoning_summary_text.done"),
    ...Seq,
    ...ItemRef,
    summary_index: NonNegInt,
    text: z.string(),
  }),
]);
export type ResponseStreamEventWire = z.output<typeof ResponseStreamEventSchema>;

// ---- Models ----------------------------------------------------------------------------------------------------

export const ModelSchema = z.strictObject({
  id: z.string().min(1),
  object: z.literal("model"),
  created: NonNegInt,
  owned_by: z.string(),
});
export const ModelListSchema = z.strictObject({ object: z.literal("list"), data: z.array(ModelSchema) });
