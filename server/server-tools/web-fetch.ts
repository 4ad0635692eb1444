// Web fetch for the server tool loop: one page over http(s) through the SSRF-guarded fetcher Patchbay uses for remote
// images (server/security/remote-image.ts: every DNS answer checked, connection pinned, redirects re-checked), with a
// size cap and a timeout, returned as plain text (HTML converted by html-to-text).
import type { convert as Convert } from "html-to-text";
import type { ServerToolOutcome } from "../core/contract";
import { PatchbayError } from "../core/errors";
import { fetchRemoteImage } from "../security/remote-image";
import type { PageFetcher } from "./execute";
import { cleanLine, cleanText, MAX_TITLE_CHARS } from "./sanitize";
import { sentence } from "./sentence";

/** Largest page body downloaded, bytes. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;

const TEXT_TYPES = /^(text\/[a-z0-9.+-]+|application\/(json|xml|xhtml\+xml|[a-z0-9.-]+\+(json|xml)))$/;

/** Seams for tests: loopback is allowed only through `allowAddress` (the default refuses it). */
export interface WebFetchOptions {
  allowAddress?: (ip: string) => boolean;
  resolve?: (host: string) => Promise<string[]>;
  maxBytes?: number;
  /** Clock for `retrieved_at`. */
  now?: () => number;
}

/**
 * A PageFetcher. Outcomes: the page text (at most `maxChars`, cut with a marker) with its `<title>`; errors as codes:
 * `unsupported_content_type` (not text/HTML/JSON/XML), `url_not_accessible` (refused address, HTTP error, too large,
 * too many redirects, timeout, network failure; the message says which), `unavailable` when the client left.
 */
export function createWebFetcher(options: WebFetchOptions = {}): PageFetcher {
  return async (url, { maxChars, signal, allowHost }) => {
    const notAllowed = (host: string) => `A redirect led to the domain '${host}', which is not allowed here.`;
    try {
      const page = await fetchRemoteImage(url, {
        maxBytes: options.maxBytes ?? MAX_PAGE_BYTES,
        // The caller's signal carries the per-call timeout; this one is only the guard's own backstop.
        timeoutMs: 60_000,
        acceptMediaType: (t) => TEXT_TYPES.test(t),
        signal,
        ...(options.allowAddress ? { allowAddress: options.allowAddress } : {}),
        ...(options.resolve ? { resolve: options.resolve } : {}),
        ...(allowHost ? { allowRedirect: (t: URL) => (allowHost(t.hostname) ? null : notAllowed(t.hostname)) } : {}),
      });
      const raw = Buffer.from(page.dataUrl.slice(page.dataUrl.indexOf(",") + 1), "base64").toString("utf8");
      const html = /html/.test(page.mediaType);
      const title = html ? (/<title[^>]*>([^<]*)<\/title>/i.exec(raw)?.[1]?.trim() ?? null) : null;
      const convert = html ? await htmlToText() : null;
      // Links come out as `text [absolute URL]`, so the model can fetch a page this one links to (fetchable-urls.ts).
      const converted = convert
        ? convert(raw, {
            wordwrap: false,
            selectors: [
              { selector: "img", format: "skip" },
              { selector: "a", options: { baseUrl: page.finalUrl } },
            ],
          })
        : raw;
      // The page is the web's text, not ours: no control characters reach the model or the client.
      let text = cleanText(converted, Number.POSITIVE_INFINITY);
      if (text.length > maxChars) text = `${text.slice(0, maxChars)}\n[… page text cut at ${maxChars} characters]`;
      return {
        kind: "web_fetch",
        // Where the text came from (after redirects), so the client and the model cite the right page.
        url: page.finalUrl,
        title: title && convert ? cleanLine(convert(title, { wordwrap: false }), MAX_TITLE_CHARS) || null : null,
        mediaType: page.mediaType,
        text,
        retrievedAt: new Date((options.now ?? Date.now)()).toISOString(),
      };
    } catch (err) {
      if (err instanceof Error && err.message.startsWith("A redirect led to the domain"))
        return { kind: "web_fetch", error: "url_not_allowed", message: err.message };
      return fetchError(err, signal);
    }
  };
}

function fetchError(err: unknown, signal: AbortSignal): ServerToolOutcome & { kind: "web_fetch" } {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    const timedOut = reason instanceof DOMException && reason.name === "TimeoutError";
    return {
      kind: "web_fetch",
      error: timedOut ? "url_not_accessible" : "unavailable",
      message: timedOut ? "The page did not answer in time." : "The fetch was cancelled.",
    };
  }
  // The guard words its errors for images; the model reads them about a page.
  const message = sentence(
    (err instanceof Error ? err.message : String(err))
      .replace(/ Send other images inline as a data: URL\./g, "")
      .replace(
        /is not an image: (content-type '[^']*') \(only image\/\* is accepted\)/,
        "is not text: $1 (web fetch reads text, HTML, JSON and XML)",
      )
      .replace(/\b([Ii])mage URLs\b/g, "$1URLs")
      .replace(/\bimages\b/g, "pages")
      .replace(/\bImage\b/g, "Page")
      .replace(/\bimage\b(?!\/)/g, "page"), // not in a media type ('image/png')
  );
  if (err instanceof PatchbayError && err.code === "unsupported_media_type")
    return { kind: "web_fetch", error: "unsupported_content_type", message };
  return { kind: "web_fetch", error: "url_not_accessible", message };
}

/** html-to-text's `convert`, loaded on the first page fetched (issue 26 item 3: ≈ 2 MB nobody needs until then). */
let converter: Promise<typeof Convert> | null = null;
function htmlToText(): Promise<typeof Convert> {
  converter ??= import("html-to-text").then((m) => m.convert);
  return converter;
}
