// Cleans what a search backend or a fetched page says before it reaches the model and the client: control characters
// removed, lengths capped, results without an http(s) URL dropped. Backends are outside Patchbay's control (a
// self-hosted SearXNG relays any engine's text), so every hit passes through here. Pure; no I/O.
import type { WebSearchHit } from "../core/contract";

/** Most characters of a hit's title (titles are one line; search engines cut theirs at about 60–70). */
export const MAX_TITLE_CHARS = 300;
/** Most characters of a hit's snippet (SearXNG's `content` is a few sentences; Anthropic cites at most 150). */
export const MAX_SNIPPET_CHARS = 1_000;
/** Most characters of a hit's page age (a date or "3 days ago"). */
export const MAX_PAGE_AGE_CHARS = 100;
/** Longest result URL kept (the same bound as a fetched URL, Anthropic's `url_too_long`). */
export const MAX_URL_CHARS = 2048;

/**
 * C0 controls but tab and newline, DEL, C1 controls, and the bidirectional embedding/override/isolate marks (which
 * can make text read differently from what it is, "Trojan Source").
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without control characters (\n and \t kept; \r\n and \r become \n). */
export function stripControl(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(CONTROL, "");
}

/** One line: control characters removed, runs of whitespace (newlines included) folded to one space, trimmed, cut
 *  at `max` characters (with "…" when cut). */
export function cleanLine(text: string, max: number): string {
  return cap(stripControl(text).replace(/\s+/g, " ").trim(), max);
}

/** Free text: control characters removed, trimmed, cut at `max` characters (with "…" when cut). */
export function cleanText(text: string, max: number): string {
  return cap(stripControl(text).trim(), max);
}

function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  // Do not leave half of a surrogate pair at the cut.
  const cut = /[\ud800-\udbff]/.test(text[max - 2] ?? "") ? max - 2 : max - 1;
  return `${text.slice(0, cut)}…`;
}

/** The hit's URL if it is a well-formed http(s) URL without control characters or credentials and at most
 *  {@link MAX_URL_CHARS} long, else null. */
export function cleanUrl(raw: string): string | null {
  const url = raw.trim();
  if (url.length > MAX_URL_CHARS || url !== stripControl(url) || /\s/.test(url)) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    if (parsed.username || parsed.password) return null;
  } catch {
    return null;
  }
  return url;
}

/** Hits as they may be shown: each field cleaned and capped; hits without a usable URL dropped. A hit without a
 *  title is titled by its URL. */
export function sanitizeHits(hits: readonly WebSearchHit[]): WebSearchHit[] {
  const out: WebSearchHit[] = [];
  for (const hit of hits) {
    const url = typeof hit.url === "string" ? cleanUrl(hit.url) : null;
    if (!url) continue;
    const title = cleanLine(String(hit.title ?? ""), MAX_TITLE_CHARS);
    const pageAge = hit.pageAge ? cleanLine(String(hit.pageAge), MAX_PAGE_AGE_CHARS) : "";
    out.push({
      url,
      title: title || cap(url, MAX_TITLE_CHARS),
      snippet: cleanText(String(hit.snippet ?? ""), MAX_SNIPPET_CHARS),
      ...(pageAge ? { pageAge } : {}),
    });
  }
  return out;
}
