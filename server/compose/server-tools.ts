// The provider's own server tools (web search, web fetch) around the OpenCode backend: Patchbay runs each call and
// the model continues with the results (server-tools/loop.ts). Wired from the settings and each app's switch.
import { appDataKey, type App } from "../../shared/apps";
import type { ModelBackend } from "../core/contract";
import { withServerTools } from "../server-tools/loop";
import { serverToolServices } from "../server-tools/services";
import { createWebFetcher } from "../server-tools/web-fetch";
import type { PatchbayDeps } from "../patchbay-types";

/** What the wiring reads: the apps (by data key: the backend sees that, not the name) and the search URL. */
export interface ServerToolWiring {
  apps: () => readonly App[];
  /** The search backend's URL now (`--search-url` / PATCHBAY_SEARCH_URL win over Settings). */
  searchUrl: () => string | null;
  deps: Pick<PatchbayDeps, "webFetchAllowAddress">;
  log: (line: string) => void;
}

/** `backend` with server tools run by Patchbay; each call is one log line (app, kind, target, backend, time). */
export function wireServerTools(backend: ModelBackend, w: ServerToolWiring): ModelBackend {
  const byKey = (key: string): App | undefined => w.apps().find((a) => appDataKey(a) === key);
  const allow = w.deps.webFetchAllowAddress;
  return withServerTools(backend, {
    services: serverToolServices({
      searchUrl: w.searchUrl,
      webSearchOn: (key) => byKey(key)?.webSearch ?? false,
      appName: (key) => byKey(key)?.name ?? key,
      fetchPage: createWebFetcher(allow ? { allowAddress: allow } : {}),
    }),
    onCall: (app, c) =>
      w.log(
        // The time goes first: an error message ends a sentence ("… 15000 ms.") and must not run into "in N ms".
        `${app}: ${c.kind} ${JSON.stringify(c.target.slice(0, 200))} via ${c.backend} (${c.ms} ms): ${c.error ?? `${c.results} result(s)`}`,
      ),
  });
}
