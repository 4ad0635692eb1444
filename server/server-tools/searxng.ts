// Web search through a SearXNG-compatible JSON endpoint (`GET <base>/search?q=…&format=json` →
// `{results:[{url,title,content,publishedDate?}]}`, SearXNG's documented Search API). The endpoint is the user's own
// configuration, not model input, so it may be on loopback or the LAN (self-hosted SearXNG usually is).
import { z } from "zod";
import type { WebSearchHit } from "../core/contract";

/** One search as the backend runs it. */
export interface SearchQuery {
  query: string;
  /** Most hits returned (after domain filters). */
  limit: number;
  /** BCP 47-ish language for the backend (SearXNG `language`), when the client's location implies none: absent. */
  language?: string;
}

/** A search backend: resolves to hits, or throws (an Error whose message is safe to show) on any failure. */
export interface SearchBackend {
  /** Shown in logs and the dashboard (e.g. `SearXNG at http://127.0.0.1:8888`). */
  readonly label: string;
  search(q: SearchQuery, signal: AbortSignal): Promise<WebSearchHit[]>;
}

/** SearXNG's JSON answer: a `results` list. Each result is read field by field ({@link hitOf}), so one malformed
 *  result is dropped instead of failing the whole search. */
const SearxAnswer = z.object({ results: z.array(z.unknown()) });

/** A result as a hit when it has a string `url` (else null); non-string `title`/`content`/`publishedDate` are
 *  ignored. Cleaning (control characters, lengths, http(s) only) is sanitize.ts's, for every backend. */
function hitOf(result: unknown): WebSearchHit | null {
  if (typeof result !== "object" || result === null) return null;
  const r = result as Record<string, unknown>;
  if (typeof r.url !== "string" || !/^https?:\/\//i.test(r.url)) return null;
  const text = (v: unknown): string => (typeof v === "string" ? v.trim() : "");
  const published = text(r.publishedDate);
  return {
    url: r.url,
    title: text(r.title) || r.url,
    snippet: text(r.content),
    ...(published ? { pageAge: published } : {}),
  };
}

/** The largest answer body read, bytes (a SearXNG page of results is a few tens of KiB). */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/**
 * A SearXNG-compatible backend at `baseUrl` (with or without a trailing `/`; `/search` is appended). Throws at
 * construction for a URL that is not http(s). `search` throws Error for a non-2xx answer, a body that is not the
 * JSON format (SearXNG answers 403 when `json` is not among its `search.formats`), or one over 2 MiB.
 */
export function searxngBackend(baseUrl: string): SearchBackend {
  const base = new URL(baseUrl);
  if (base.protocol !== "http:" && base.protocol !== "https:")
    throw new Error(`The search URL must be http(s), not '${base.protocol}'.`);
  const endpoint = new URL(base.pathname.replace(/\/?$/, "/search"), base);
  const label = `SearXNG at ${base.origin}`;
  return {
    label,
    async search(q, signal) {
      const url = new URL(endpoint);
      url.searchParams.set("q", q.query);
      url.searchParams.set("format", "json");
      if (q.language) url.searchParams.set("language", q.language);
      const res = await fetch(url, { signal, headers: { accept: "application/json" }, redirect: "error" });
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        const hint = res.status === 403 ? " (is 'json' enabled in SearXNG's search.formats?)" : "";
        throw new Error(`${label} answered HTTP ${res.status}${hint}.`);
      }
      const text = await readCapped(res, MAX_ANSWER_BYTES, label);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new Error(`${label} did not answer JSON.`);
      }
      const parsed = SearxAnswer.safeParse(json);
      if (!parsed.success) throw new Error(`${label} answered JSON without a 'results' list.`);
      const hits = parsed.data.results.map(hitOf).filter((h): h is WebSearchHit => h !== null);
      return hits;
    },
  };
}

async function readCapped(res: Response, max: number, label: string): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`${label} answered more than ${max} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
