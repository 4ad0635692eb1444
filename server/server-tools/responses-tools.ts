// OpenAI Responses hosted web search tools in `tools[]` that Patchbay runs: `web_search`, `web_search_2025_08_26`
// (`filters.allowed_domains`, `user_location`, `search_context_size`) and `web_search_preview[_2025_03_11]`
// (`user_location`, `search_context_size`). Shapes: `WebSearchTool` / `WebSearchPreviewTool` in the `openai` npm
// package (resources/responses/responses.d.ts) and the Responses API reference.
import type { ServerToolSpec } from "../core/contract";
import { invalidRequest } from "../core/errors";

/** Tool types Patchbay runs as web search. */
export const RESPONSES_WEB_SEARCH_TYPES: ReadonlySet<string> = new Set([
  "web_search",
  "web_search_2025_08_26",
  "web_search_preview",
  "web_search_preview_2025_03_11",
]);

/** The name the model is offered the search by on this wire (Responses has no tool name for hosted tools). */
export const RESPONSES_WEB_SEARCH_NAME = "web_search";

/**
 * The ServerToolSpec of a Responses web search tool, or null for any other tool type. `at` names the tool in errors
 * (`tools[2]`). Throws PatchbayError 400 for `filters` or `filters.allowed_domains` of the wrong shape (an object; an
 * array of domain names; either may be null): a domain restriction the search silently ignored would search everywhere.
 */
export function responsesServerTool(tool: Record<string, unknown>, at = "tools"): ServerToolSpec | null {
  if (typeof tool.type !== "string" || !RESPONSES_WEB_SEARCH_TYPES.has(tool.type)) return null;
  const spec: ServerToolSpec = { kind: "web_search", name: RESPONSES_WEB_SEARCH_NAME };
  const filters = tool.filters;
  if (filters != null) {
    if (typeof filters !== "object" || Array.isArray(filters))
      throw invalidRequest(`Invalid type for '${at}.filters': expected an object.`, `${at}.filters`);
    const allowed = (filters as { allowed_domains?: unknown }).allowed_domains;
    const param = `${at}.filters.allowed_domains`;
    if (allowed != null && (!Array.isArray(allowed) || allowed.some((d) => typeof d !== "string" || d === "")))
      throw invalidRequest(`Invalid '${param}': expected an array of domain names.`, param);
    if (Array.isArray(allowed) && allowed.length) spec.allowedDomains = allowed as string[];
  }
  const loc = tool.user_location;
  if (loc && typeof loc === "object" && !Array.isArray(loc)) {
    const l = loc as Record<string, unknown>;
    const pick = (k: string) => (typeof l[k] === "string" && l[k] !== "" ? { [k]: l[k] as string } : {});
    spec.userLocation = { ...pick("city"), ...pick("region"), ...pick("country"), ...pick("timezone") };
  }
  return spec;
}
