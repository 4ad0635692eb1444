// The URLs a Messages conversation offers a web fetch tool, by source (Anthropic "Web fetch tool": the model may fetch
// only URLs the user gave or that earlier results contained; `url_sources` picks the sources). Reads the already
// validated `messages` (decode-messages.ts refused malformed blocks); the system prompt and the model's own text are
// never sources (a model could write a URL there, which is what the rule forbids). Pure.
import type { FetchUrlScope } from "../../core/contract";
import { ruleAdmits, urlKey, urlKeysInText, type UrlSources } from "../../server-tools/fetchable-urls";
import type { MessageParamT } from "./request-schema";

/** URL keys (fetchable-urls.ts `urlKey`) of the conversation: from user text, and from each tool's results. */
export interface ConversationUrls {
  user: string[];
  /** Results of the client's tools (`tool_result` blocks), by the name of the `tool_use` they answer. */
  clientTools: Array<{ tool: string; keys: string[] }>;
  /** Results of server tools in history (`web_search_tool_result` / `web_fetch_tool_result`), by tool name. */
  serverTools: Array<{ tool: string; keys: string[] }>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Text of a user block or a tool_result's inner block that can carry URLs: text, text documents, and
 *  `search_result` blocks (SearchResultBlockParam: `source` is the result's URL). */
function blockText(block: Json): string {
  if (block.type === "text") return str(block.text);
  if (block.type === "search_result")
    return [
      str(block.source),
      ...(Array.isArray(block.content) ? block.content.filter(isObject).map(blockText) : []),
    ].join("\n");
  if (block.type === "document" && isObject(block.source) && block.source.type === "text")
    return `${str(block.title)}\n${str(block.source.data)}`;
  return "";
}

/** Collects the URL keys of `messages` by source. */
export function conversationUrls(messages: readonly MessageParamT[]): ConversationUrls {
  const out: ConversationUrls = { user: [], clientTools: [], serverTools: [] };
  const toolNames = new Map<string, string>();
  const serverToolNames = new Map<string, string>();
  for (const message of messages) {
    if (message.role === "system") continue;
    const blocks: Json[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    for (const block of blocks) {
      if (message.role === "user") {
        if (block.type === "tool_result") {
          const content = block.content;
          const text =
            typeof content === "string"
              ? content
              : Array.isArray(content)
                ? content.filter(isObject).map(blockText).join("\n")
                : "";
          const tool = toolNames.get(str(block.tool_use_id)) ?? "";
          out.clientTools.push({ tool, keys: urlKeysInText(text) });
        } else out.user.push(...urlKeysInText(blockText(block)));
        continue;
      }
      // Assistant: only tool calls (for names) and server tool results count, never the model's text.
      if (block.type === "tool_use") toolNames.set(str(block.id), str(block.name));
      else if (block.type === "server_tool_use") serverToolNames.set(str(block.id), str(block.name));
      else if (block.type === "web_search_tool_result" || block.type === "web_fetch_tool_result") {
        const tool =
          serverToolNames.get(str(block.tool_use_id)) ??
          (block.type === "web_search_tool_result" ? "web_search" : "web_fetch");
        out.serverTools.push({ tool, keys: serverResultKeys(block.content) });
      }
    }
  }
  return out;
}

/** URL keys of a server tool result's `content`: each search result's URL, or a fetched page's URL and the URLs in
 *  its text. Errors have none. */
function serverResultKeys(content: unknown): string[] {
  const keys: Array<string | null> = [];
  if (Array.isArray(content)) for (const r of content) if (isObject(r)) keys.push(urlKey(str(r.url)));
  if (isObject(content) && content.type === "web_fetch_result") {
    keys.push(urlKey(str(content.url)));
    const doc = isObject(content.content) ? content.content : {};
    const source = isObject(doc.source) ? doc.source : {};
    if (source.type === "text") keys.push(...urlKeysInText(str(source.data)));
  }
  return keys.filter((k): k is string => k !== null);
}

/** The scope of a web fetch tool with `sources` over the conversation's URLs. */
export function fetchScopeOf(sources: UrlSources, urls: ConversationUrls): FetchUrlScope {
  const keys = new Set<string>(sources.userInput === "all" ? urls.user : []);
  for (const r of urls.clientTools)
    if (ruleAdmits(sources.clientToolResults, r.tool)) for (const k of r.keys) keys.add(k);
  for (const r of urls.serverTools)
    if (ruleAdmits(sources.serverToolResults, r.tool)) for (const k of r.keys) keys.add(k);
  return { urls: [...keys], serverToolResults: sources.serverToolResults };
}
