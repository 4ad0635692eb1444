// Anthropic Messages request → NeutralRequest (Anthropic API reference, "Messages" → "Create a Message").
// Pure: validates and maps; a client-caused problem is a 400 naming the field; a field Patchbay cannot honour but a
// client (Claude Code) routinely sends is ignored and named in `warnings`, never a 400. No I/O, no policy.
// This file maps the request's top level (tools, tool_choice, generation, output format); the conversation itself
// (`system`, `messages`) is decode-messages.ts. Generic helpers (zod → 400, data URLs, tool names) come from core/.
import type { z } from "zod";
import type {
  GenerationParams,
  NeutralRequest,
  ResponseFormat,
  ServerToolSpec,
  ToolChoice,
  ToolDefinition,
} from "../../core/contract";
import { quoteClientText as q } from "../../core/client-text";
import { PatchbayError, invalidRequest } from "../../core/errors";
import { assertJsonDepth } from "../../core/json-depth";
import { uniqueToolNames } from "../../core/tool-helpers";
import { WarningList, warn } from "../../core/warnings";
import { isJsonObject, parseWire } from "../../core/wire-parse";
import { anthropicServerTool, anthropicUrlSources } from "../../server-tools/anthropic-tools";
import { conversationUrls, fetchScopeOf, type ConversationUrls } from "./fetch-scope";
import { decodeMessages, decodeSystem } from "./decode-messages";
import { CountTokensRequestSchema, MessagesRequestSchema, type MessagesRequest } from "./request-schema";

/** Top-level fields the decoder maps; every other top-level field is ignored and named in a warning. */
const MAPPED_FIELDS = new Set([
  "model",
  "max_tokens",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "stream",
  "thinking",
  "output_config",
]);

/** A thinking `budget_tokens` → OpenCode-style effort: < 4 096 low, < 16 384 medium, else high. */
export function effortOfBudget(budget: number): string {
  if (budget < 4096) return "low";
  if (budget < 16384) return "medium";
  return "high";
}

interface DecodedTools {
  tools: ToolDefinition[];
  /** Names of server tools (dated `type`) that were dropped. */
  serverTools: string[];
  /** Web search/fetch server tools, which Patchbay runs (server/server-tools/). */
  runs: ServerToolSpec[];
}

function decodeTools(req: MessagesRequest, notes: WarningList): DecodedTools {
  const names = new Set((req.tools ?? []).map((t) => t.name));
  let urls: ConversationUrls | null = null; // collected for the first web fetch tool only
  const tools: ToolDefinition[] = [];
  const serverTools: string[] = [];
  const runs: ServerToolSpec[] = [];
  const params: string[] = [];
  const deferred: string[] = [];
  // Names are unique across client and server tools alike (Anthropic answers a duplicate with a 400); a second
  // web_search would otherwise be dropped silently, with its own domain filters.
  const firstAt = new Map<string, number>();
  (req.tools ?? []).forEach((tool, i) => {
    const before = firstAt.get(tool.name);
    if (before !== undefined)
      throw invalidRequest(
        `Duplicate tool name ${q(tool.name, 60)}: tool names must be unique (tools[${before}] has it too).`,
        `tools[${i}].name`,
      );
    firstAt.set(tool.name, i);
  });
  (req.tools ?? []).forEach((tool, i) => {
    const at = `tools[${i}]`;
    if (tool.type != null && tool.type !== "custom") {
      const run = anthropicServerTool(tool, at);
      if (run?.kind === "web_fetch")
        run.fetchScope = fetchScopeOf(anthropicUrlSources(tool, at, names), (urls ??= conversationUrls(req.messages)));
      if (run) return void runs.push(run);
      serverTools.push(tool.name);
      notes.add(
        warn.dropped(
          at,
          `server tool ${q(tool.name, 60)} (type ${q(tool.type, 40)}) dropped: Patchbay offers client tools only`,
        ),
      );
      return;
    }
    if (tool.defer_loading === true) deferred.push(tool.name);
    if (!tool.input_schema)
      throw invalidRequest(`Missing required parameter: '${at}.input_schema'.`, `${at}.input_schema`);
    assertJsonDepth(tool.input_schema, `${at}.input_schema`);
    tools.push({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.input_schema,
      ...(tool.strict == null ? {} : { strict: tool.strict }),
    });
    params.push(`${at}.name`);
  });
  uniqueToolNames(tools, (i) => params[i] ?? "tools");
  if (deferred.length > 0)
    notes.add(
      warn.ignored(
        "tools[].defer_loading",
        `defer_loading ignored: offered directly: ${deferred.map((n) => q(n, 60)).join(", ")}`,
      ),
    );
  return { tools, serverTools, runs };
}

function decodeToolChoice(req: MessagesRequest, decoded: DecodedTools): ToolChoice {
  const choice = req.tool_choice;
  if (!choice || choice.type === "auto") return "auto";
  if (choice.type === "none") return "none";
  if (choice.type === "any") {
    if (decoded.tools.length === 0 && decoded.runs.length === 0) {
      const why = decoded.serverTools.length
        ? ` (server tools are not available through Patchbay: ${decoded.serverTools.map((n) => q(n, 60)).join(", ")})`
        : "";
      throw invalidRequest(
        `Invalid 'tool_choice': type 'any' needs at least one custom tool in 'tools'${why}.`,
        "tool_choice",
      );
    }
    return "required";
  }
  // A server tool Patchbay runs: the model must call a tool (the named one is not singled out among them).
  if (decoded.runs.some((t) => t.name === choice.name)) return "required";
  if (decoded.serverTools.includes(choice.name)) {
    throw new PatchbayError(
      "unsupported_value",
      `Invalid 'tool_choice': ${q(choice.name)} is a server tool, which Patchbay cannot run (server tools in this request: ${decoded.serverTools.map((n) => q(n, 60)).join(", ")}). Offer a custom tool instead.`,
      { param: "tool_choice.name" },
    );
  }
  if (!decoded.tools.some((t) => t.name === choice.name))
    throw invalidRequest(`Invalid 'tool_choice.name': tool ${q(choice.name)} is not in 'tools'.`, "tool_choice.name");
  return { type: "function", name: choice.name };
}

function decodeGeneration(req: MessagesRequest, notes: WarningList): GenerationParams {
  const g: GenerationParams = { maxOutputTokens: req.max_tokens };
  if (req.temperature != null) g.temperature = req.temperature;
  if (req.top_p != null) g.topP = req.top_p;
  if (req.top_k != null) g.topK = req.top_k;
  const stop = (req.stop_sequences ?? []).filter((s) => s !== "");
  if (stop.length > 0) g.stop = stop;
  const effort = req.output_config?.effort;
  if (effort) g.reasoningEffort = effort;
  else if (req.thinking?.type === "enabled") g.reasoningEffort = effortOfBudget(req.thinking.budget_tokens);
  if (req.thinking?.type === "enabled" && effort)
    notes.add(
      warn.ignored("thinking.budget_tokens", "thinking.budget_tokens ignored: output_config.effort chooses the effort"),
    );
  const choice = req.tool_choice;
  if (choice && choice.type !== "none" && choice.disable_parallel_tool_use === true) g.parallelToolCalls = false;
  return g;
}

function decodeResponseFormat(req: MessagesRequest): ResponseFormat {
  const format = req.output_config?.format;
  if (!format) return { type: "text" };
  assertJsonDepth(format.schema, "output_config.format.schema");
  return { type: "json_schema", name: "output", schema: format.schema };
}

/** Warnings for top-level fields the decoder does not map (metadata, context_management, service_tier, …). */
function ignoredFields(body: Record<string, unknown>, notes: WarningList): void {
  const ignored = Object.keys(body).filter((k) => !MAPPED_FIELDS.has(k) && body[k] !== undefined && body[k] !== null);
  // One warning for all of them; its `param` lists the fields.
  if (ignored.length > 0)
    notes.add(warn.ignored(ignored.join(", "), `ignored: ${ignored.map((k) => q(k, 40)).join(", ")}`));
}

/**
 * Decodes an Anthropic Messages request body into the neutral request.
 * - `system` (string or text blocks) and `role: "system"` messages become `system` texts, in order; `cache_control`
 *   anywhere is ignored.
 * - User content: text, image (base64 → data URL; url → http(s) URL for the remote-image policy), document (PDF
 *   base64 → media part; text source → text), tool_result → a neutral tool message (`is_error` → TOOL_ERROR_PREFIX;
 *   images inside → placeholder text, the image follows in a user message after the tool results).
 * - Assistant content: text, tool_use (→ tool call, `arguments` = JSON.stringify(input)); thinking blocks WITH a
 *   signature and redacted_thinking → `reasoning` (sent back only to an Anthropic provider, which verifies them);
 *   thinking without a signature is dropped (warning): no upstream could verify it.
 *   `server_tool_use` / `web_search_tool_result` / `web_fetch_tool_result` (a search or fetch that already ran) → text
 *   of the query and results (server-tool-history.ts).
 * - Tools: custom tools, and the web search / fetch server tools Patchbay runs (server/server-tools; a web fetch tool
 *   gets the URLs the conversation offers as its `fetchScope`, narrowed by its `url_sources`: fetch-scope.ts); other server
 *   tools (dated `type`) are dropped with a warning, and a `tool_choice` naming one of those is a 400. `defer_loading` tools are offered directly (warning) and a `tool_reference` in a tool result becomes the
 *   text `[tool available: <name>]`, since there is no server-side tool search. `tool_choice` any → required, tool → named function, none → none;
 *   `disable_parallel_tool_use` → parallelToolCalls false.
 * - `max_tokens` (required) → maxOutputTokens; `output_config.effort` (else `thinking.budget_tokens` bucketed by
 *   {@link effortOfBudget}) → reasoningEffort; `top_k` → topK; `metadata`, `context_management`, `service_tier`,
 *   `container`, `mcp_servers` and unknown fields are ignored and named in `warnings`.
 * @throws PatchbayError 400 whose `param` names the field (e.g. `messages[1].content[0].source.data`).
 */
export function decodeMessagesRequest(body: unknown): NeutralRequest {
  if (!isJsonObject(body)) throw invalidRequest("The request body must be a JSON object.", null);
  const req = parseWire(MessagesRequestSchema, body);
  return buildNeutral(req, body);
}

/** The neutral request of an already-parsed body (shared with count_tokens, which has no `max_tokens`). */
export function buildNeutral(req: MessagesRequest, body: Record<string, unknown>): NeutralRequest {
  const notes = new WarningList();
  if (req.messages.length === 0)
    throw invalidRequest("Invalid 'messages': must contain at least one message.", "messages");
  const decoded = decodeMessages(req.messages, notes);
  if (decoded.messages.length === 0) {
    throw invalidRequest("Invalid 'messages': there is no user or assistant message, only system ones.", "messages");
  }
  const tools = decodeTools(req, notes);
  const toolChoice = decodeToolChoice(req, tools);
  const generation = decodeGeneration(req, notes);
  ignoredFields(body, notes);
  return {
    model: req.model,
    system: [...decodeSystem(req.system), ...decoded.system],
    messages: decoded.messages,
    tools: tools.tools,
    toolChoice,
    generation,
    responseFormat: decodeResponseFormat(req),
    stream: req.stream === true,
    includeUsage: true,
    warnings: notes.list,
    ...(tools.runs.length ? { serverTools: tools.runs } : {}),
  };
}

/** Re-exported for tests: the parsed request type. */
export type { MessagesRequest };
/** Re-exported for count_tokens. */
export type MessagesBody = z.input<typeof MessagesRequestSchema>;

/** Decodes a `count_tokens` body: a Message request without `max_tokens` (same 400s as {@link decodeMessagesRequest}). */
export function decodeCountTokensRequest(body: unknown): NeutralRequest {
  if (!isJsonObject(body)) throw invalidRequest("The request body must be a JSON object.", null);
  const req = parseWire(CountTokensRequestSchema, body);
  return buildNeutral({ ...req, max_tokens: typeof req.max_tokens === "number" ? req.max_tokens : 1 }, body);
}
