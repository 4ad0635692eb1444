// Endpoints Codex calls beyond /v1/responses when its provider looks like OpenAI's: `POST /v1/responses/compact`
// (remote compaction) and `POST /v1/alpha/search` (hosted search). Patchbay has neither; both answer (after the key
// is checked) with an error in OpenAI's envelope that says why and what to do, not the generic unknown-route 404.
import type { RequestHandler } from "express";
import { PatchbayError } from "../../core/errors";

/** The paths (below `/v1` and the root) and what each one answers. */
export const CODEX_ONLY_ENDPOINTS: Readonly<Record<string, string>> = {
  "responses/compact":
    "Patchbay has no remote compaction (POST /v1/responses/compact): the models behind it cannot produce OpenAI's " +
    'encrypted summaries. Codex compacts locally when its model provider is not named "OpenAI"; ' +
    '`patchbay launch codex` and `patchbay connect codex` name it "Patchbay".',
  "alpha/search":
    "Patchbay has no standalone search endpoint (POST /v1/alpha/search). Web search runs inside a model request: " +
    'offer the hosted tool {"type":"web_search"} on /v1/responses and Patchbay runs each search with its own search ' +
    'backend and returns web_search_call items (README: "Web search and web fetch").',
};

/** The handler of one of {@link CODEX_ONLY_ENDPOINTS}: always a 404 `not_found` with that path's explanation. */
export function codexOnlyEndpointRoute(path: string): RequestHandler {
  const message = CODEX_ONLY_ENDPOINTS[path] ?? `POST /v1/${path} is not available through Patchbay.`;
  return (_req, _res, next) => next(new PatchbayError("not_found", message));
}
