// Runs one server tool call the model made (web search or web fetch) and returns its outcome; never throws. Also
// renders an outcome as the tool-result text the model reads in the next step.
import { domainToASCII } from "node:url";
import type { ServerToolOutcome, ServerToolSpec, WebSearchHit } from "../core/contract";
import { urlKey } from "./fetchable-urls";
import { sanitizeHits } from "./sanitize";
import type { SearchBackend } from "./searxng";
import { sentence } from "./sentence";

/** What a web fetch returns (see web-fetch.ts); errors are outcomes too. */
export type PageFetcher = (
  url: string,
  opts: {
    maxChars: number;
    signal: AbortSignal;
    /** The client's domain rule, checked again on every redirect target (false refuses it: `url_not_allowed`). */
    allowHost?: (host: string) => boolean;
  },
) => Promise<ServerToolOutcome & { kind: "web_fetch" }>;

/** The services a call needs, resolved for the request's app. */
export interface ServerToolServices {
  /** The app's search backend; null with `why` when search is off or none is configured. */
  search: SearchBackend | null;
  /** Why `search` is null (shown to the model and logged), e.g. "web search is off for app 'x'". */
  searchUnavailable?: string;
  /** The page fetcher; null with `fetchUnavailable` when fetch is off. */
  fetchPage: PageFetcher | null;
  fetchUnavailable?: string;
  /** Bound on one search or fetch, ms. */
  timeoutMs: number;
}

/** Longest query sent to a backend (Anthropic's `query_too_long` exists for the same reason). */
export const MAX_QUERY_CHARS = 1000;
/** Hits returned per search. */
export const MAX_HITS = 10;
/** Page text returned by default, characters. */
export const DEFAULT_FETCH_CHARS = 100_000;

/**
 * Runs `spec`'s call with `input` (the model's arguments). Outcomes: hits (sanitized: sanitize.ts) or page text;
 * `invalid_tool_input` for a missing query/url, `query_too_long`, `url_not_allowed` for a domain the client excluded,
 * `url_not_in_prior_context` for a URL the conversation never contained (Anthropic's rule: the model may not make up
 * URLs; `fetchable` holds the keys of those it may fetch, default `spec.fetchScope.urls`), `unavailable` when the
 * service is off, fails or takes longer than `timeoutMs` (the message says which). `signal` aborts the call (the
 * client left); the outcome is then `unavailable`. Every message is one sentence ending in one period.
 */
export async function runServerToolCall(
  spec: ServerToolSpec,
  input: Record<string, unknown>,
  services: ServerToolServices,
  signal: AbortSignal,
  fetchable?: ReadonlySet<string>,
): Promise<ServerToolOutcome> {
  const timeout = AbortSignal.timeout(services.timeoutMs);
  const both = AbortSignal.any([timeout, signal]);
  if (spec.kind === "web_search") {
    const query = typeof input.query === "string" ? input.query.trim() : "";
    if (!query) return { kind: "web_search", error: "invalid_tool_input", message: "The search needs a 'query'." };
    if (query.length > MAX_QUERY_CHARS)
      return {
        kind: "web_search",
        error: "query_too_long",
        message: `Queries are limited to ${MAX_QUERY_CHARS} characters.`,
      };
    if (!services.search)
      return {
        kind: "web_search",
        error: "unavailable",
        message: sentence(services.searchUnavailable ?? "Web search is off"),
      };
    try {
      const hits = await services.search.search({ query, limit: MAX_HITS }, both);
      return { kind: "web_search", query, hits: filterHits(sanitizeHits(hits), spec).slice(0, MAX_HITS) };
    } catch (err) {
      const why = timeout.aborted
        ? `${services.search.label} did not answer within ${services.timeoutMs} ms`
        : searchFailure(err, services.search.label);
      return { kind: "web_search", error: "unavailable", message: sentence("Web search failed", why) };
    }
  }
  const url = typeof input.url === "string" ? input.url.trim() : "";
  if (!url) return { kind: "web_fetch", error: "invalid_tool_input", message: "The fetch needs a 'url'." };
  if (url.length > 2048)
    return { kind: "web_fetch", error: "url_too_long", message: "URLs are limited to 2048 characters." };
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return { kind: "web_fetch", error: "invalid_tool_input", message: `'${url.slice(0, 200)}' is not a URL.` };
  }
  if (!domainAllowed(host, spec))
    return { kind: "web_fetch", error: "url_not_allowed", message: `The domain '${host}' is not allowed here.` };
  const key = urlKey(url);
  const known = fetchable ?? new Set(spec.fetchScope?.urls ?? []);
  if (!key || !known.has(key))
    return {
      kind: "web_fetch",
      error: "url_not_in_prior_context",
      message:
        "Only URLs that appeared in the conversation (from the user, a tool result, a search or an earlier fetch) can be fetched.",
    };
  if (!services.fetchPage)
    return {
      kind: "web_fetch",
      error: "unavailable",
      message: sentence(services.fetchUnavailable ?? "Web fetch is off"),
    };
  return services.fetchPage(url, {
    maxChars: spec.maxContentChars ?? DEFAULT_FETCH_CHARS,
    signal: both,
    allowHost: (h) => domainAllowed(h, spec),
  });
}

/** Why a search failed, in words: the backend's own message, or for a connection failure its cause
 *  (`fetch failed` alone says nothing). */
function searchFailure(err: unknown, label: string): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err.cause as { code?: unknown } | undefined)?.code;
  if (err.name === "TypeError" && err.message === "fetch failed")
    return `${label} could not be reached${typeof code === "string" ? ` (${code})` : ""}`;
  return err.message;
}

/** Hits whose host passes the spec's domain filters. */
export function filterHits(hits: readonly WebSearchHit[], spec: ServerToolSpec): WebSearchHit[] {
  return hits.filter((h) => {
    try {
      return domainAllowed(new URL(h.url).hostname, spec);
    } catch {
      return false;
    }
  });
}

/** Anthropic's domain rule: a listed domain matches itself and its subdomains (`example.com` ⊇ `docs.example.com`);
 *  a listed path prefix (`example.com/docs`) is matched on the host part only; internationalised names match their
 *  punycode host. */
export function domainAllowed(host: string, spec: ServerToolSpec): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  const matches = (d: string) => {
    const host = d
      .toLowerCase()
      .replace(/^https?:\/\//, "")
      .split("/")[0]!
      .replace(/\.$/, "");
    // URL hostnames are punycode: `bücher.de` must match `xn--bcher-kva.de`.
    const domain = domainToASCII(host) || host;
    return h === domain || h.endsWith(`.${domain}`);
  };
  if (spec.allowedDomains?.length && !spec.allowedDomains.some(matches)) return false;
  if (spec.blockedDomains?.some(matches)) return false;
  return true;
}

/** The tool-result text the model reads: JSON of the hits (title, url, snippet, page age) or the page text, or an
 *  `Error (<code>): <message>` line that tells the model the tool did not work. */
export function outcomeText(outcome: ServerToolOutcome): string {
  if ("error" in outcome) return `Error (${outcome.error}): ${outcome.message}`;
  if (outcome.kind === "web_search") {
    if (outcome.hits.length === 0) return `No results for ${JSON.stringify(outcome.query)}.`;
    return JSON.stringify(
      outcome.hits.map((h) => ({
        title: h.title,
        url: h.url,
        ...(h.snippet ? { snippet: h.snippet } : {}),
        ...(h.pageAge ? { page_age: h.pageAge } : {}),
      })),
    );
  }
  return `${outcome.title ? `Title: ${outcome.title}\n` : ""}URL: ${outcome.url}\n\n${outcome.text}`;
}
