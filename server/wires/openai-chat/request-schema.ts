// zod schema of the OpenAI Chat Completions request (OpenAI API reference, "Create chat completion").
// Shapes only; unknown fields are tolerated (zod strips them). Meaning and refusals live in decode.ts.
import { z } from "zod";
import {
  FunctionName,
  JsonSchemaObject,
  Penalty,
  SchemaName,
  Temperature,
  TokenLimit,
  TopP,
  integerAtLeast,
  numberBetween,
} from "../openai/common-schema";

const TextPart = z.object({ type: z.literal("text"), text: z.string() });
const RefusalPart = z.object({ type: z.literal("refusal"), refusal: z.string() });
const ImageUrlPart = z.object({
  type: z.literal("image_url"),
  // The reference says an object `{url, detail}`; a bare string is tolerated. `detail` is dropped.
  image_url: z.union([z.string(), z.object({ url: z.string(), detail: z.string().nullish() })], {
    error: "expected an object {url, detail?}",
  }),
});
/** Recognised so it can be refused with a clear message. */
const InputAudioPart = z.object({ type: z.literal("input_audio"), input_audio: z.unknown() });
const FilePart = z.object({
  type: z.literal("file"),
  file: z.object({
    file_data: z.string().nullish(),
    file_id: z.string().nullish(),
    filename: z.string().nullish(),
  }),
});

/** Parts of a user message. */
export const ChatUserContentPart = z.discriminatedUnion("type", [TextPart, ImageUrlPart, InputAudioPart, FilePart]);
/** Parts of an assistant message. */
export const ChatAssistantContentPart = z.discriminatedUnion("type", [TextPart, RefusalPart]);
/** Parts of system, developer and tool messages: text only. */
export const ChatTextContentPart = z.discriminatedUnion("type", [TextPart]);

const TextContent = z.union([z.string(), z.array(ChatTextContentPart)], {
  error: "expected a string or an array of text parts",
});

/** A tool call in assistant history. `arguments` may be "" (clients send that for no-argument calls). */
export const ChatToolCallSchema = z.object({
  id: z.string().min(1, { error: "must be a non-empty string" }),
  type: z.literal("function", { error: "only 'function' tool calls are supported" }).optional(),
  function: z.object({
    name: z.string().min(1, { error: "must be a non-empty string" }),
    // A string per the reference; a JSON object or null is tolerated and normalised.
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  }),
});

const SystemMessage = z.object({ role: z.literal("system"), content: TextContent });
const DeveloperMessage = z.object({ role: z.literal("developer"), content: TextContent });
const UserMessage = z.object({
  role: z.literal("user"),
  content: z.union([z.string(), z.array(ChatUserContentPart)], {
    error: "expected a string or an array of content parts",
  }),
});
const AssistantMessage = z.object({
  role: z.literal("assistant"),
  content: z
    .union([z.string(), z.array(ChatAssistantContentPart)], {
      error: "expected a string, null or an array of text parts",
    })
    .nullish(),
  refusal: z.string().nullish(),
  tool_calls: z.array(ChatToolCallSchema).nullish(),
  /** Legacy; refused in decode.ts. */
  function_call: z.unknown().optional(),
});
const ToolMessage = z.object({
  role: z.literal("tool"),
  tool_call_id: z.string().min(1, { error: "must be a non-empty string" }),
  content: TextContent,
});
/** Legacy `function` role: recognised so it can be refused with a clear message. */
const FunctionMessage = z.object({ role: z.literal("function") });

/** One message of `messages`, by role. */
export const ChatMessageSchema = z.discriminatedUnion("role", [
  SystemMessage,
  DeveloperMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  FunctionMessage,
]);

/** A function definition of `tools[i].function`. */
export const ChatFunctionDefinition = z.object({
  name: FunctionName,
  description: z.string().nullish(),
  parameters: JsonSchemaObject.nullish(),
  strict: z.boolean().nullish(),
});

/** An entry of `tools`; only `type: "function"` is accepted (checked in decode.ts so the message can say why). */
export const ChatToolSchema = z.object({ type: z.string(), function: z.unknown().optional() });

/** `tool_choice`: a mode string or an object (only `{type:"function", function:{name}}` is accepted, in decode.ts). */
export const ChatToolChoiceSchema = z.union(
  [
    z.enum(["auto", "none", "required"]),
    z.object({ type: z.string(), function: z.object({ name: z.string() }).optional() }),
  ],
  { error: "expected 'auto', 'none', 'required' or {type: 'function', function: {name}}" },
);

/** `response_format`. */
export const ChatResponseFormatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    json_schema: z.object({
      name: SchemaName,
      description: z.string().nullish(),
      schema: JsonSchemaObject,
      strict: z.boolean().nullish(),
    }),
  }),
]);

/** The Chat Completions request body. Every optional field also accepts `null` (meaning "not set"). */
export const ChatRequestSchema = z.object({
  model: z.string({ error: "must be a string" }).min(1, { error: "must be a non-empty model id" }),
  messages: z.array(ChatMessageSchema, { error: "must be an array of messages" }),
  tools: z.array(ChatToolSchema, { error: "must be an array of tools" }).nullish(),
  tool_choice: ChatToolChoiceSchema.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  response_format: ChatResponseFormatSchema.nullish(),
  temperature: Temperature.nullish(),
  top_p: TopP.nullish(),
  max_tokens: TokenLimit.nullish(),
  max_completion_tokens: TokenLimit.nullish(),
  stop: z
    .union([z.string(), z.array(z.string()).max(4, { error: "must have at most 4 stop sequences" })], {
      error: "expected a string or an array of at most 4 strings",
    })
    .nullish(),
  seed: z.int({ error: "must be an integer" }).nullish(),
  presence_penalty: Penalty.nullish(),
  frequency_penalty: Penalty.nullish(),
  reasoning_effort: z.string().min(1).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  prompt_cache_key: z.string().nullish(),
  user: z.string().nullish(),
  n: integerAtLeast(1).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: numberBetween(0, 20).nullish(),
  modalities: z.array(z.string()).nullish(),
  logit_bias: z.record(z.string(), z.unknown()).nullish(),
  // Recognised so they can be refused or reported; their shapes do not matter here.
  audio: z.unknown().optional(),
  functions: z.unknown().optional(),
  function_call: z.unknown().optional(),
  prediction: z.unknown().optional(),
  web_search_options: z.unknown().optional(),
});

/** The parsed Chat Completions request. */
export type ChatRequest = z.output<typeof ChatRequestSchema>;
/** One parsed message. */
export type ChatMessage = z.output<typeof ChatMessageSchema>;
