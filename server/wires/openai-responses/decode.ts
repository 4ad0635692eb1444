// Responses request → NeutralRequest + the fields the response echoes (stateless subset; OpenAI API reference,
// "Create a model response"). Pure: validates and maps; refuses stateful or hosted features with a 400 naming the
// field and saying what to do instead. No I/O, no policy.
import type {
  ContentPart,
  GenerationParams,
  NeutralMessage,
  NeutralRequest,
  PatchbayWarning,
  ResponseFormat,
  ToolCall,
} from "../../core/contract";
import { quoteClientText as q } from "../../core/client-text";
import { PatchbayError, invalidRequest, unsupportedParameter } from "../../core/errors";
import { assertJsonDepth, assertJsonTextDepth } from "../../core/json-depth";
import { agentMessageText, compactionWarning } from "../../core/codex-items";
import { ToolResultMedia, toolResultMediaMoved } from "../../core/tool-result-media";
import { decodeFileData, decodeImageUrl } from "../../core/media";
import { hoistWarning, joinTexts } from "../openai/text";
import { normaliseArguments, refuseEmptyUserContent } from "../../core/tool-helpers";
import { warn } from "../../core/warnings";
import { isJsonObject, parseWire } from "../../core/wire-parse";
import {
  KNOWN_ITEM_TYPES,
  ResponsesRequestSchema,
  type ResponsesItem,
  type ResponsesPart,
  type ResponsesRequest,
} from "./request-schema";
import { decodeResponsesToolChoice, decodeResponsesTools, flattenToolName, type ToolNameMap } from "./tools";
import type { ResponseEcho, ResponseTextFormatOut } from "./wire-types";
import { pushAssistantText, webSearchCallText } from "./web-search-history";

/** What {@link decodeResponsesRequest} returns: the neutral request, the fields the response object repeats, and the
 *  map from the flat tool names the model sees back to the client's tools (namespace members, custom tools). */
export interface DecodedResponsesRequest {
  request: NeutralRequest;
  echo: ResponseEcho;
  toolNames: ToolNameMap;
}

// The decoder itself is stateless: the Responses route expands previous_response_id and item references first
// (server/responses-store/expand-input.ts, which also takes `previous_response_id` out of the body), so the decoder
// never sees a previous response; the refusals below are for what Patchbay does not keep at all.
const STATELESS = "Send the whole conversation in 'input', or continue a stored response with 'previous_response_id'.";
const AI_SDK_HINT =
  "Vercel AI SDK users: pass providerOptions: { openai: { store: false } } so the SDK sends full items instead of references.";

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Refusals that must name a field before the body is parsed (so stored-item references and unknown item types get their own message). */
function refuseStateful(body: Record<string, unknown>): void {
  if (present(body.conversation))
    throw unsupportedParameter("conversation", `'conversation' is not supported. ${STATELESS}`);
  if (body.background === true) {
    throw unsupportedParameter(
      "background",
      "'background: true' is not supported: Patchbay runs responses in the foreground; omit 'background' or stream instead.",
    );
  }
  if (present(body.prompt)) {
    throw unsupportedParameter(
      "prompt",
      "Stored prompts ('prompt') are not supported: send the prompt text in 'instructions' and 'input' instead.",
    );
  }
  if (body.truncation === "auto") {
    throw unsupportedParameter(
      "truncation",
      "'truncation: auto' is not supported: use 'disabled' (the default) and shorten 'input' yourself.",
    );
  }
  if (typeof body.top_logprobs === "number" && body.top_logprobs > 0) {
    throw unsupportedParameter(
      "top_logprobs",
      "'top_logprobs' is not supported: the models behind Patchbay do not report token log probabilities.",
    );
  }
  if (Array.isArray(body.include)) {
    const i = body.include.indexOf("message.output_text.logprobs");
    if (i >= 0) {
      throw unsupportedParameter(
        `include[${i}]`,
        "'message.output_text.logprobs' is not supported: the models behind Patchbay do not report token log probabilities.",
      );
    }
  }
  if (Array.isArray(body.input)) {
    body.input.forEach((item, i) => {
      if (!isJsonObject(item)) return;
      const type = item.type;
      if (type === "item_reference") {
        throw unsupportedParameter(
          `input[${i}]`,
          `'input[${i}]' is an item_reference, but Patchbay stores no items. ${STATELESS} ${AI_SDK_HINT}`,
        );
      }
      if (typeof type === "string" && !(KNOWN_ITEM_TYPES as readonly string[]).includes(type)) {
        throw new PatchbayError(
          "unsupported_value",
          `Input item type ${q(type)} ('input[${i}].type') is not supported: Patchbay accepts message, function_call, function_call_output, custom_tool_call, custom_tool_call_output, reasoning, agent_message and compaction items (hosted tools are not available).`,
          { param: `input[${i}].type` },
        );
      }
      // A message without content but with an id is how stored items are referenced too.
      if (type === undefined && "id" in item && !("role" in item)) {
        throw unsupportedParameter(
          `input[${i}]`,
          `'input[${i}]' refers to a stored item by id, but Patchbay stores no items. ${STATELESS} ${AI_SDK_HINT}`,
        );
      }
    });
  }
}

function textOf(part: ResponsesPart, param: string, allowed: string): string {
  if (part.type === "input_text" || part.type === "output_text") return part.text;
  if (part.type === "refusal") return part.refusal;
  throw invalidRequest(`Invalid '${param}.type': ${q(part.type)} is not allowed here; ${allowed}.`, `${param}.type`);
}

function decodePart(part: ResponsesPart, param: string): ContentPart {
  switch (part.type) {
    case "input_text":
    case "output_text":
      return { type: "text", text: part.text };
    case "refusal":
      return { type: "text", text: part.refusal };
    case "input_image":
      if (part.image_url) return decodeImageUrl(part.image_url, `${param}.image_url`);
      if (part.file_id) {
        throw unsupportedParameter(
          `${param}.file_id`,
          `File ids need OpenAI's Files API, which Patchbay does not have: send the image in '${param}.image_url' as a base64 data URL or an http(s) URL.`,
        );
      }
      throw invalidRequest(`Missing required parameter: '${param}.image_url'.`, `${param}.image_url`);
    case "input_file":
      if (part.file_data) return decodeFileData(part.file_data, part.filename ?? undefined, `${param}.file_data`);
      if (part.file_id || part.file_url) {
        const field = part.file_id ? "file_id" : "file_url";
        throw unsupportedParameter(
          `${param}.${field}`,
          `'${field}' is not supported: send the file inline in '${param}.file_data' as a base64 data URL.`,
        );
      }
      throw invalidRequest(`Missing required parameter: '${param}.file_data'.`, `${param}.file_data`);
    case "input_audio":
      throw new PatchbayError(
        "unsupported_value",
        `Audio input ('${param}') is not supported by Patchbay: transcribe it and send text instead.`,
        {
          param: `${param}.type`,
        },
      );
  }
}

/** A tool result's texts. Images and files (e.g. Codex's `view_image` result) are moved out (see
 *  core/tool-result-media.ts) and leave a placeholder. */
function toolOutputTexts(content: string | ResponsesPart[], param: string, media: ToolResultMedia): string[] {
  if (typeof content === "string") return [content];
  return content.map((part, j) => {
    const at = `${param}[${j}]`;
    if (part.type === "input_image" || part.type === "input_file") return media.move(decodePart(part, at), at);
    return textOf(part, at, "tool results take text, images and files");
  });
}

function contentTexts(content: string | ResponsesPart[], param: string, allowed: string): string[] {
  return typeof content === "string" ? [content] : content.map((part, j) => textOf(part, `${param}[${j}]`, allowed));
}

interface DecodedInput {
  system: string[];
  messages: NeutralMessage[];
  warnings: PatchbayWarning[];
}

function decodeInput(input: string | ResponsesItem[], instructions: string | null | undefined): DecodedInput {
  const system: string[] = instructions ? [instructions] : [];
  if (typeof input === "string") {
    const content = refuseEmptyUserContent([{ type: "text", text: input }], "input");
    return { system, messages: [{ role: "user", content }], warnings: [] };
  }
  const messages: NeutralMessage[] = [];
  const hoisted: string[] = [];
  const media = new ToolResultMedia();
  const compacted: string[] = [];
  const callIds = new Set<string>();
  input.forEach((item, i) => {
    const at = `input[${i}]`;
    // Media moved out of a run of tool results follows that run.
    if (item.type !== "function_call_output" && item.type !== "custom_tool_call_output") media.flush(messages);
    const last = messages.at(-1);
    switch (item.type) {
      case "message":
        switch (item.role) {
          case "system":
          case "developer":
            if (messages.length > 0) hoisted.push(at);
            system.push(
              joinTexts(contentTexts(item.content, `${at}.content`, "system and developer messages take text only")),
            );
            return;
          case "user": {
            const parts: ContentPart[] =
              typeof item.content === "string"
                ? [{ type: "text", text: item.content }]
                : item.content.map((part, j) => decodePart(part, `${at}.content[${j}]`));
            messages.push({ role: "user", content: refuseEmptyUserContent(parts, `${at}.content`) });
            return;
          }
          case "assistant": {
            // Empty text is dropped, as on the chat wire (upstreams reject empty text blocks).
            const texts = contentTexts(
              item.content,
              `${at}.content`,
              "assistant messages take output_text and refusal parts",
            ).filter((t) => t !== "");
            const content = texts.map((text): ContentPart => ({ type: "text", text }));
            // Consecutive assistant text items (e.g. split by a dropped reasoning item) form one turn.
            if (last?.role === "assistant" && last.toolCalls.length === 0) last.content.push(...content);
            else messages.push({ role: "assistant", content, toolCalls: [] });
            return;
          }
        }
        return;
      case "function_call":
      case "custom_tool_call": {
        if (callIds.has(item.call_id))
          throw invalidRequest(
            `Invalid '${at}.call_id': ${q(item.call_id)} is the call_id of an earlier item; call ids must be unique.`,
            `${at}.call_id`,
          );
        if (item.type === "function_call" && typeof item.arguments === "string")
          assertJsonTextDepth(item.arguments, `${at}.arguments`);
        // Namespace members and custom tools reach the model as flat functions (see tools.ts), in history too.
        const call: ToolCall = {
          id: item.call_id,
          name: flattenToolName(item.namespace, item.name),
          arguments:
            item.type === "custom_tool_call"
              ? JSON.stringify({ input: item.input })
              : normaliseArguments(item.arguments),
        };
        callIds.add(call.id);
        // Adjacent calls, and an assistant message followed by calls, are one assistant turn.
        if (last?.role === "assistant") last.toolCalls.push(call);
        else messages.push({ role: "assistant", content: [], toolCalls: [call] });
        return;
      }
      case "function_call_output":
      case "custom_tool_call_output":
        if (!callIds.has(item.call_id)) {
          throw invalidRequest(
            `Invalid '${at}.call_id': ${q(item.call_id)} does not answer any earlier function_call or custom_tool_call item in 'input'.`,
            `${at}.call_id`,
          );
        }
        messages.push({
          role: "tool",
          toolCallId: item.call_id,
          content: joinTexts(toolOutputTexts(item.output, `${at}.output`, media)),
        });
        return;
      case "web_search_call": // already ran, not run again: its query and sources stay as assistant text
        pushAssistantText(messages, webSearchCallText(item));
        return;
      case "reasoning":
        // Reasoning items carry the model's earlier reasoning (often encrypted); they are not replayed.
        return;
      case "agent_message":
        messages.push({ role: "user", content: [{ type: "text", text: agentMessageText(item) }] });
        return;
      case "compaction":
        // OpenAI's server-side summary of earlier turns, encrypted for OpenAI only: nothing a model here can read.
        compacted.push(at);
        return;
      case "item_reference":
        // Refused before parsing; kept for exhaustiveness.
        throw unsupportedParameter(
          at,
          `'${at}' is an item_reference, but Patchbay stores no items. ${STATELESS} ${AI_SDK_HINT}`,
        );
    }
  });
  const warnings = hoisted.length === 0 ? [] : [hoistWarning("input", hoisted)];
  if (compacted.length > 0) warnings.push(compactionWarning(compacted));
  media.flush(messages);
  if (media.from.length > 0) warnings.push(toolResultMediaMoved("input[].output", media.from));
  return { system, messages, warnings };
}

function decodeFormat(req: ResponsesRequest): { format: ResponseFormat; echo: ResponseTextFormatOut } {
  const format = req.text?.format;
  if (!format || format.type === "text") return { format: { type: "text" }, echo: { type: "text" } };
  if (format.type === "json_object") return { format: { type: "json_object" }, echo: { type: "json_object" } };
  assertJsonDepth(format.schema, "text.format.schema");
  const description = format.description == null ? {} : { description: format.description };
  return {
    format: {
      type: "json_schema",
      name: format.name,
      schema: format.schema,
      ...(format.strict == null ? {} : { strict: format.strict }),
      ...description,
    },
    echo: {
      type: "json_schema",
      name: format.name,
      schema: format.schema,
      strict: format.strict ?? null,
      ...description,
    },
  };
}

function decodeGeneration(req: ResponsesRequest): GenerationParams {
  const generation: GenerationParams = {};
  if (req.temperature != null) generation.temperature = req.temperature;
  if (req.top_p != null) generation.topP = req.top_p;
  if (req.max_output_tokens != null) generation.maxOutputTokens = req.max_output_tokens;
  if (req.reasoning?.effort != null) generation.reasoningEffort = req.reasoning.effort;
  if (req.parallel_tool_calls != null) generation.parallelToolCalls = req.parallel_tool_calls;
  return generation;
}

function notesOf(req: ResponsesRequest): PatchbayWarning[] {
  const notes: PatchbayWarning[] = [];
  if (req.text?.verbosity != null) notes.push(warn.ignored("text.verbosity"));
  if (req.max_tool_calls != null) notes.push(warn.ignored("max_tool_calls"));
  if (req.include?.includes("reasoning.encrypted_content"))
    notes.push(warn.unsupported("include", "reasoning.encrypted_content not available"));
  return notes;
}

/**
 * Decodes a Responses request body (stateless subset).
 * - `input`: a string (one user message) or items: `message` (system/developer → `system`, hoisted with a warning when
 *   after the conversation started; user parts input_text/input_image/input_file(file_data); assistant output_text/
 *   refusal), `function_call` (with `namespace` → the flat name `<namespace>__<name>`) and `custom_tool_call` (→ a call
 *   with arguments `{"input": …}`); adjacent calls, and an assistant message followed by them, form one assistant turn;
 *   `function_call_output` / `custom_tool_call_output` (must answer an earlier call), `reasoning` (dropped, with or
 *   without `encrypted_content`). Item `id` and `status` fields are accepted and ignored. `instructions` is the first
 *   system text.
 * - `tools` / `tool_choice`: see tools.ts (namespace and custom tools become functions; hosted tools are dropped with a
 *   warning, and only a `tool_choice` that forces one is refused).
 * - `includeUsage` is true when streaming (Responses streams always report usage).
 * - Accepted and not forwarded: `store: false`, `client_metadata`, `include: ["reasoning.encrypted_content"]` (noted in
 *   the warnings), `reasoning.summary` (decides whether reasoning is streamed as summary text).
 * - Refused with 400 `unsupported_parameter` naming the field and what to do instead: conversation, item_reference, background: true, prompt, a `tool_choice` forcing a hosted tool, truncation: auto,
 *   top_logprobs > 0, include message.output_text.logprobs. `input: []` → 400 `input`; an unknown item type → 400
 *   `input[i].type`; an unknown tool type → 400 `tools[i].type`.
 * - Empty user content (`input: ""`, a user item whose parts are all empty text) → 400 `input` / `input[i].content`;
 *   `tools[i].parameters` and `text.format.schema` nested deeper than MAX_CLIENT_JSON_DEPTH → 400 naming the field.
 * @throws PatchbayError 400 whose `param` names the field, e.g. `input[3].call_id`.
 */
export function decodeResponsesRequest(body: unknown): DecodedResponsesRequest {
  if (!isJsonObject(body)) throw invalidRequest("The request body must be a JSON object.", null);
  refuseStateful(body);
  const req = parseWire(ResponsesRequestSchema, body);
  if (Array.isArray(req.input) && req.input.length === 0)
    throw invalidRequest("Invalid 'input': must contain at least one item.", "input");
  const metadataKeys = Object.keys(req.metadata ?? {});
  if (metadataKeys.length > 16) throw invalidRequest("Invalid 'metadata': at most 16 keys are allowed.", "metadata");
  const { system, messages, warnings } = decodeInput(req.input, req.instructions);
  if (messages.length === 0)
    throw invalidRequest("Invalid 'input': it holds no user, assistant or tool content.", "input");
  const decodedTools = decodeResponsesTools(req);
  const { tools } = decodedTools;
  const { choice: toolChoice, echo: toolChoiceEcho } = decodeResponsesToolChoice(req, decodedTools);
  const { format, echo: formatEcho } = decodeFormat(req);
  const stream = req.stream === true;
  const promptCacheKey = req.prompt_cache_key ?? req.user ?? undefined;
  const request: NeutralRequest = {
    model: req.model,
    system,
    messages,
    tools,
    toolChoice,
    generation: decodeGeneration(req),
    responseFormat: format,
    stream,
    includeUsage: stream,
    ...(promptCacheKey ? { promptCacheKey } : {}),
    warnings: [...warnings, ...decodedTools.warnings, ...notesOf(req)],
    ...(decodedTools.serverTools.length ? { serverTools: decodedTools.serverTools } : {}),
  };
  const echo: ResponseEcho = {
    instructions: req.instructions ?? null,
    max_output_tokens: req.max_output_tokens ?? null,
    metadata: req.metadata ?? {},
    parallel_tool_calls: req.parallel_tool_calls ?? true,
    prompt_cache_key: req.prompt_cache_key ?? null,
    reasoning: { effort: req.reasoning?.effort ?? null, summary: req.reasoning?.summary ?? null },
    temperature: req.temperature ?? null,
    text: { format: formatEcho },
    tool_choice: toolChoiceEcho,
    tools: decodedTools.echo,
    top_p: req.top_p ?? null,
    user: req.user ?? null,
  };
  return { request, echo, toolNames: decodedTools.names };
}
