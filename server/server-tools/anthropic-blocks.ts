// Anthropic content blocks of a server tool call Patchbay ran. Shapes from @anthropic-ai/sdk
// (src/resources/messages/messages.ts: ServerToolUseBlock, WebSearchToolResultBlock, WebSearchResultBlock,
// WebSearchToolResultError, WebFetchToolResultBlock, WebFetchBlock, DocumentBlock, PlainTextSource, ServerToolUsage).
// `encrypted_content` is Anthropic's opaque page content; Patchbay has none to give, so it is "" (the snippet reached
// the model as the tool result; a client only shows title and URL).
import type { ServerToolOutcome, Usage, WebSearchHit } from "../core/contract";

/** `server_tool_use`. `caller` is always a direct call (no code execution in Patchbay). */
export interface AnthropicServerToolUseBlock {
  type: "server_tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
  caller: { type: "direct" };
}

/** `web_search_tool_result` / `web_fetch_tool_result`. */
export type AnthropicServerToolResultBlock =
  | {
      type: "web_search_tool_result";
      tool_use_id: string;
      caller: { type: "direct" };
      content:
        | Array<{
            type: "web_search_result";
            url: string;
            title: string;
            encrypted_content: string;
            page_age: string | null;
          }>
        | { type: "web_search_tool_result_error"; error_code: string };
    }
  | {
      type: "web_fetch_tool_result";
      tool_use_id: string;
      caller: { type: "direct" };
      content:
        | {
            type: "web_fetch_result";
            url: string;
            retrieved_at: string | null;
            content: {
              type: "document";
              source: { type: "text"; media_type: "text/plain"; data: string };
              title: string | null;
              citations: null;
            };
          }
        | { type: "web_fetch_tool_result_error"; error_code: string };
    };

/** The `server_tool_use` block of a call. */
export function serverToolUseBlock(
  id: string,
  name: string,
  input: Record<string, unknown>,
): AnthropicServerToolUseBlock {
  return { type: "server_tool_use", id, name, input, caller: { type: "direct" } };
}

/** The result block of call `toolUseId`: hits, fetched page, or the tool's error code (never model text). */
export function serverToolResultBlock(toolUseId: string, outcome: ServerToolOutcome): AnthropicServerToolResultBlock {
  const caller = { type: "direct" as const };
  if (outcome.kind === "web_search") {
    return {
      type: "web_search_tool_result",
      tool_use_id: toolUseId,
      caller,
      content:
        "error" in outcome
          ? { type: "web_search_tool_result_error", error_code: webSearchErrorCode(outcome.error) }
          : outcome.hits.map((h) => ({
              type: "web_search_result" as const,
              url: h.url,
              title: h.title,
              encrypted_content: "",
              page_age: h.pageAge ?? null,
            })),
    };
  }
  return {
    type: "web_fetch_tool_result",
    tool_use_id: toolUseId,
    caller,
    content:
      "error" in outcome
        ? { type: "web_fetch_tool_result_error", error_code: outcome.error }
        : {
            type: "web_fetch_result",
            url: outcome.url,
            retrieved_at: outcome.retrievedAt,
            content: {
              type: "document",
              source: { type: "text", media_type: "text/plain", data: outcome.text },
              title: outcome.title,
              citations: null,
            },
          },
  };
}

/** `usage.server_tool_use`, present only when the request offered server tools. */
export function anthropicServerToolUsage(
  usage: Usage,
): { server_tool_use: { web_search_requests: number; web_fetch_requests: number } } | Record<string, never> {
  const s = usage.serverToolUse;
  return s
    ? { server_tool_use: { web_search_requests: s.webSearchRequests, web_fetch_requests: s.webFetchRequests } }
    : {};
}

/** WebSearchToolResultErrorCode has no URL codes; those cannot occur for a search, `unavailable` covers the rest. */
function webSearchErrorCode(code: string): string {
  return ["invalid_tool_input", "unavailable", "max_uses_exceeded", "too_many_requests", "query_too_long"].includes(
    code,
  )
    ? code
    : "unavailable";
}

/** A text block's citation of a search result (`CitationsWebSearchResultLocation`). `encrypted_index` is opaque to
 *  clients (Anthropic's pointer into its encrypted result); Patchbay has none, so it is "". */
export interface WebSearchResultLocation {
  type: "web_search_result_location";
  url: string;
  title: string | null;
  encrypted_index: string;
  /** Up to 150 characters of the cited result (Anthropic's limit): its snippet, else its title. */
  cited_text: string;
}

/** Most characters of `cited_text`. */
export const MAX_CITED_TEXT_CHARS = 150;

/**
 * The citations of a text block: one per search result whose URL the text contains, in the order the text first
 * names them. The model cites by writing a result's URL (the tool result it read lists them); text that names no
 * result's URL gets no citation, so Patchbay never invents a basis the model did not give.
 */
export function webSearchCitations(text: string, hits: readonly WebSearchHit[]): WebSearchResultLocation[] {
  const seen = new Set<string>();
  return hits
    .map((hit) => ({ hit, at: text.indexOf(hit.url) }))
    .filter(({ hit, at }) => at >= 0 && !seen.has(hit.url) && seen.add(hit.url))
    .sort((a, b) => a.at - b.at)
    .map(({ hit }) => ({
      type: "web_search_result_location" as const,
      url: hit.url,
      title: hit.title || null,
      encrypted_index: "",
      cited_text: (hit.snippet || hit.title).slice(0, MAX_CITED_TEXT_CHARS),
    }));
}
