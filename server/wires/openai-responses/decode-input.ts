// Responses `input` → neutral messages (OpenAI API reference, "Create a model response", input items): each item
// mapped by type, tool results' media moved after their run, system messages hoisted. Pure; errors name
// `input[i]…`.
import type { ContentPart, NeutralMessage, PatchbayWarning, ToolCall } from "../../core/contract";
import { quoteClientText as q } from "../../core/client-text";
import { PatchbayError, invalidRequest, unsupportedParameter } from "../../core/errors";
import { assertJsonTextDepth } from "../../core/json-depth";
import { agentMessageText, compactionWarning } from "../../core/codex-items";
import { ToolResultMedia, toolResultMediaMoved } from "../../core/tool-result-media";
import { decodeFileData, decodeImageUrl } from "../../core/media";
import { hoistWarning, joinTexts } from "../openai/text";
import { normaliseArguments, refuseEmptyUserContent } from "../../core/tool-helpers";
import { type ResponsesItem, type ResponsesPart } from "./request-schema";
import { flattenToolName } from "./tools";
import { pushAssistantText, webSearchCallText } from "./web-search-history";

/** How to send a conversation Patchbay can carry: whole, or continued from a stored response. */
export const STATELESS =
  "Send the whole conversation in 'input', or continue a stored response with 'previous_response_id'.";
/** The Vercel AI SDK's setting that makes it send whole items instead of references. */
export const AI_SDK_HINT =
  "Vercel AI SDK users: pass providerOptions: { openai: { store: false } } so the SDK sends full items instead of references.";

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

/** The input items as neutral messages, the system texts (instructions first), and what was moved or dropped. */
export interface DecodedInput {
  system: string[];
  messages: NeutralMessage[];
  warnings: PatchbayWarning[];
}

/**
 * Decodes `input` (a string, or items: messages, function and custom tool calls and their outputs, reasoning, Codex's
 * agent_message and compaction). Throws PatchbayError 400 naming `input[i]…` (a repeated call id, an empty user
 * message, a part type the role cannot carry).
 */
export function decodeInput(input: string | ResponsesItem[], instructions: string | null | undefined): DecodedInput {
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
