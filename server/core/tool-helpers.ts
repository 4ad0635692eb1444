// Small rules shared by both decoders: tool argument normalisation, unique tool names, non-empty user messages.
// No wire shapes here.
import type { ContentPart, ToolChoice, ToolDefinition } from "./contract";
import { quoteClientText } from "./client-text";
import { invalidRequest } from "./errors";

/** Tool-call arguments as JSON text: "" / whitespace / null / absent become "{}" (a call without arguments); a JSON
 *  object sent instead of a string is serialised. Other strings pass through untouched (history is not re-validated). */
export function normaliseArguments(args: string | Record<string, unknown> | null | undefined): string {
  if (args == null) return "{}";
  if (typeof args !== "string") return JSON.stringify(args);
  return args.trim() === "" ? "{}" : args;
}

/** Throws a 400 naming the second definition when two tools share a name (`paramOf(i)` gives its field). */
export function uniqueToolNames(tools: ToolDefinition[], paramOf: (index: number) => string): void {
  const seen = new Set<string>();
  tools.forEach((tool, i) => {
    if (seen.has(tool.name))
      throw invalidRequest(`Duplicate tool name ${quoteClientText(tool.name)}: tool names must be unique.`, paramOf(i));
    seen.add(tool.name);
  });
}

/**
 * A user message's parts without empty text parts (upstreams reject empty text blocks, as for assistant messages).
 * @throws PatchbayError 400 naming `param` (e.g. `messages[2].content`) when nothing is left: upstream SDKs refuse an
 *   empty user message, and OpenCode would silently drop it.
 */
export function refuseEmptyUserContent(parts: ContentPart[], param: string): ContentPart[] {
  const kept = parts.filter((part) => part.type !== "text" || part.text !== "");
  if (kept.length === 0) {
    throw invalidRequest(
      `Invalid '${param}': this user message is empty. Send some text, an image or a file, or leave the message out.`,
      param,
    );
  }
  return kept;
}

/** The keyword forms of `tool_choice` both wires share: absent/`auto` → auto, `none`, `required` (400 without
 *  tools). Returns null for the object form, which each wire decodes itself. */
export function decodeToolChoiceKeyword(choice: unknown, tools: readonly ToolDefinition[]): ToolChoice | null {
  if (choice == null || choice === "auto") return "auto";
  if (choice === "none") return "none";
  if (choice === "required") {
    if (tools.length === 0)
      throw invalidRequest("Invalid 'tool_choice': 'required' needs at least one entry in 'tools'.", "tool_choice");
    return "required";
  }
  return null;
}
