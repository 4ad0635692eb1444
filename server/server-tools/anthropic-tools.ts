// Anthropic server tools in a Messages request (`tools[]` entries with a dated `type`): which of them Patchbay runs
// and their options. Shapes: `WebSearchTool20250305` / `WebSearchTool20260209` and `WebFetchTool20250910` in
// @anthropic-ai/sdk (src/resources/messages/messages.ts) and the Anthropic API reference "Web search tool" /
// "Web fetch tool".
import type { ServerToolSpec } from "../core/contract";
import { invalidRequest } from "../core/errors";

/** Characters per token assumed when `max_content_tokens` caps a fetched page's text. */
const CHARS_PER_TOKEN = 4;

/**
 * The ServerToolSpec of an Anthropic tool definition, or null when it is not a web search/fetch tool (other server
 * tools, e.g. code execution, stay unsupported). `tool` is the raw definition (the request schema keeps unknown
 * fields). Throws PatchbayError 400 (`param` at `at`) for `allowed_domains` together with `blocked_domains` (the
 * API refuses that too) and for options of the wrong type.
 */
export function anthropicServerTool(tool: Record<string, unknown>, at: string): ServerToolSpec | null {
  const type = typeof tool.type === "string" ? tool.type : "";
  const kind = /^web_search_\d{8}$/.test(type) ? "web_search" : /^web_fetch_\d{8}$/.test(type) ? "web_fetch" : null;
  if (!kind) return null;
  const name = typeof tool.name === "string" ? tool.name : kind;
  const spec: ServerToolSpec = { kind, name };
  const maxUses = tool.max_uses;
  if (maxUses != null) {
    if (typeof maxUses !== "number" || !Number.isInteger(maxUses) || maxUses < 1)
      throw invalidRequest(`Invalid '${at}.max_uses': expected a positive integer.`, `${at}.max_uses`);
    spec.maxUses = maxUses;
  }
  const allowed = domains(tool.allowed_domains, `${at}.allowed_domains`);
  const blocked = domains(tool.blocked_domains, `${at}.blocked_domains`);
  if (allowed && blocked)
    throw invalidRequest(
      `Invalid '${at}': 'allowed_domains' and 'blocked_domains' cannot be used together.`,
      `${at}.blocked_domains`,
    );
  if (allowed) spec.allowedDomains = allowed;
  if (blocked) spec.blockedDomains = blocked;
  const loc = tool.user_location;
  if (loc != null && typeof loc === "object" && !Array.isArray(loc)) {
    const l = loc as Record<string, unknown>;
    const pick = (k: string) => (typeof l[k] === "string" && l[k] !== "" ? { [k]: l[k] as string } : {});
    spec.userLocation = { ...pick("city"), ...pick("region"), ...pick("country"), ...pick("timezone") };
  }
  const maxTokens = tool.max_content_tokens;
  if (kind === "web_fetch" && typeof maxTokens === "number" && maxTokens > 0)
    spec.maxContentChars = Math.floor(maxTokens * CHARS_PER_TOKEN);
  return spec;
}

function domains(value: unknown, param: string): string[] | undefined {
  if (value == null) return undefined;
  if (!Array.isArray(value) || value.some((d) => typeof d !== "string" || d === ""))
    throw invalidRequest(`Invalid '${param}': expected an array of domain names.`, param);
  return value.length ? (value as string[]) : undefined;
}
