// Responses `tools` and `tool_choice` → neutral function tools, plus the map that turns the model's calls back into
// the client's shapes (OpenAPI `Tool` union, openai/openai-openapi). Function tools pass as they are; namespace
// members become functions named `<namespace>__<name>`; custom tools become functions with one string argument
// `input`; hosted tools are dropped with a warning (400 only when `tool_choice` forces one). Pure: no I/O.
import { createHash } from "node:crypto";
import type { PatchbayWarning, ServerToolSpec, ToolChoice, ToolDefinition } from "../../core/contract";
import { quoteClientText as q } from "../../core/client-text";
import { PatchbayError, invalidRequest, unsupportedParameter } from "../../core/errors";
import { assertJsonDepth } from "../../core/json-depth";
import { decodeToolChoiceKeyword, uniqueToolNames } from "../../core/tool-helpers";
import { WarningList, warn } from "../../core/warnings";
import { formatParam, parseWire, type WirePath } from "../../core/wire-parse";
import { RESPONSES_WEB_SEARCH_TYPES, responsesServerTool } from "../../server-tools/responses-tools";
import {
  ResponsesCustomTool,
  ResponsesFunctionTool,
  ResponsesNamespaceTool,
  type ResponsesRequest,
} from "./request-schema";
import type {
  ResponseCustomToolOut,
  ResponseFunctionToolOut,
  ResponseToolChoiceOut,
  ResponseToolOut,
  ResponseWebSearchToolOut,
} from "./wire-types";

/** Tool types OpenAI runs on its side (or that need call items Patchbay does not produce): OpenAPI `Tool` union
 *  members other than function/custom/namespace. Offered → dropped with a warning; forced → 400. */
export const HOSTED_TOOL_TYPES: ReadonlySet<string> = new Set([
  "web_search",
  "web_search_2025_08_26",
  "web_search_preview",
  "web_search_preview_2025_03_11",
  "file_search",
  "code_interpreter",
  "computer",
  "computer_use",
  "computer_use_preview",
  "image_generation",
  "mcp",
  "tool_search",
  "programmatic_tool_calling",
  // Client-executed, but answered with their own call items (local_shell_call, shell_call, apply_patch_call) that
  // Patchbay does not produce: offer a function or custom tool instead.
  "local_shell",
  "shell",
  "apply_patch",
]);

/** What a neutral (flat) tool name stands for on the Responses wire. */
export interface WireToolName {
  kind: "function" | "custom";
  /** The client's own name (a namespace member's name without the namespace). */
  name: string;
  namespace?: string;
}

/** Flat tool name (as the model sees it) → the client's tool. Only names that differ or are custom are needed, but
 *  every client tool is listed so lookups are exact. */
export type ToolNameMap = Map<string, WireToolName>;

/** The decoded tools of a Responses request. */
export interface DecodedResponsesTools {
  tools: ToolDefinition[];
  echo: ResponseToolOut[];
  names: ToolNameMap;
  /** Dropped hosted tools (`tools[i]` and its type), for warnings and forced-tool errors. */
  hosted: Array<{ param: string; type: string }>;
  /** Hosted web search, which Patchbay runs (server/server-tools/); at most one. */
  serverTools: ServerToolSpec[];
  warnings: PatchbayWarning[];
}

/** Provider-safe tool names: OpenAI and Anthropic accept `^[a-zA-Z0-9_-]{1,64}$`. */
const MAX_NAME = 64;
const SAFE_NAME = /^[A-Za-z0-9_-]+$/;
const NAMESPACE_SEPARATOR = "__";

/**
 * The flat name a namespace member is offered under: `<namespace>__<name>` when that is provider-safe (charset
 * `[A-Za-z0-9_-]`, at most 64 characters), else a sanitised prefix plus 8 hex digits of a hash of both names, so the
 * result is deterministic (history items map to the same name without the tool list) and within 64 characters.
 */
export function flattenToolName(namespace: string | null | undefined, name: string): string {
  if (!namespace) return name;
  const joined = `${namespace}${NAMESPACE_SEPARATOR}${name}`;
  if (joined.length <= MAX_NAME && SAFE_NAME.test(joined)) return joined;
  const hash = createHash("sha256").update(`${namespace}\u0000${name}`).digest("hex").slice(0, 8);
  return `${joined.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAX_NAME - 9)}_${hash}`;
}

/** The one-argument schema a custom tool is offered with. */
export function customToolParameters(description: string): Record<string, unknown> {
  return {
    type: "object",
    properties: { input: { type: "string", description } },
    required: ["input"],
    additionalProperties: false,
  };
}

interface Collected {
  tools: ToolDefinition[];
  echo: ResponseToolOut[];
  names: ToolNameMap;
  params: string[];
  warnings: WarningList;
}

function addFunction(
  raw: unknown,
  path: WirePath,
  namespace: string | undefined,
  out: Collected,
): ResponseFunctionToolOut {
  const t = parseWire(ResponsesFunctionTool, raw, path);
  const param = formatParam(path);
  if (t.parameters) assertJsonDepth(t.parameters, `${param}.parameters`);
  const parameters = t.parameters ?? { type: "object", properties: {} };
  const flat = flattenToolName(namespace, t.name);
  out.tools.push({
    name: flat,
    ...(t.description == null ? {} : { description: t.description }),
    parameters,
    ...(t.strict == null ? {} : { strict: t.strict }),
  });
  out.names.set(flat, { kind: "function", name: t.name, ...(namespace ? { namespace } : {}) });
  out.params.push(`${param}.name`);
  return { type: "function", name: t.name, description: t.description ?? null, parameters, strict: t.strict ?? null };
}

function addCustom(raw: unknown, path: WirePath, namespace: string | undefined, out: Collected): ResponseCustomToolOut {
  const t = parseWire(ResponsesCustomTool, raw, path);
  const format = t.format ?? { type: "text" as const };
  const flat = flattenToolName(namespace, t.name);
  let inputNote = "The raw text input for this tool.";
  if (format.type === "grammar") {
    inputNote = `The raw text input for this tool. It must match this ${format.syntax} grammar:\n${format.definition}`;
    out.warnings.add(
      warn.approximated(
        `${formatParam(path)}.format`,
        `custom tool ${q(t.name)}: its ${format.syntax} grammar is not enforced by the provider; it is given to the model in the description of the \`input\` argument`,
      ),
    );
  }
  out.tools.push({
    name: flat,
    ...(t.description == null ? {} : { description: t.description }),
    parameters: customToolParameters(inputNote),
  });
  out.names.set(flat, { kind: "custom", name: t.name, ...(namespace ? { namespace } : {}) });
  out.params.push(`${formatParam(path)}.name`);
  return { type: "custom", name: t.name, ...(t.description == null ? {} : { description: t.description }), format };
}

function unknownToolType(type: string, param: string): PatchbayError {
  return new PatchbayError(
    "unsupported_value",
    `Tool type ${q(type)} ('${param}') is not supported: Patchbay accepts function, custom and namespace tools, and drops OpenAI's hosted tools (web_search, file_search, …).`,
    { param },
  );
}

/** The echo of the web search tool `spec` was read from: only what Patchbay read (a client's extra fields, deep or
 *  huge, never come back). */
function webSearchEcho(tool: { type: string; [k: string]: unknown }, spec: ServerToolSpec): ResponseWebSearchToolOut {
  const size = tool.search_context_size;
  const location = spec.userLocation && Object.keys(spec.userLocation).length > 0 ? spec.userLocation : null;
  return {
    type: tool.type as ResponseWebSearchToolOut["type"],
    ...(spec.allowedDomains ? { filters: { allowed_domains: spec.allowedDomains } } : {}),
    ...(size === "low" || size === "medium" || size === "high" ? { search_context_size: size } : {}),
    ...(location ? { user_location: { type: "approximate" as const, ...location } } : {}),
    ...(typeof tool.external_web_access === "boolean" ? { external_web_access: tool.external_web_access } : {}),
  };
}

/**
 * Decodes `tools`: function tools as they are; `namespace` members as functions named {@link flattenToolName};
 * `custom` tools as a function with one string argument `input` (a grammar is described, not enforced: warning);
 * hosted tools ({@link HOSTED_TOOL_TYPES}) dropped, each named in one warning.
 * @throws PatchbayError 400 naming the field: an unknown tool type (`tools[i].type`), a bad function/custom/namespace
 *   tool (`tools[i].name`, `tools[i].tools[j].name`, …), two tools with the same flat name.
 */
export function decodeResponsesTools(req: ResponsesRequest): DecodedResponsesTools {
  const out: Collected = { tools: [], echo: [], names: new Map(), params: [], warnings: new WarningList() };
  const hosted: DecodedResponsesTools["hosted"] = [];
  const serverTools: ServerToolSpec[] = [];
  (req.tools ?? []).forEach((tool, i) => {
    const type = tool.type;
    // Client JSON Patchbay keeps (logs, stores, echoes) is bounded like the rest: a hosted tool's fields too (client
    // tools are checked field by field below, naming the deep one).
    if (type !== "function" && type !== "custom" && type !== "namespace") assertJsonDepth(tool, `tools[${i}]`);
    const run = serverTools.length ? null : responsesServerTool(tool, `tools[${i}]`);
    if (run) {
      serverTools.push(run);
      out.echo.push(webSearchEcho(tool, run));
    } else if (RESPONSES_WEB_SEARCH_TYPES.has(type))
      // A second one would run with the first one's filters: refused rather than silently ignored.
      throw invalidRequest(
        `Invalid 'tools[${i}]': only one web search tool per request (tools[${(req.tools ?? []).findIndex((t) => RESPONSES_WEB_SEARCH_TYPES.has(t.type))}] is one already).`,
        `tools[${i}]`,
      );
    else if (type === "function") out.echo.push(addFunction(tool, ["tools", i], undefined, out));
    else if (type === "custom") out.echo.push(addCustom(tool, ["tools", i], undefined, out));
    else if (type === "namespace") {
      const ns = parseWire(ResponsesNamespaceTool, tool, ["tools", i]);
      const members = ns.tools.map((member, j) => {
        const path = ["tools", i, "tools", j];
        if (member.type === "function") return addFunction(member, path, ns.name, out);
        if (member.type === "custom") return addCustom(member, path, ns.name, out);
        throw unknownToolType(member.type, `${formatParam(path)}.type`);
      });
      out.echo.push({ type: "namespace", name: ns.name, description: ns.description ?? "", tools: members });
    } else if (HOSTED_TOOL_TYPES.has(type)) hosted.push({ param: `tools[${i}]`, type });
    else throw unknownToolType(type, `tools[${i}].type`);
  });
  uniqueToolNames(out.tools, (k) => out.params[k] ?? "tools");
  if (hosted.length > 0) {
    const list = hosted.map((h) => `${h.type} (${h.param})`).join(", ");
    out.warnings.add(
      warn.dropped(
        "tools",
        `hosted tools are not available through Patchbay and were not offered to the model: ${list}`,
      ),
    );
  }
  return { tools: out.tools, echo: out.echo, names: out.names, hosted, serverTools, warnings: out.warnings.list };
}

function hostedRefusal(forced: string[], hosted: DecodedResponsesTools["hosted"]): PatchbayError {
  const offered = hosted.length
    ? ` Hosted tools in 'tools': ${hosted.map((h) => `${h.type} (${h.param})`).join(", ")}.`
    : "";
  return unsupportedParameter(
    "tool_choice",
    `'tool_choice' forces hosted tool${forced.length > 1 ? "s" : ""} ${forced.map((t) => q(t)).join(", ")}, which Patchbay cannot run (OpenAI runs hosted tools on its side).${offered} Use 'auto' or 'required', or force one of your own function or custom tools.`,
  );
}

/**
 * Decodes `tool_choice`: keywords; `{type: "function", name}` and `{type: "custom", name}` (the name as the client
 * declared it, top-level tools only). A hosted tool type, an `mcp` choice, or `allowed_tools` naming hosted tools →
 * 400 listing every hosted tool at once; `allowed_tools` otherwise → 400 (not supported).
 */
export function decodeResponsesToolChoice(
  req: ResponsesRequest,
  decoded: DecodedResponsesTools,
): { choice: ToolChoice; echo: ResponseToolChoiceOut } {
  const choice = req.tool_choice;
  if (
    choice === "required" &&
    decoded.tools.length === 0 &&
    decoded.serverTools.length === 0 &&
    decoded.hosted.length > 0
  ) {
    const list = decoded.hosted.map((h) => `${h.type} (${h.param})`).join(", ");
    throw invalidRequest(
      `Invalid 'tool_choice': 'required' needs a function, custom or namespace tool in 'tools'; hosted tools are not available through Patchbay: ${list}.`,
      "tool_choice",
    );
  }
  // 'required' with only the web search Patchbay runs: the model must search (its function is added by the loop).
  if (choice === "required" && decoded.tools.length === 0 && decoded.serverTools.length > 0)
    return { choice: "required", echo: "required" };
  const keyword = decodeToolChoiceKeyword(choice, decoded.tools);
  if (keyword) return { choice: keyword, echo: keyword as ResponseToolChoiceOut };
  if (choice == null || typeof choice === "string") return { choice: "auto", echo: "auto" }; // unreachable
  const type = choice.type;
  if (type === "allowed_tools") {
    const named = (choice.tools ?? []).map((t) => t.type).filter((t) => HOSTED_TOOL_TYPES.has(t));
    if (named.length > 0) throw hostedRefusal(named, decoded.hosted);
    throw unsupportedParameter(
      "tool_choice",
      "'tool_choice' of type 'allowed_tools' is not supported: offer only the tools you allow, with 'auto' or 'required'.",
    );
  }
  // Forcing the web search Patchbay runs: the model must call a tool (approximated as 'required').
  if (RESPONSES_WEB_SEARCH_TYPES.has(type) && decoded.serverTools.length)
    return { choice: "required", echo: { type } as never };
  if (HOSTED_TOOL_TYPES.has(type) || type === "mcp") throw hostedRefusal([type], decoded.hosted);
  if ((type !== "function" && type !== "custom") || !choice.name) {
    throw unsupportedParameter(
      "tool_choice",
      `'tool_choice' of type ${q(type)} is not supported: use 'auto', 'none', 'required', {type: 'function', name} or {type: 'custom', name}.`,
    );
  }
  const name = choice.name;
  const declared = decoded.names.get(name);
  if (!declared || declared.namespace || declared.kind !== type) {
    const what = type === "custom" ? "custom tool" : "function";
    throw invalidRequest(`Invalid 'tool_choice': ${what} ${q(name)} is not in 'tools'.`, "tool_choice");
  }
  return { choice: { type: "function", name }, echo: { type, name } };
}
