// Chat Completions request → NeutralRequest (OpenAI API reference, "Create chat completion").
// Pure: validates and maps; refuses what Patchbay cannot honour with a 400 naming the field. No I/O, no policy.
import type { z } from "zod";
import type {
  ContentPart,
  GenerationParams,
  NeutralMessage,
  NeutralRequest,
  PatchbayWarning,
  ResponseFormat,
  ToolCall,
  ToolChoice,
  ToolDefinition,
} from "../../core/contract";
import { quoteClientText as q } from "../../core/client-text";
import { PatchbayError, invalidRequest, unsupportedParameter } from "../../core/errors";
import { assertJsonDepth, assertJsonTextDepth } from "../../core/json-depth";
import { decodeFileData, decodeImageUrl } from "../../core/media";
import { warn } from "../../core/warnings";
import { isJsonObject, parseWire } from "../../core/wire-parse";
import { hoistWarning, joinTexts } from "../openai/text";
import {
  decodeToolChoiceKeyword,
  normaliseArguments,
  refuseEmptyUserContent,
  uniqueToolNames,
} from "../../core/tool-helpers";
import {
  ChatFunctionDefinition,
  ChatRequestSchema,
  type ChatAssistantContentPart,
  type ChatMessage,
  type ChatRequest,
  type ChatTextContentPart,
  type ChatUserContentPart,
} from "./request-schema";

type TextContent = string | z.output<typeof ChatTextContentPart>[];

function joinText(content: TextContent): string {
  return typeof content === "string" ? content : joinTexts(content.map((part) => part.text));
}

/** A user message's parts; empty text parts are dropped (as for assistants) and nothing left is a 400. */
function decodeUserContent(content: string | z.output<typeof ChatUserContentPart>[], param: string): ContentPart[] {
  const parts: ContentPart[] =
    typeof content === "string"
      ? [{ type: "text", text: content }]
      : content.map((part, j) => decodeUserPart(part, `${param}[${j}]`));
  return refuseEmptyUserContent(parts, param);
}

function decodeUserPart(part: z.output<typeof ChatUserContentPart>, at: string): ContentPart {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image_url": {
      const url = typeof part.image_url === "string" ? part.image_url : part.image_url.url;
      return decodeImageUrl(url, typeof part.image_url === "string" ? `${at}.image_url` : `${at}.image_url.url`);
    }
    case "input_audio":
      throw new PatchbayError(
        "unsupported_value",
        `Audio input ('${at}', type 'input_audio') is not supported by Patchbay: transcribe it and send text instead.`,
        { param: `${at}.type` },
      );
    case "file": {
      if (part.file.file_data)
        return decodeFileData(part.file.file_data, part.file.filename ?? undefined, `${at}.file.file_data`);
      if (part.file.file_id) {
        throw unsupportedParameter(
          `${at}.file.file_id`,
          `File ids need OpenAI's Files API, which Patchbay does not have: send the file inline in '${at}.file.file_data' as a base64 data URL.`,
        );
      }
      throw invalidRequest(`Missing required parameter: '${at}.file.file_data'.`, `${at}.file.file_data`);
    }
  }
}

function decodeAssistantContent(
  content: string | z.output<typeof ChatAssistantContentPart>[] | null | undefined,
  refusal: string | null | undefined,
): ContentPart[] {
  const parts: ContentPart[] = [];
  // Empty text is dropped: clients send `content: ""` with tool calls, and upstreams reject empty text blocks.
  if (typeof content === "string") {
    if (content !== "") parts.push({ type: "text", text: content });
  } else if (content) {
    for (const part of content) {
      const text = part.type === "text" ? part.text : part.refusal;
      if (text !== "") parts.push({ type: "text", text });
    }
  }
  if (refusal) parts.push({ type: "text", text: refusal });
  return parts;
}

function decodeToolCalls(message: Extract<ChatMessage, { role: "assistant" }>, at: string): ToolCall[] {
  return (message.tool_calls ?? []).map((call, j) => {
    const args = call.function.arguments;
    const param = `${at}.tool_calls[${j}].function.arguments`;
    if (typeof args === "string") assertJsonTextDepth(args, param);
    else if (typeof args === "object" && args !== null) assertJsonDepth(args, param);
    return { id: call.id, name: call.function.name, arguments: normaliseArguments(args) };
  });
}

interface DecodedMessages {
  system: string[];
  messages: NeutralMessage[];
  warnings: PatchbayWarning[];
}

function decodeMessages(wire: ChatMessage[]): DecodedMessages {
  const system: string[] = [];
  const messages: NeutralMessage[] = [];
  const hoisted: string[] = [];
  const callIds = new Set<string>();
  wire.forEach((message, i) => {
    const at = `messages[${i}]`;
    switch (message.role) {
      case "system":
      case "developer":
        if (messages.length > 0) hoisted.push(at);
        system.push(joinText(message.content));
        return;
      case "user":
        messages.push({ role: "user", content: decodeUserContent(message.content, `${at}.content`) });
        return;
      case "assistant": {
        if (message.function_call !== undefined && message.function_call !== null) {
          throw unsupportedParameter(
            `${at}.function_call`,
            `The legacy '${at}.function_call' is not supported: send 'tool_calls' (type 'function') instead.`,
          );
        }
        const toolCalls = decodeToolCalls(message, at);
        toolCalls.forEach((call, j) => {
          if (callIds.has(call.id))
            throw invalidRequest(
              `Invalid '${at}.tool_calls[${j}].id': ${q(call.id)} is the id of an earlier tool call; tool call ids must be unique.`,
              `${at}.tool_calls[${j}].id`,
            );
          callIds.add(call.id);
        });
        messages.push({
          role: "assistant",
          content: decodeAssistantContent(message.content, message.refusal),
          toolCalls,
        });
        return;
      }
      case "tool":
        if (!callIds.has(message.tool_call_id)) {
          throw invalidRequest(
            `Invalid '${at}.tool_call_id': ${q(message.tool_call_id)} does not answer any tool call of an earlier assistant message.`,
            `${at}.tool_call_id`,
          );
        }
        messages.push({ role: "tool", toolCallId: message.tool_call_id, content: joinText(message.content) });
        return;
      case "function":
        throw new PatchbayError(
          "unsupported_value",
          `The legacy 'function' role ('${at}.role') is not supported: send tool results as role 'tool' with 'tool_call_id'.`,
          { param: `${at}.role` },
        );
    }
  });
  return { system, messages, warnings: hoisted.length === 0 ? [] : [hoistWarning("messages", hoisted)] };
}

function decodeTools(req: ChatRequest): ToolDefinition[] {
  const tools = (req.tools ?? []).map((tool, i): ToolDefinition => {
    if (tool.type !== "function") {
      throw new PatchbayError(
        "unsupported_value",
        `Tool type ${q(tool.type)} ('tools[${i}].type') is not supported: Patchbay accepts only 'function' tools.`,
        { param: `tools[${i}].type` },
      );
    }
    const fn = parseWire(ChatFunctionDefinition, tool.function, ["tools", i, "function"]);
    if (fn.parameters) assertJsonDepth(fn.parameters, `tools[${i}].function.parameters`);
    return {
      name: fn.name,
      ...(fn.description == null ? {} : { description: fn.description }),
      parameters: fn.parameters ?? { type: "object", properties: {} },
      ...(fn.strict == null ? {} : { strict: fn.strict }),
    };
  });
  uniqueToolNames(tools, (i) => `tools[${i}].function.name`);
  return tools;
}

function decodeToolChoice(req: ChatRequest, tools: ToolDefinition[]): ToolChoice {
  const choice = req.tool_choice;
  const keyword = decodeToolChoiceKeyword(choice, tools);
  if (keyword) return keyword;
  if (choice == null || typeof choice === "string") return "auto"; // unreachable: keywords handled above
  if (choice.type !== "function" || !choice.function) {
    throw new PatchbayError(
      "unsupported_value",
      `Invalid 'tool_choice': type ${q(choice.type)} is not supported; use 'auto', 'none', 'required' or {type: 'function', function: {name}}.`,
      { param: "tool_choice" },
    );
  }
  const name = choice.function.name;
  if (!tools.some((tool) => tool.name === name)) {
    throw invalidRequest(`Invalid 'tool_choice': function ${q(name)} is not in 'tools'.`, "tool_choice");
  }
  return { type: "function", name };
}

function decodeResponseFormat(req: ChatRequest): ResponseFormat {
  const format = req.response_format;
  if (!format || format.type === "text") return { type: "text" };
  if (format.type === "json_object") return { type: "json_object" };
  const spec = format.json_schema;
  assertJsonDepth(spec.schema, "response_format.json_schema.schema");
  return {
    type: "json_schema",
    name: spec.name,
    schema: spec.schema,
    ...(spec.strict == null ? {} : { strict: spec.strict }),
    ...(spec.description == null ? {} : { description: spec.description }),
  };
}

/** `stop` as a list; "" and [] mean "no stop sequence" (empty entries are dropped). */
function decodeStop(stop: string | string[] | null | undefined): string[] | undefined {
  const list = (typeof stop === "string" ? [stop] : (stop ?? [])).filter((s) => s !== "");
  return list.length === 0 ? undefined : list;
}

function decodeGeneration(req: ChatRequest): GenerationParams {
  const generation: GenerationParams = {};
  if (req.temperature != null) generation.temperature = req.temperature;
  if (req.top_p != null) generation.topP = req.top_p;
  // Both are accepted; `max_completion_tokens` is the current name and wins.
  const maxTokens = req.max_completion_tokens ?? req.max_tokens;
  if (maxTokens != null) generation.maxOutputTokens = maxTokens;
  const stop = decodeStop(req.stop);
  if (stop) generation.stop = stop;
  if (req.seed != null) generation.seed = req.seed;
  if (req.presence_penalty != null) generation.presencePenalty = req.presence_penalty;
  if (req.frequency_penalty != null) generation.frequencyPenalty = req.frequency_penalty;
  if (req.reasoning_effort != null) generation.reasoningEffort = req.reasoning_effort;
  if (req.parallel_tool_calls != null) generation.parallelToolCalls = req.parallel_tool_calls;
  return generation;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Refuses parameters Patchbay cannot honour, with what to do instead; returns notes for dropped ones. */
function refuseUnsupported(req: ChatRequest): PatchbayWarning[] {
  if (present(req.functions)) {
    throw unsupportedParameter(
      "functions",
      "The legacy 'functions' parameter is not supported: send 'tools' with type 'function' instead.",
    );
  }
  if (present(req.function_call)) {
    throw unsupportedParameter(
      "function_call",
      "The legacy 'function_call' parameter is not supported: use 'tool_choice' instead.",
    );
  }
  if (req.n != null && req.n > 1) {
    throw new PatchbayError(
      "unsupported_value",
      `'n' = ${req.n} is not supported: Patchbay returns exactly one choice per request; send ${req.n} requests instead.`,
      { param: "n" },
    );
  }
  if (req.logprobs === true) {
    throw unsupportedParameter(
      "logprobs",
      "'logprobs' is not supported: the models behind Patchbay do not report token log probabilities.",
    );
  }
  if (req.top_logprobs != null && req.top_logprobs > 0) {
    throw unsupportedParameter(
      "top_logprobs",
      "'top_logprobs' is not supported: the models behind Patchbay do not report token log probabilities.",
    );
  }
  if (present(req.audio) || (req.modalities ?? []).some((m) => m !== "text")) {
    throw unsupportedParameter(
      req.modalities ? "modalities" : "audio",
      "Audio output is not supported by Patchbay: request text only.",
    );
  }
  if (present(req.web_search_options)) {
    throw unsupportedParameter(
      "web_search_options",
      "Hosted web search is not available through Patchbay: offer a search function in 'tools' instead.",
    );
  }
  const notes: PatchbayWarning[] = [];
  if (req.logit_bias && Object.keys(req.logit_bias).length > 0) notes.push(warn.ignored("logit_bias"));
  if (present(req.prediction)) notes.push(warn.ignored("prediction"));
  return notes;
}

/**
 * Decodes a Chat Completions request body into the neutral request.
 * - Unknown fields (top level and per message) are ignored; `null` means "not set" for every optional field.
 * - system/developer messages become `system` texts (text parts joined with `TEXT_PART_SEPARATOR` from ../text); one after
 *   the conversation started is hoisted into `system` and noted in `warnings`.
 * - Image URLs: base64 `data:image/...` or http(s) (`detail` is dropped); files: `file.file_data` only.
 * - Assistant `content: ""`/null is dropped; tool-call `arguments` "" becomes "{}". Empty text parts of user messages are
 *   dropped; a user message left with nothing → 400 `messages[i].content`.
 * - Tool `parameters`, `response_format.json_schema.schema` and object-valued tool-call `arguments` nested deeper than
 *   MAX_CLIENT_JSON_DEPTH (core/json-depth) → 400 naming the field.
 * @throws PatchbayError 400 (`invalid_request_error`, `unsupported_parameter` or `unsupported_value`) whose `param`
 *   names the field, e.g. `messages[2].content`, `tool_choice`, `n`.
 */
export function decodeChatRequest(body: unknown): NeutralRequest {
  if (!isJsonObject(body)) throw invalidRequest("The request body must be a JSON object.", null);
  const req = parseWire(ChatRequestSchema, body);
  const notes = refuseUnsupported(req);
  if (req.messages.length === 0)
    throw invalidRequest("Invalid 'messages': must contain at least one message.", "messages");
  const { system, messages, warnings } = decodeMessages(req.messages);
  if (messages.length === 0) {
    throw invalidRequest(
      "Invalid 'messages': there is no user, assistant or tool message, only system/developer ones.",
      "messages",
    );
  }
  const tools = decodeTools(req);
  const stream = req.stream === true;
  const promptCacheKey = req.prompt_cache_key ?? req.user ?? undefined;
  return {
    model: req.model,
    system,
    messages,
    tools,
    toolChoice: decodeToolChoice(req, tools),
    generation: decodeGeneration(req),
    responseFormat: decodeResponseFormat(req),
    stream,
    includeUsage: stream && req.stream_options?.include_usage === true,
    ...(promptCacheKey ? { promptCacheKey } : {}),
    warnings: [...warnings, ...notes],
  };
}
