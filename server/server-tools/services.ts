// Which search backend and fetcher serve an app's server tool calls, from the configuration: the search URL
// (`patchbay serve --search-url`, PATCHBAY_SEARCH_URL, else Settings) and the app's web search switch.
import type { ServerToolServices, PageFetcher } from "./execute";
import { searxngBackend, type SearchBackend } from "./searxng";
import { sentence } from "./sentence";

/** Bound on one search or fetch, ms. */
export const SERVER_TOOL_TIMEOUT_MS = 15_000;

/** Configuration readers (called per request, so changes apply at once). */
export interface ServerToolConfig {
  /** The SearXNG-compatible endpoint, or null when none is configured. */
  searchUrl(): string | null;
  /** The app's web search switch (search and fetch); false turns both off. */
  webSearchOn(app: string): boolean;
  /** The app's name as the user knows it, for messages (`app` is what the backend sees: its data key). */
  appName?(app: string): string;
  /** The page fetcher (web-fetch.ts; tests pass one that may reach loopback). */
  fetchPage: PageFetcher;
  timeoutMs?: number;
}

/** Per-app services for the server tool loop. A search URL that does not parse makes search `unavailable` with the
 *  reason (the dashboard validates it; an environment variable may not be). */
export function serverToolServices(config: ServerToolConfig): (app: string) => ServerToolServices {
  let cached: { url: string; backend: SearchBackend | Error } | null = null;
  const backendFor = (url: string): SearchBackend | Error => {
    if (cached?.url !== url) {
      let backend: SearchBackend | Error;
      try {
        backend = searxngBackend(url);
      } catch (err) {
        backend = err instanceof Error ? err : new Error(String(err));
      }
      cached = { url, backend };
    }
    return cached.backend;
  };
  return (app) => {
    const timeoutMs = config.timeoutMs ?? SERVER_TOOL_TIMEOUT_MS;
    if (!config.webSearchOn(app)) {
      const off = `Web search and fetch are off for app '${config.appName?.(app) ?? app}' in Patchbay.`;
      return { search: null, searchUnavailable: off, fetchPage: null, fetchUnavailable: off, timeoutMs };
    }
    const url = config.searchUrl();
    const backend = url ? backendFor(url) : null;
    if (backend instanceof Error || !backend)
      return {
        search: null,
        searchUnavailable: backend
          ? sentence("Patchbay's search URL is not usable", backend.message)
          : "No web search backend is configured in Patchbay (Settings, --search-url or PATCHBAY_SEARCH_URL).",
        fetchPage: config.fetchPage,
        timeoutMs,
      };
    return { search: backend, fetchPage: config.fetchPage, timeoutMs };
  };
}
