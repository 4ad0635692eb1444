// A `web_search_call` item a client sends back in `input` (Codex replays its history): the search already ran, so
// the model keeps what it asked and found as assistant text instead of losing it. Shape: ResponseFunctionWebSearch in
// the `openai` npm package (action `search` {query, queries, sources[{url}]}, `open_page` {url}, `find_in_page`
// {url, pattern}); `sources` is present when the client asked for `include: ["web_search_call.action.sources"]`.
import type { NeutralMessage } from "../../core/contract";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The text of the item: `[web_search: "<query>"]` (with `Sources:` lines when sent), `[open_page: <url>]`,
 *  `[find: "<pattern>" in <url>]`; null for an item without an action object or with an action type it does not
 *  know, e.g. Codex's `other` (nothing to keep). The item was validated by request-schema.ts. */
export function webSearchCallText(item: Json): string | null {
  const action = item.action;
  if (!isObject(action)) return null;
  const url = typeof action.url === "string" ? action.url : "";
  if (action.type === "open_page") return `[open_page: ${url}]`;
  if (action.type === "find_in_page" || action.type === "find")
    return `[find: ${JSON.stringify(String(action.pattern ?? ""))} in ${url}]`;
  if (action.type !== "search") return null;
  const queries = Array.isArray(action.queries) ? action.queries.filter((q) => typeof q === "string") : [];
  const query = typeof action.query === "string" && action.query !== "" ? action.query : queries.join(" | ");
  const sources = Array.isArray(action.sources)
    ? action.sources.filter(isObject).map((s) => (typeof s.url === "string" ? s.url : ""))
    : [];
  const failed = item.status === "failed" ? " (failed)" : "";
  const listed = sources.filter((s) => s !== "");
  return `[web_search: ${JSON.stringify(query)}]${failed}${listed.length ? `\nSources:\n${listed.map((s) => `- ${s}`).join("\n")}` : ""}`;
}

/** Adds `text` to the conversation's assistant turn: the last message when it is the assistant's (before its tool
 *  calls' answers, so a call and its output stay adjacent), else a new assistant message. */
export function pushAssistantText(messages: NeutralMessage[], text: string | null): void {
  if (text === null) return;
  const last = messages.at(-1);
  if (last?.role === "assistant") last.content.push({ type: "text", text });
  else messages.push({ role: "assistant", content: [{ type: "text", text }], toolCalls: [] });
}
