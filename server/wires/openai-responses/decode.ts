// Responses request → NeutralRequest + the fields the response echoes (stateless subset; OpenAI API reference,
// "Create a model response"). Pure: validates and maps; refuses stateful or hosted features with a 400 naming the
// field and saying what to do instead. No I/O, no policy.
import type { GenerationParams, NeutralRequest, PatchbayWarning, ResponseFormat } from "../../core/contract";
import { quoteClientText as q } from "../../core/client-text";
import { PatchbayError, invalidRequest, unsupportedParameter } from "../../core/errors";
import { assertJsonDepth } from "../../core/json-depth";
import { warn } from "../../core/warnings";
import { isJsonObject, parseWire } from "../../core/wire-parse";
import { KNOWN_ITEM_TYPES, ResponsesRequestSchema, type ResponsesRequest } from "./request-schema";
import { decodeResponsesToolChoice, decodeResponsesTools, type ToolNameMap } from "./tools";
import type { ResponseEcho, ResponseTextFormatOut } from "./wire-types";
import { AI_SDK_HINT, decodeInput, STATELESS } from "./decode-input";

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
