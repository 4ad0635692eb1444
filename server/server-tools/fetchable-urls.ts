// Which URLs a web fetch may fetch: Anthropic's rule ("Web fetch tool" docs: the model may not construct URLs; it
// may fetch only URLs the user gave or that earlier web search / web fetch results contained; `url_sources` in
// WebFetchTool20250910 of @anthropic-ai/sdk narrows the sources). Pure: URL keys, URLs found in text, source rules.
// Does not fetch, and knows no wire: the Anthropic decoder collects the conversation's texts, the loop adds results.
import type { ToolSourceRule } from "../core/contract";

export type { FetchUrlScope, ToolSourceRule } from "../core/contract";

/** Which sources add fetchable URLs (Anthropic `url_sources`; an absent field is `all`). */
export interface UrlSources {
  userInput: "all" | "none";
  clientToolResults: ToolSourceRule;
  serverToolResults: ToolSourceRule;
}

/** The default: every source (Anthropic: "Omitted means every source"). */
export const ALL_URL_SOURCES: UrlSources = {
  userInput: "all",
  clientToolResults: { type: "all" },
  serverToolResults: { type: "all" },
};

/** True when `rule` lets the results of tool `name` contribute URLs. */
export function ruleAdmits(rule: ToolSourceRule, name: string): boolean {
  switch (rule.type) {
    case "all":
      return true;
    case "none":
      return false;
    case "only":
      return rule.tools.includes(name);
    case "except":
      return !rule.tools.includes(name);
  }
}

/**
 * The comparison key of a URL, or null when it is not an http(s) URL: host (lower-case, default port dropped),
 * path without trailing slashes, and query, without scheme and fragment. So `https://Example.com/a/` and
 * `http://example.com/a#x` are the same page, while a different query (where data would be smuggled) is not.
 * A scheme-less `example.com/a` (as users write) is read as https.
 */
export function urlKey(raw: string): string | null {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname.includes(".") && url.hostname !== "localhost" && !url.hostname.startsWith("[")) return null;
  return `${url.host}${url.pathname.replace(/\/+$/, "")}${url.search}`;
}

/** http(s) URLs, and scheme-less `host.tld/path` tokens, in free text. Characters that never end a URL in prose
 *  (`.`, `,`, `)`, quotes, …) are trimmed from the end; a `)` that closes a `(` inside the URL stays. */
const URL_IN_TEXT =
  /\bhttps?:\/\/[^\s<>"'`{}|\\^[\]]+|\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,5})?(?:\/[^\s<>"'`{}|\\^[\]]*)?/gi;

/** Most URLs taken from one text (a page of links has a few hundred; a flood is cut, not an error). */
export const MAX_URLS_PER_TEXT = 2000;

/** The URL keys in `text` (see {@link urlKey}), at most {@link MAX_URLS_PER_TEXT}. */
export function urlKeysInText(text: string): string[] {
  const keys: string[] = [];
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const key = urlKey(trimTrailing(match[0]));
    if (key) keys.push(key);
    if (keys.length >= MAX_URLS_PER_TEXT) break;
  }
  return keys;
}

function trimTrailing(url: string): string {
  let out = url;
  for (;;) {
    const last = out.at(-1);
    if (last && ".,;:!?'\"*_".includes(last)) out = out.slice(0, -1);
    else if (last === ")" && count(out, "(") < count(out, ")")) out = out.slice(0, -1);
    else return out;
  }
}

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}
