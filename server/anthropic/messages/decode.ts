// Anthropic Messages request → NeutralRequest (Anthropic API reference, "Messages" → "Create a Message").
// Pure: validates and maps; a client-caused problem is a 400 naming the field; a field Patchbay cannot honour but a
// client (Claude Code) routinely sends is ignored and named in `warnings`, never a 400. No I/O, no policy.
// Generic helpers (zod → 400, data URLs, tool-name rules) come from server/openai/*: they hold no OpenAI wire shapes.
import { TOOL_RESULT_MEDIA_PLACEHOLDER } from "../../core/tool-result-media";
import type { z } from "zod";
import type {
  ContentPart,
  GenerationParams,
  NeutralMessage,
  NeutralRequest,
  ResponseFormat,
  SignedReasoning,
  ToolCall,
  ToolChoice,
  ToolDefinition,
} from "../../core/contract";
import { quoteClientText as q } from "../../core/client-text";
import { PatchbayError, invalidRequest } from "../../core/errors";
import { assertJsonDepth } from "../../core/json-depth";
import { decodeImageUrl, parseDataUrl } from "../../core/media";
import { refuseEmptyUserContent, uniqueToolNames } from "../../core/tool-helpers";
import { WarningList, warn } from "../../core/warnings";
import { isJsonObject, parseWire } from "../../core/wire-parse";
import {
  DocumentBlock,
  ImageBlock,
  CountTokensRequestSchema,
  MessagesRequestSchema,
  RedactedThinkingBlock,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolUseBlock,
  type MessageParamT,
  type MessagesRequest,
} from "./request-schema";

/** Top-level fields the decoder maps; every other top-level field is ignored and named in a warning. */
const MAPPED_FIELDS = new Set([
  "model",
  "max_tokens",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "stream",
  "thinking",
  "output_config",
]);

/** Prefix put before a tool result's text when the client marked it `is_error: true` (the neutral tool message has
 *  no error flag). */
export const TOOL_ERROR_PREFIX = "[tool error] ";

/** Text left in a tool result in place of each image it carried (the image itself follows in a user message). */
export const TOOL_RESULT_IMAGE_PLACEHOLDER = TOOL_RESULT_MEDIA_PLACEHOLDER;

/** Text left in a tool result for each `tool_reference` block (a tool search result), followed by the tool's name. */
export const TOOL_REFERENCE_PREFIX = "[tool available: ";

/** A thinking `budget_tokens` → OpenCode-style effort: < 4 096 low, < 16 384 medium, else high. */
export function effortOfBudget(budget: number): string {
  if (budget < 4096) return "low";
  if (budget < 16384) return "medium";
  return "high";
}

function decodeSystem(system: MessagesRequest["system"]): string[] {
  if (system == null) return [];
  if (typeof system === "string") return system === "" ? [] : [system];
  return system.map((b) => b.text).filter((t) => t !== "");
}

/** A `data:` URL from a base64 source; the payload must be base64. */
function base64Url(mediaType: string, data: string, param: string): string {
  const url = `data:${mediaType};base64,${data.replace(/\s+/g, "")}`;
  if (!parseDataUrl(url)) throw invalidRequest(`Invalid '${param}': expected base64 data.`, param);
  return url;
}

function refuseFileSource(param: string): never {
  throw new PatchbayError(
    "unsupported_parameter",
    `File ids ('${param}', source type 'file') need Anthropic's Files API, which Patchbay does not have: send the data inline as a base64 source.`,
    { param },
  );
}

function decodeImage(raw: unknown, at: string): ContentPart {
  const block = parseWire(ImageBlock, raw, [at]);
  const src = block.source;
  if (src.type === "file") refuseFileSource(`${at}.source`);
  if (src.type === "url") return decodeImageUrl(src.url, `${at}.source.url`);
  if (!src.media_type.startsWith("image/"))
    throw invalidRequest(
      `Invalid '${at}.source.media_type' ${q(src.media_type)}: expected an image type.`,
      `${at}.source.media_type`,
    );
  return {
    type: "media",
    mediaType: src.media_type,
    url: base64Url(src.media_type, src.data, `${at}.source.data`),
    param: `${at}.source.data`,
  };
}

function decodeDocument(raw: unknown, at: string): ContentPart {
  const block = parseWire(DocumentBlock, raw, [at]);
  const src = block.source;
  const named = block.title ? { filename: block.title } : {};
  switch (src.type) {
    case "file":
      return refuseFileSource(`${at}.source`);
    case "text":
      return { type: "text", text: block.title ? `${block.title}\n\n${src.data}` : src.data };
    case "url":
      throw new PatchbayError(
        "unsupported_value",
        `Document URLs ('${at}.source.url') are not fetched by Patchbay: send the PDF as a base64 source.`,
        { param: `${at}.source.url` },
      );
    case "base64":
      return {
        type: "media",
        mediaType: src.media_type,
        url: base64Url(src.media_type, src.data, `${at}.source.data`),
        ...named,
        param: `${at}.source.data`,
      };
  }
}

const TOOL_RESULT_MEDIA_MOVED = warn.approximated(
  "messages[].content[].content",
  "images inside tool_result were moved to a user message after the tool results",
);

/** One user-side piece: either content for the user message or a tool result. */
type UserPiece = { kind: "part"; part: ContentPart } | { kind: "tool"; toolCallId: string; content: string };

function decodeToolResult(raw: unknown, at: string, images: ContentPart[], notes: WarningList): UserPiece {
  const block = parseWire(ToolResultBlock, raw, [at]);
  const texts: string[] = [];
  if (typeof block.content === "string") texts.push(block.content);
  else
    (block.content ?? []).forEach((inner, k) => {
      const where = `${at}.content[${k}]`;
      if (inner.type === "text") texts.push(parseWire(TextBlock, inner, [where]).text);
      else if (inner.type === "image") {
        images.push(decodeImage(inner, where));
        texts.push(TOOL_RESULT_IMAGE_PLACEHOLDER);
        notes.add(TOOL_RESULT_MEDIA_MOVED);
      } else if (inner.type === "document") {
        images.push(decodeDocument(inner, where));
        texts.push(TOOL_RESULT_IMAGE_PLACEHOLDER);
        notes.add(TOOL_RESULT_MEDIA_MOVED);
      } else if (inner.type === "tool_reference" && typeof inner.tool_name === "string") {
        // Tool search results (Claude Code's ToolSearch): the tool itself is already offered (defer_loading ignored).
        texts.push(`${TOOL_REFERENCE_PREFIX}${inner.tool_name}]`);
      } else
        notes.add(
          warn.dropped(
            "messages[].content[].content[].type",
            `tool_result content block type ${q(inner.type, 40)} dropped`,
          ),
        );
    });
  const text = texts.join("\n");
  return { kind: "tool", toolCallId: block.tool_use_id, content: block.is_error ? TOOL_ERROR_PREFIX + text : text };
}

function decodeUserContent(
  content: MessageParamT["content"],
  at: string,
  calls: Set<string>,
  notes: WarningList,
): NeutralMessage[] {
  if (typeof content === "string") {
    return [{ role: "user", content: refuseEmptyUserContent([{ type: "text", text: content }], `${at}.content`) }];
  }
  const pieces: UserPiece[] = [];
  const toolImages: ContentPart[] = [];
  const unsupported: string[] = []; // block types dropped: named if nothing else is left
  content.forEach((raw, j) => {
    const where = `${at}.content[${j}]`;
    switch (raw.type) {
      case "text":
        pieces.push({ kind: "part", part: { type: "text", text: parseWire(TextBlock, raw, [where]).text } });
        return;
      case "image":
        pieces.push({ kind: "part", part: decodeImage(raw, where) });
        return;
      case "document":
        pieces.push({ kind: "part", part: decodeDocument(raw, where) });
        return;
      case "tool_result": {
        const piece = decodeToolResult(raw, where, toolImages, notes);
        if (piece.kind === "tool" && !calls.has(piece.toolCallId)) {
          throw invalidRequest(
            `Invalid '${where}.tool_use_id': ${q(piece.toolCallId)} does not answer any tool_use block of an earlier assistant message.`,
            `${where}.tool_use_id`,
          );
        }
        pieces.push(piece);
        return;
      }
      default:
        unsupported.push(raw.type);
        notes.add(warn.dropped("messages[].content[].type", `user content block type ${q(raw.type, 40)} dropped`));
    }
  });
  // Tool results become tool messages in order; the remaining parts (and images from tool results) follow as one
  // user message, since a user message between two tool messages would split a parallel call's answers.
  const messages: NeutralMessage[] = [];
  const parts: ContentPart[] = [];
  for (const piece of pieces) {
    if (piece.kind === "tool") messages.push({ role: "tool", toolCallId: piece.toolCallId, content: piece.content });
    else parts.push(piece.part);
  }
  parts.push(...toolImages);
  const kept = parts.filter((p) => p.type !== "text" || p.text !== "");
  if (kept.length > 0) messages.push({ role: "user", content: kept });
  else if (messages.length === 0 && unsupported.length > 0)
    throw invalidRequest(
      `Invalid '${at}.content': none of this user message's content blocks can be sent (${[...new Set(unsupported)]
        .slice(0, 5)
        .map((t) => q(t, 40))
        .join(", ")}); send text, an image or a document.`,
      `${at}.content`,
    );
  else if (messages.length === 0) refuseEmptyUserContent([], `${at}.content`);
  return messages;
}

/** `seenCalls`: tool_use ids of earlier assistant messages (an id used twice is a 400, as Anthropic answers). */
function decodeAssistantContent(
  content: MessageParamT["content"],
  at: string,
  notes: WarningList,
  seenCalls: ReadonlySet<string>,
): NeutralMessage {
  if (typeof content === "string") {
    return { role: "assistant", content: content === "" ? [] : [{ type: "text", text: content }], toolCalls: [] };
  }
  const parts: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  const reasoning: SignedReasoning[] = [];
  content.forEach((raw, j) => {
    const where = `${at}.content[${j}]`;
    switch (raw.type) {
      case "text": {
        const text = parseWire(TextBlock, raw, [where]).text;
        if (text !== "") parts.push({ type: "text", text });
        return;
      }
      case "tool_use": {
        const block = parseWire(ToolUseBlock, raw, [where]);
        assertJsonDepth(block.input, `${where}.input`);
        if (seenCalls.has(block.id) || toolCalls.some((c) => c.id === block.id))
          throw invalidRequest(
            `Invalid '${where}.id': tool_use ids must be unique; ${q(block.id)} is used more than once.`,
            `${where}.id`,
          );
        toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
        return;
      }
      case "thinking": {
        const block = parseWire(ThinkingBlock, raw, [where]);
        if (block.signature) reasoning.push({ text: block.thinking, signature: block.signature });
        else
          notes.add(
            warn.dropped(
              "messages[].content[].signature",
              "thinking blocks without a signature in assistant history dropped (no upstream can verify them)",
            ),
          );
        return;
      }
      case "redacted_thinking":
        reasoning.push({ text: "", redactedData: parseWire(RedactedThinkingBlock, raw, [where]).data });
        return;
      default:
        notes.add(warn.dropped("messages[].content[].type", `assistant content block type ${q(raw.type, 40)} dropped`));
    }
  });
  return { role: "assistant", content: parts, toolCalls, ...(reasoning.length ? { reasoning } : {}) };
}

interface DecodedMessages {
  system: string[];
  messages: NeutralMessage[];
}

/** `role: "system"` messages in `messages` (Claude Code sends its environment block that way) are appended to the
 *  system texts in order: OpenCode can only place system text before the conversation (DESIGN §3). */
function decodeMessages(wire: MessageParamT[], notes: WarningList): DecodedMessages {
  const system: string[] = [];
  const messages: NeutralMessage[] = [];
  const calls = new Set<string>();
  const hoisted: string[] = [];
  wire.forEach((message, i) => {
    const at = `messages[${i}]`;
    switch (message.role) {
      case "system": {
        const texts =
          typeof message.content === "string"
            ? [message.content]
            : message.content.map((raw, j) => {
                if (raw.type !== "text") {
                  throw invalidRequest(
                    `Invalid '${at}.content[${j}].type' ${q(raw.type, 40)}: system messages take text blocks only.`,
                    `${at}.content[${j}].type`,
                  );
                }
                return parseWire(TextBlock, raw, [`${at}.content[${j}]`]).text;
              });
        system.push(...texts.filter((t) => t !== ""));
        hoisted.push(at);
        return;
      }
      case "user":
        messages.push(...decodeUserContent(message.content, at, calls, notes));
        return;
      case "assistant": {
        const decoded = decodeAssistantContent(message.content, at, notes, calls);
        if (decoded.role === "assistant") for (const call of decoded.toolCalls) calls.add(call.id);
        messages.push(decoded);
        return;
      }
    }
  });
  if (hoisted.length > 0) {
    notes.add(
      warn.approximated(
        "messages[].role",
        `role 'system' messages appended to the system prompt: ${hoisted.join(", ")}`,
      ),
    );
  }
  return { system, messages };
}

interface DecodedTools {
  tools: ToolDefinition[];
  /** Names of server tools (dated `type`) that were dropped. */
  serverTools: string[];
}

function decodeTools(req: MessagesRequest, notes: WarningList): DecodedTools {
  const tools: ToolDefinition[] = [];
  const serverTools: string[] = [];
  const params: string[] = [];
  const deferred: string[] = [];
  (req.tools ?? []).forEach((tool, i) => {
    const at = `tools[${i}]`;
    if (tool.type != null && tool.type !== "custom") {
      serverTools.push(tool.name);
      notes.add(
        warn.dropped(
          at,
          `server tool ${q(tool.name, 60)} (type ${q(tool.type, 40)}) dropped: Patchbay offers client tools only`,
        ),
      );
      return;
    }
    if (tool.defer_loading === true) deferred.push(tool.name);
    if (!tool.input_schema)
      throw invalidRequest(`Missing required parameter: '${at}.input_schema'.`, `${at}.input_schema`);
    assertJsonDepth(tool.input_schema, `${at}.input_schema`);
    tools.push({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.input_schema,
      ...(tool.strict == null ? {} : { strict: tool.strict }),
    });
    params.push(`${at}.name`);
  });
  uniqueToolNames(tools, (i) => params[i] ?? "tools");
  if (deferred.length > 0)
    notes.add(
      warn.ignored(
        "tools[].defer_loading",
        `defer_loading ignored: offered directly: ${deferred.map((n) => q(n, 60)).join(", ")}`,
      ),
    );
  return { tools, serverTools };
}

function decodeToolChoice(req: MessagesRequest, decoded: DecodedTools): ToolChoice {
  const choice = req.tool_choice;
  if (!choice || choice.type === "auto") return "auto";
  if (choice.type === "none") return "none";
  if (choice.type === "any") {
    if (decoded.tools.length === 0) {
      const why = decoded.serverTools.length
        ? ` (server tools are not available through Patchbay: ${decoded.serverTools.map((n) => q(n, 60)).join(", ")})`
        : "";
      throw invalidRequest(
        `Invalid 'tool_choice': type 'any' needs at least one custom tool in 'tools'${why}.`,
        "tool_choice",
      );
    }
    return "required";
  }
  if (decoded.serverTools.includes(choice.name)) {
    throw new PatchbayError(
      "unsupported_value",
      `Invalid 'tool_choice': ${q(choice.name)} is a server tool, which Patchbay cannot run (server tools in this request: ${decoded.serverTools.map((n) => q(n, 60)).join(", ")}). Offer a custom tool instead.`,
      { param: "tool_choice.name" },
    );
  }
  if (!decoded.tools.some((t) => t.name === choice.name))
    throw invalidRequest(`Invalid 'tool_choice.name': tool ${q(choice.name)} is not in 'tools'.`, "tool_choice.name");
  return { type: "function", name: choice.name };
}

function decodeGeneration(req: MessagesRequest, notes: WarningList): GenerationParams {
  const g: GenerationParams = { maxOutputTokens: req.max_tokens };
  if (req.temperature != null) g.temperature = req.temperature;
  if (req.top_p != null) g.topP = req.top_p;
  if (req.top_k != null) g.topK = req.top_k;
  const stop = (req.stop_sequences ?? []).filter((s) => s !== "");
  if (stop.length > 0) g.stop = stop;
  const effort = req.output_config?.effort;
  if (effort) g.reasoningEffort = effort;
  else if (req.thinking?.type === "enabled") g.reasoningEffort = effortOfBudget(req.thinking.budget_tokens);
  if (req.thinking?.type === "enabled" && effort)
    notes.add(
      warn.ignored("thinking.budget_tokens", "thinking.budget_tokens ignored: output_config.effort chooses the effort"),
    );
  const choice = req.tool_choice;
  if (choice && choice.type !== "none" && choice.disable_parallel_tool_use === true) g.parallelToolCalls = false;
  return g;
}

function decodeResponseFormat(req: MessagesRequest): ResponseFormat {
  const format = req.output_config?.format;
  if (!format) return { type: "text" };
  assertJsonDepth(format.schema, "output_config.format.schema");
  return { type: "json_schema", name: "output", schema: format.schema };
}

/** Warnings for top-level fields the decoder does not map (metadata, context_management, service_tier, …). */
function ignoredFields(body: Record<string, unknown>, notes: WarningList): void {
  const ignored = Object.keys(body).filter((k) => !MAPPED_FIELDS.has(k) && body[k] !== undefined && body[k] !== null);
  // One warning for all of them; its `param` lists the fields.
  if (ignored.length > 0)
    notes.add(warn.ignored(ignored.join(", "), `ignored: ${ignored.map((k) => q(k, 40)).join(", ")}`));
}

/**
 * Decodes an Anthropic Messages request body into the neutral request.
 * - `system` (string or text blocks) and `role: "system"` messages become `system` texts, in order; `cache_control`
 *   anywhere is ignored.
 * - User content: text, image (base64 → data URL; url → http(s) URL for the remote-image policy), document (PDF
 *   base64 → media part; text source → text), tool_result → a neutral tool message (`is_error` → TOOL_ERROR_PREFIX;
 *   images inside → placeholder text, the image follows in a user message after the tool results).
 * - Assistant content: text, tool_use (→ tool call, `arguments` = JSON.stringify(input)); thinking blocks WITH a
 *   signature and redacted_thinking → `reasoning` (sent back only to an Anthropic provider, which verifies them);
 *   thinking without a signature is dropped (warning): no upstream could verify it.
 * - Tools: custom tools only; server tools (dated `type`) are dropped with a warning, and a `tool_choice` naming one
 *   is a 400. `defer_loading` tools are offered directly (warning) and a `tool_reference` in a tool result becomes the
 *   text `[tool available: <name>]`, since there is no server-side tool search. `tool_choice` any → required, tool → named function, none → none;
 *   `disable_parallel_tool_use` → parallelToolCalls false.
 * - `max_tokens` (required) → maxOutputTokens; `output_config.effort` (else `thinking.budget_tokens` bucketed by
 *   {@link effortOfBudget}) → reasoningEffort; `top_k` → topK; `metadata`, `context_management`, `service_tier`,
 *   `container`, `mcp_servers` and unknown fields are ignored and named in `warnings`.
 * @throws PatchbayError 400 whose `param` names the field (e.g. `messages[1].content[0].source.data`).
 */
export function decodeMessagesRequest(body: unknown): NeutralRequest {
  if (!isJsonObject(body)) throw invalidRequest("The request body must be a JSON object.", null);
  const req = parseWire(MessagesRequestSchema, body);
  return buildNeutral(req, body);
}

/** The neutral request of an already-parsed body (shared with count_tokens, which has no `max_tokens`). */
export function buildNeutral(req: MessagesRequest, body: Record<string, unknown>): NeutralRequest {
  const notes = new WarningList();
  if (req.messages.length === 0)
    throw invalidRequest("Invalid 'messages': must contain at least one message.", "messages");
  const decoded = decodeMessages(req.messages, notes);
  if (decoded.messages.length === 0) {
    throw invalidRequest("Invalid 'messages': there is no user or assistant message, only system ones.", "messages");
  }
  const tools = decodeTools(req, notes);
  const toolChoice = decodeToolChoice(req, tools);
  const generation = decodeGeneration(req, notes);
  ignoredFields(body, notes);
  return {
    model: req.model,
    system: [...decodeSystem(req.system), ...decoded.system],
    messages: decoded.messages,
    tools: tools.tools,
    toolChoice,
    generation,
    responseFormat: decodeResponseFormat(req),
    stream: req.stream === true,
    includeUsage: true,
    warnings: notes.list,
  };
}

/** Re-exported for tests: the parsed request type. */
export type { MessagesRequest };
/** Re-exported for count_tokens. */
export type MessagesBody = z.input<typeof MessagesRequestSchema>;

/** Decodes a `count_tokens` body: a Message request without `max_tokens` (same 400s as {@link decodeMessagesRequest}). */
export function decodeCountTokensRequest(body: unknown): NeutralRequest {
  if (!isJsonObject(body)) throw invalidRequest("The request body must be a JSON object.", null);
  const req = parseWire(CountTokensRequestSchema, body);
  return buildNeutral({ ...req, max_tokens: typeof req.max_tokens === "number" ? req.max_tokens : 1 }, body);
}
