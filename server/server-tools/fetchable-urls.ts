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

/** What never occurs in a URL written in prose or HTML-to-text output (`text [url]`, markdown `[text](url)`): text is
 *  cut into tokens there. */
const SEPARATORS = /[\s<>"'`{}|\\^[\]]+/;
/** A scheme-less token that starts like a URL: `host.tld`, then a port, path, query or the end. Anchored, on one
 *  token at a time, with dot-delimited labels: linear, so a hostile page cannot make it backtrack for long. */
const HOST_FIRST = /^(?:[a-z0-9-]+\.)+[a-z]{2,63}(?::\d{1,5})?(?:[/?#]|$)/i;
/** Longest token looked at: a longer one is no fetchable URL (those end at 2048 characters, `url_too_long`). */
const MAX_TOKEN_CHARS = 4096;

/** Most URLs taken from one text (a page of links has a few hundred; a flood is cut, not an error). */
export const MAX_URLS_PER_TEXT = 2000;

/**
 * The URL keys ({@link urlKey}) of the http(s) URLs, and scheme-less `host.tld/path` tokens, in free text, at most
 * {@link MAX_URLS_PER_TEXT}. Characters that end a URL in prose (`.`, `,`, `)`, quotes, …) are trimmed from its end;
 * a `)` that closes a `(` inside the URL stays. Linear in the text's length.
 */
export function urlKeysInText(text: string): string[] {
  const keys: string[] = [];
  for (const raw of text.split(SEPARATORS)) {
    if (raw.length < 4 || raw.length > MAX_TOKEN_CHARS) continue;
    let token = raw;
    const at = token.search(/https?:\/\//i);
    if (at >= 0) token = token.slice(at);
    else {
      token = token.replace(/^[(*_]+/, "");
      if (!HOST_FIRST.test(token)) continue;
    }
    const key = urlKey(trimTrailing(token));
    if (key) keys.push(key);
    if (keys.length >= MAX_URLS_PER_TEXT) break;
  }
  return keys;
}

/** `url` without the characters that end it in prose; linear (the parens are counted once). */
function trimTrailing(url: string): string {
  let open = 0;
  let close = 0;
  for (const ch of url) {
    if (ch === "(") open++;
    else if (ch === ")") close++;
  }
  let end = url.length;
  for (; end > 0; end--) {
    const last = url[end - 1]!;
    if (".,;:!?'\"*_".includes(last)) continue;
    if (last === ")" && open < close) {
      close--;
      continue;
    }
    break;
  }
  return url.slice(0, end);
}
