// Anthropic server tools in a Messages request (`tools[]` entries with a dated `type`): which of them Patchbay runs
// and their options. Shapes: `WebSearchTool20250305` / `WebSearchTool20260209` and `WebFetchTool20250910` in
// @anthropic-ai/sdk (src/resources/messages/messages.ts) and the Anthropic API reference "Web search tool" /
// "Web fetch tool".
import type { ServerToolSpec, ToolSourceRule } from "../core/contract";
import { invalidRequest } from "../core/errors";
import { ALL_URL_SOURCES, type UrlSources } from "./fetchable-urls";

/** Characters per token assumed when `max_content_tokens` caps a fetched page's text. */
const CHARS_PER_TOKEN = 4;

/**
 * The ServerToolSpec of an Anthropic tool definition, or null when it is not a web search/fetch tool (other server
 * tools, e.g. code execution, stay unsupported). `tool` is the raw definition (the request schema keeps unknown
 * fields). Throws PatchbayError 400 (`param` at `at`) for `allowed_domains` together with `blocked_domains` (the
 * API refuses that too), for a domain entry no host can match (`*.example.com`: a `*` belongs in the path) and for
 * options of the wrong type.
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
      `Invalid '${at}.blocked_domains': 'allowed_domains' and 'blocked_domains' cannot be used together; keep one of them.`,
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

/** The host part of a domain entry (`example.com/docs` → `example.com`; a scheme is tolerated, as domainAllowed does):
 *  letters (any script), digits, `-` and `.`, at least one label. */
const DOMAIN_HOST = /^(?:https?:\/\/)?[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.?(?:\/|$)/iu;

function domains(value: unknown, param: string): string[] | undefined {
  if (value == null) return undefined;
  if (!Array.isArray(value) || value.some((d) => typeof d !== "string" || d === ""))
    throw invalidRequest(`Invalid '${param}': expected an array of domain names.`, param);
  // An entry no host can match (`*.example.com`, ` example.com`) would make a block list silently block nothing.
  value.forEach((d: string, i) => {
    if (!DOMAIN_HOST.test(d))
      throw invalidRequest(
        `Invalid '${param}[${i}]': ${JSON.stringify(d.slice(0, 100))} is not a domain name (use example.com or example.com/path; subdomains are included, and a * may appear only in the path).`,
        `${param}[${i}]`,
      );
  });
  return value.length ? (value as string[]) : undefined;
}

/**
 * A web fetch tool's `url_sources` (WebFetchURLSources in @anthropic-ai/sdk): `user_input` `{type: "all" | "none"}`,
 * `client_tool_results` / `server_tool_results` `{type: "all" | "none"}` or `{type: "only" | "except", tools:
 * [{type: "tool_reference", name}]}`; an absent field (or an absent `url_sources`) is `all`. `toolNames` are the
 * request's tool names: a reference must name one of them. Throws PatchbayError 400 naming the field otherwise.
 */
export function anthropicUrlSources(
  tool: Record<string, unknown>,
  at: string,
  toolNames: ReadonlySet<string>,
): UrlSources {
  const value = tool.url_sources;
  if (value == null) return ALL_URL_SOURCES;
  const param = `${at}.url_sources`;
  if (typeof value !== "object" || Array.isArray(value))
    throw invalidRequest(`Invalid '${param}': expected an object.`, param);
  const v = value as Record<string, unknown>;
  const user = sourceRule(v.user_input, `${param}.user_input`, toolNames, false);
  return {
    userInput: user.type === "none" ? "none" : "all",
    clientToolResults: sourceRule(v.client_tool_results, `${param}.client_tool_results`, toolNames, true),
    serverToolResults: sourceRule(v.server_tool_results, `${param}.server_tool_results`, toolNames, true),
  };
}

function sourceRule(value: unknown, param: string, toolNames: ReadonlySet<string>, lists: boolean): ToolSourceRule {
  if (value == null) return { type: "all" };
  const types = lists ? "'all', 'none', 'only' or 'except'" : "'all' or 'none'";
  const type = typeof value === "object" && !Array.isArray(value) ? (value as { type?: unknown }).type : undefined;
  if (type === "all" || type === "none") return { type };
  if (!lists || (type !== "only" && type !== "except"))
    throw invalidRequest(`Invalid '${param}.type': expected ${types}.`, `${param}.type`);
  const tools = (value as { tools?: unknown }).tools;
  if (!Array.isArray(tools))
    throw invalidRequest(`Invalid '${param}.tools': expected an array of tool references.`, `${param}.tools`);
  const names = tools.map((ref: unknown, i) => {
    const name = typeof ref === "object" && ref !== null ? (ref as { name?: unknown }).name : undefined;
    if (typeof name !== "string" || name === "")
      throw invalidRequest(`Invalid '${param}.tools[${i}].name': expected a tool name.`, `${param}.tools[${i}].name`);
    if (!toolNames.has(name))
      throw invalidRequest(
        `Invalid '${param}.tools[${i}].name': '${name.slice(0, 64)}' is not a tool of this request.`,
        `${param}.tools[${i}].name`,
      );
    return name;
  });
  return { type, tools: names };
}
