// Anthropic Messages `system` and `messages` → neutral system texts and messages (Anthropic API reference, "Messages"
// → "Create a Message"): text, image, document, thinking, tool_use and tool_result blocks. Pure; a client-caused
// problem is a 400 naming the field, a block Patchbay cannot carry as sent is approximated and named in a warning.
import type { ContentPart, NeutralMessage, SignedReasoning, ToolCall } from "../../core/contract";
import { TOOL_RESULT_MEDIA_PLACEHOLDER } from "../../core/tool-result-media";
import { quoteClientText as q } from "../../core/client-text";
import { PatchbayError, invalidRequest } from "../../core/errors";
import { assertJsonDepth } from "../../core/json-depth";
import { decodeImageUrl, parseDataUrl } from "../../core/media";
import { refuseEmptyUserContent } from "../../core/tool-helpers";
import type { WarningList } from "../../core/warnings";
import { warn } from "../../core/warnings";
import { parseWire } from "../../core/wire-parse";
import { serverToolBlockText } from "./server-tool-history";
import {
  DocumentBlock,
  ImageBlock,
  RedactedThinkingBlock,
  ServerToolUseBlock,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolUseBlock,
  WebFetchToolResultBlock,
  WebSearchToolResultBlock,
  type MessageParamT,
  type MessagesRequest,
} from "./request-schema";

/** Prefix put before a tool result's text when the client marked it `is_error: true` (the neutral tool message has
 *  no error flag). */
export const TOOL_ERROR_PREFIX = "[tool error] ";

/** Text left in a tool result in place of each image it carried (the image itself follows in a user message). */
export const TOOL_RESULT_IMAGE_PLACEHOLDER = TOOL_RESULT_MEDIA_PLACEHOLDER;

/** Text left in a tool result for each `tool_reference` block (a tool search result), followed by the tool's name. */
export const TOOL_REFERENCE_PREFIX = "[tool available: ";

export function decodeSystem(system: MessagesRequest["system"]): string[] {
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

/**
 * Validates a server tool block of assistant history (shapes in request-schema.ts) and returns it. A result must
 * answer a `server_tool_use` of this or an earlier assistant message (`serverCalls`, which a use's id joins).
 * @throws PatchbayError 400 naming the field (`messages[1].content[2].content[0].url`).
 */
function checkServerToolBlock(raw: { type: string }, at: string, serverCalls: Set<string>): Record<string, unknown> {
  if (raw.type === "server_tool_use") {
    const block = parseWire(ServerToolUseBlock, raw, [at]);
    assertJsonDepth(block.input, `${at}.input`);
    if (serverCalls.has(block.id))
      throw invalidRequest(
        `Invalid '${at}.id': server_tool_use ids must be unique; ${q(block.id)} is used more than once.`,
        `${at}.id`,
      );
    serverCalls.add(block.id);
    return block;
  }
  const block =
    raw.type === "web_search_tool_result"
      ? parseWire(WebSearchToolResultBlock, raw, [at])
      : parseWire(WebFetchToolResultBlock, raw, [at]);
  if (!serverCalls.has(block.tool_use_id))
    throw invalidRequest(
      `Invalid '${at}.tool_use_id': ${q(block.tool_use_id)} does not answer any server_tool_use block before it.`,
      `${at}.tool_use_id`,
    );
  return block;
}

/** `seenCalls`: tool_use ids of earlier assistant messages (an id used twice is a 400, as Anthropic answers);
 *  `serverCalls`: server_tool_use ids so far (this message's join it). */
function decodeAssistantContent(
  content: MessageParamT["content"],
  at: string,
  notes: WarningList,
  seenCalls: ReadonlySet<string>,
  serverCalls: Set<string>,
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
      case "server_tool_use":
      case "web_search_tool_result":
      case "web_fetch_tool_result":
        // A search or fetch that already ran: the model keeps its query and results as text.
        parts.push({ type: "text", text: serverToolBlockText(checkServerToolBlock(raw, where, serverCalls)) });
        return;
      default:
        notes.add(warn.dropped("messages[].content[].type", `assistant content block type ${q(raw.type, 40)} dropped`));
    }
  });
  return { role: "assistant", content: parts, toolCalls, ...(reasoning.length ? { reasoning } : {}) };
}

export interface DecodedMessages {
  system: string[];
  messages: NeutralMessage[];
}

/** `role: "system"` messages in `messages` (Claude Code sends its environment block that way) are appended to the
 *  system texts in order: OpenCode can only place system text before the conversation (DESIGN §3). */
export function decodeMessages(wire: MessageParamT[], notes: WarningList): DecodedMessages {
  const system: string[] = [];
  const messages: NeutralMessage[] = [];
  const calls = new Set<string>();
  const serverCalls = new Set<string>();
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
        const decoded = decodeAssistantContent(message.content, at, notes, calls, serverCalls);
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
