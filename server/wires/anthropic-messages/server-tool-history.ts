// Server tool blocks a client sends back in assistant history (`server_tool_use`, `web_search_tool_result`,
// `web_fetch_tool_result`: Patchbay's own from an earlier turn, or Anthropic's): kept for the model as text, since the
// search already ran and only its query and results matter now. Shapes: ServerToolUseBlockParam,
// WebSearchToolResultBlockParam (results or `web_search_tool_result_error`), WebFetchToolResultBlockParam in
// @anthropic-ai/sdk. `encrypted_content` is opaque (Anthropic's; Patchbay's is ""), so a result reads as title + URL.

/** Most characters of a fetched page's text kept in history (the model read it whole in its own turn). */
export const MAX_FETCHED_TEXT_CHARS = 20_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * The text a server tool block stands for in history:
 * - `server_tool_use` → `[web_search: "<query>"]` / `[web_fetch: <url>]` (other tools: the input as JSON);
 * - `web_search_tool_result` → `Web search results:` and one `- <title> (<url>)` line per result, or
 *   `Web search error: <error_code>`;
 * - `web_fetch_tool_result` → `Fetched <url>` with the title and the page text (at most
 *   {@link MAX_FETCHED_TEXT_CHARS}), or `Web fetch error: <error_code>`.
 */
export function serverToolBlockText(block: Json): string {
  if (block.type === "server_tool_use") {
    const input = isObject(block.input) ? block.input : {};
    const name = str(block.name) || "server_tool";
    if (typeof input.query === "string") return `[${name}: ${JSON.stringify(input.query)}]`;
    if (typeof input.url === "string") return `[${name}: ${input.url}]`;
    return `[${name}: ${JSON.stringify(input)}]`;
  }
  const content = block.content;
  if (block.type === "web_search_tool_result") {
    if (!Array.isArray(content))
      return `Web search error: ${str(isObject(content) ? content.error_code : "") || "unknown"}`;
    const lines = content
      .filter(isObject)
      .map((r) => `- ${str(r.title) || str(r.url)} (${str(r.url)})${r.page_age ? `, ${str(r.page_age)}` : ""}`);
    return lines.length ? `Web search results:\n${lines.join("\n")}` : "Web search results: none.";
  }
  if (!isObject(content) || content.type !== "web_fetch_result")
    return `Web fetch error: ${str(isObject(content) ? content.error_code : "") || "unknown"}`;
  const doc = isObject(content.content) ? content.content : {};
  const source = isObject(doc.source) ? doc.source : {};
  const text = source.type === "text" ? str(source.data) : "(a non-text document)";
  const title = str(doc.title);
  const capped =
    text.length > MAX_FETCHED_TEXT_CHARS ? `${text.slice(0, MAX_FETCHED_TEXT_CHARS)}\n[… page text cut here]` : text;
  return `Fetched ${str(content.url)}${title ? ` (${title})` : ""}:\n${capped}`;
}
