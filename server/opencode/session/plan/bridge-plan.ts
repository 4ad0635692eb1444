// Plans one request through OpenCode (pure): NeutralRequest → the companion spec (system, OpenCode-internal history,
// params), the instance's tool set, permission rules, tool_choice/structured-output/variant mapping and warnings.
// No I/O, no clocks (time and id prefix are inputs). Rules: DESIGN §3 and the spike report §1–§6 (opencode 1.18.33).
import crypto from "node:crypto";
import type {
  BackendRequest,
  ContentPart,
  JsonSchema,
  ModelInfo,
  NeutralMessage,
  NeutralRequest,
  PatchbayWarning,
  SignedReasoning,
  ToolCall,
} from "../../../core/contract";
import { PatchbayError } from "../../../core/errors";
import { WarningList, warn } from "../../../core/warnings";
import type { CompanionMessage, CompanionParams, CompanionSpec, CompanionTool } from "../../protocol/companion-plugin";
import { assertJsonDepth } from "../../../core/json-depth";

/** The bridge's own bound, above the decoders' (64): a safety net, never the first check. */
const BRIDGE_JSON_DEPTH = 256;
import { BRIDGE_AGENT } from "../../process/home/opencode-config";
import { toOpenCodeToolName } from "../../protocol/tool-names";

/** The AI SDK package of Anthropic providers: the only one that can verify signed thinking blocks. */
const ANTHROPIC_NPM = "@ai-sdk/anthropic";

/** A permission rule as OpenCode's session/prompt API takes it. */
export interface PermissionRule {
  permission: string;
  pattern: string;
  action: "allow" | "deny" | "ask";
}

/** How structured output is produced: through `response_format` (exact) or OpenCode's `StructuredOutput` tool. */
export type StructuredMode = "passthrough" | "native" | null;

/** The plan of one request. */
export interface BridgePlan {
  spec: CompanionSpec;
  /** All client tools (OpenCode names, sorted by name): the instance directory's toolset. */
  toolset: CompanionTool[];
  /** Stable hash of {@link toolset}: names the instance directory. */
  toolsetHash: string;
  /** OpenCode tool name → client tool name, for every client tool (a Map: names like `constructor` are valid). */
  toolNames: Map<string, string>;
  /** Session permission rules for client tools and StructuredOutput (also part of the prompt's `tools` map). */
  permission: PermissionRule[];
  /** Prompt `format` (forces `tool_choice: required`, or native structured output). */
  format?: { type: "json_schema"; schema: JsonSchema };
  structured: StructuredMode;
  /** OpenCode model variant for the prompt. */
  variant?: string;
  /** Text of the trigger user message (stored in the session for history; the plugin replaces it upstream). */
  triggerText: string;
  /** This layer's warnings for `x-patchbay-warnings` (approximations, dropped parameters), each once; the
   *  decoder's are not repeated here. */
  warnings: PatchbayWarning[];
}

/** Deterministic inputs: `now` (epoch ms) stamps messages; `idPrefix` makes message/part ids unique per request. */
export interface PlanContext {
  now: number;
  idPrefix: string;
}

const OPENAI_COMPATIBLE = "@ai-sdk/openai-compatible";
const OPENAI_RESPONSES = new Set(["@ai-sdk/openai", "@ai-sdk/azure"]);
const PROMPT_CACHE_KEY_NPM = new Set(["@ai-sdk/openai", "@ai-sdk/azure", "@ai-sdk/xai", "@ai-sdk/mistral"]);
const NO_RESULT = "[no result provided by client]";
const STRUCTURED_OUTPUT_TOOL = "StructuredOutput";
const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: "object", properties: {} };

/**
 * Plans `req` for `model`. Throws PatchbayError `invalid_request_error` for requests OpenCode cannot express
 * (a named tool_choice that is not among the tools, two tools that map to the same OpenCode name) and for tool
 * schemas, history tool-call arguments or response_format schemas nested deeper than BRIDGE_JSON_DEPTH.
 */
export function planBridgeRequest(req: BackendRequest, ctx: PlanContext): BridgePlan {
  const r = req.request;
  // Only this layer's own warnings: the runner adds them to the decoder's.
  const warnings = new WarningList();
  const tools = planTools(r, warnings);
  const output = planStructuredOutput(req, tools.forceToolUse, warnings);
  const params = planGenerationParams(req, output.options, tools.allowed.length > 0, warnings);
  const variant = planVariant(req, output.options, warnings);
  const messages = toInternalMessages(r.messages, req.model, ctx, warnings);
  const plan: BridgePlan = {
    spec: { v: 1, system: [...r.system], messages, params, singleStep: true },
    toolset: tools.toolset,
    toolsetHash: toolsetHash(tools.toolset),
    toolNames: tools.toolNames,
    permission: planPermissions(tools.toolset, tools.allowed, output.structured, output.format),
    structured: output.structured,
    triggerText: triggerText(r.messages),
    warnings: warnings.list,
  };
  if (output.format) plan.format = output.format;
  if (variant) plan.variant = variant;
  return plan;
}

/** The client tools under their OpenCode names (sorted: a tool set is one instance directory), which of them are
 *  offered (`tool_choice`), and whether a call is required. Throws for two tools that map to one OpenCode name and for
 *  a named `tool_choice` that is not among the tools. */
function planTools(
  r: NeutralRequest,
  warnings: WarningList,
): { toolset: CompanionTool[]; toolNames: Map<string, string>; allowed: string[]; forceToolUse: boolean } {
  const toolNames = new Map<string, string>();
  const toolset: CompanionTool[] = [];
  for (const t of r.tools) {
    const name = toOpenCodeToolName(t.name);
    const taken = toolNames.get(name);
    if (taken !== undefined) {
      throw new PatchbayError(
        "invalid_request_error",
        `Tools "${taken}" and "${t.name}" cannot be used together through OpenCode (both become "${name}").`,
        { param: "tools" },
      );
    }
    toolNames.set(name, t.name);
    toolset.push({ name, description: t.description ?? "", parameters: t.parameters ?? EMPTY_OBJECT_SCHEMA });
  }
  toolset.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (r.tools.some((t) => t.strict === true))
    warnings.add(
      warn.dropped("tools[].strict", "tools[].strict is not forwarded by OpenCode; tools are sent without it"),
    );

  let allowed = toolset.map((t) => t.name);
  let forceToolUse = false;
  const tc = r.toolChoice;
  if (tc === "required") {
    if (toolset.length) forceToolUse = true;
    else warnings.add(warn.ignored("tool_choice", 'tool_choice "required" without tools was ignored'));
  } else if (tc === "none") {
    allowed = [];
    if (toolset.length)
      warnings.add(
        warn.approximated(
          "tool_choice",
          'tool_choice "none" is approximated: no tools are offered to the model for this request',
        ),
      );
  } else if (typeof tc === "object") {
    const name = toOpenCodeToolName(tc.name);
    if (!toolNames.has(name))
      throw new PatchbayError(
        "invalid_request_error",
        `tool_choice names function "${tc.name}", which is not in tools.`,
        { param: "tool_choice" },
      );
    allowed = [name];
    forceToolUse = true;
    warnings.add(
      warn.approximated(
        "tool_choice",
        `tool_choice {"function":"${tc.name}"} is approximated: only that tool is offered and a tool call is required`,
      ),
    );
  }
  return { toolset, toolNames, allowed, forceToolUse };
}

/** Structured output: `response_format` passed through to OpenAI-compatible providers, else OpenCode's native
 *  structured-output tool; a forced tool call also needs a `format` (OpenCode's only way to require one). Returns the
 *  provider options it started (more are added by the generation parameters). */
function planStructuredOutput(
  req: BackendRequest,
  forceToolUse: boolean,
  warnings: WarningList,
): { structured: StructuredMode; format: BridgePlan["format"]; options: Record<string, unknown> } {
  const options: Record<string, unknown> = {};
  let structured: StructuredMode = null;
  let format: BridgePlan["format"];
  const rf = req.request.responseFormat;
  if (rf.type === "json_schema")
    assertJsonDepth(rf.schema, "response_format", "the response_format schema", BRIDGE_JSON_DEPTH);
  if (rf.type === "json_schema" || rf.type === "json_object") {
    if (req.model.npm === OPENAI_COMPATIBLE) {
      structured = "passthrough";
      options.response_format =
        rf.type === "json_object"
          ? { type: "json_object" }
          : {
              type: "json_schema",
              json_schema: {
                name: rf.name,
                schema: rf.schema,
                ...(rf.strict !== undefined ? { strict: rf.strict } : {}),
                ...(rf.description !== undefined ? { description: rf.description } : {}),
              },
            };
    } else {
      structured = "native";
      format = { type: "json_schema", schema: rf.type === "json_schema" ? rf.schema : { type: "object" } };
      warnings.add(
        warn.approximated(
          "response_format",
          `response_format ${rf.type} is sent as OpenCode's structured-output tool for provider ${req.model.providerID} (no response_format passthrough)`,
        ),
      );
    }
  }
  if (forceToolUse && !format) format = { type: "json_schema", schema: EMPTY_OBJECT_SCHEMA };
  return { structured, format, options };
}

/** Session permission rules: offered client tools allowed, the others denied; OpenCode's StructuredOutput tool allowed
 *  only for native structured output. */
function planPermissions(
  toolset: readonly CompanionTool[],
  allowed: readonly string[],
  structured: StructuredMode,
  format: BridgePlan["format"],
): PermissionRule[] {
  const permission: PermissionRule[] = toolset.map((t) => ({
    permission: t.name,
    pattern: "*",
    action: allowed.includes(t.name) ? "allow" : "deny",
  }));
  if (structured === "native") permission.push({ permission: STRUCTURED_OUTPUT_TOOL, pattern: "*", action: "allow" });
  else if (format) permission.push({ permission: STRUCTURED_OUTPUT_TOOL, pattern: "*", action: "deny" });
  return permission;
}

/** `chat.params` for the plugin: the client's parameters, `null` for those it did not send (clears OpenCode's
 *  defaults), provider options for what only some packages take (others dropped with a warning). Adds to `options`. */
function planGenerationParams(
  req: BackendRequest,
  options: Record<string, unknown>,
  offersTools: boolean,
  warnings: WarningList,
): CompanionParams {
  const { request: r, model } = req;
  const g = r.generation;
  const npm = model.npm ?? "";
  const openaiCompatible = npm === OPENAI_COMPATIBLE;
  const dropOptions: string[] = [];
  const keepsDefaultMaxTokens = /anthropic|bedrock/.test(npm); // these APIs require max_tokens
  const params: CompanionParams = {
    temperature: g.temperature ?? null,
    topP: g.topP ?? null,
    topK: g.topK ?? null,
    options,
    dropOptions,
  };
  if (g.topK !== undefined && openaiCompatible)
    warnings.add(warn.dropped("top_k", "top_k dropped: OpenAI-compatible providers do not take it"));
  if (g.maxOutputTokens !== undefined) params.maxOutputTokens = g.maxOutputTokens;
  else if (!keepsDefaultMaxTokens) params.maxOutputTokens = null;

  const passthrough: Array<[keyof typeof g, string, string]> = [
    ["stop", "stop", "stop"],
    ["seed", "seed", "seed"],
    ["presencePenalty", "presence_penalty", "presence_penalty"],
    ["frequencyPenalty", "frequency_penalty", "frequency_penalty"],
    ["parallelToolCalls", "parallel_tool_calls", "parallel_tool_calls"],
  ];
  for (const [key, wireKey, label] of passthrough) {
    const v = g[key];
    if (v === undefined) continue;
    // OpenAI rejects parallel_tool_calls when no tools are sent (none declared, or tool_choice "none").
    if (key === "parallelToolCalls" && !offersTools) continue;
    if (openaiCompatible) options[wireKey] = v;
    else if (key === "parallelToolCalls" && OPENAI_RESPONSES.has(npm)) options.parallelToolCalls = v;
    else
      warnings.add(
        warn.dropped(
          label,
          `${label} is not supported by OpenCode for provider ${model.providerID} (${npm || "unknown package"}); dropped`,
        ),
      );
  }
  if (OPENAI_RESPONSES.has(npm)) {
    // OpenCode's gpt-5 defaults the client did not ask for.
    dropOptions.push("textVerbosity", "reasoningSummary");
    if (g.reasoningEffort === undefined && !req.variant) dropOptions.push("reasoningEffort");
  }
  if (PROMPT_CACHE_KEY_NPM.has(npm)) {
    // OpenCode keys provider prompt caching on its throwaway session id; use a key that is stable across requests.
    options.promptCacheKey =
      r.promptCacheKey ?? sha256([model.providerID, model.modelID, r.system, r.messages[0] ?? null]).slice(0, 32);
  }
  return params;
}

/** `reasoning_effort` → the model's OpenCode variant of that name; else a provider option where the package takes
 *  one; else dropped with a warning. A variant chosen by the alias or model id wins. Adds to `options`. */
function planVariant(req: BackendRequest, options: Record<string, unknown>, warnings: WarningList): string | undefined {
  const { model } = req;
  const effort = req.request.generation.reasoningEffort;
  const npm = model.npm ?? "";
  const variant = req.variant;
  if (effort === undefined) return variant;
  if (variant) {
    if (variant !== effort)
      warnings.add(
        warn.ignored(
          "reasoning_effort",
          `reasoning_effort "${effort}" ignored: the model alias selects variant "${variant}"`,
        ),
      );
    return variant;
  }
  if (model.variants.includes(effort)) return effort;
  if (npm === OPENAI_COMPATIBLE || OPENAI_RESPONSES.has(npm)) options.reasoningEffort = effort;
  else
    warnings.add(
      warn.dropped(
        "reasoning_effort",
        `reasoning_effort "${effort}" dropped: model ${model.providerID}/${model.modelID} has no such variant`,
      ),
    );
  return undefined;
}

/**
 * The prompt's `tools` map: every built-in off, client tools per the plan. OpenCode turns this map into the
 * session's permission rules (replacing earlier ones), so it must carry the client-tool and StructuredOutput rules
 * too, and never a `"*"` entry (it would also deny the client-tool permission that the plugin rejects).
 */
export function promptToolsMap(plan: BridgePlan, builtinIds: readonly string[]): Record<string, boolean> {
  // No prototype: a client tool called `__proto__` must become an own key (it is serialised as JSON for OpenCode).
  const map = Object.create(null) as Record<string, boolean>;
  for (const id of builtinIds) if (!plan.toolNames.has(id)) map[id] = false;
  for (const rule of plan.permission) map[rule.permission] = rule.action === "allow";
  return map;
}

/**
 * Stable short hash of a tool set (names the instance directory). Throws PatchbayError 400 (`tools`) when a tool's
 * parameters nest deeper than MAX_JSON_DEPTH (hashing serialises them).
 */
export function toolsetHash(toolset: readonly CompanionTool[]): string {
  for (const t of toolset)
    assertJsonDepth(t.parameters, "tools", `the parameters of tool "${t.name}"`, BRIDGE_JSON_DEPTH);
  return sha256(toolset).slice(0, 16);
}

function toInternalMessages(
  messages: NeutralMessage[],
  model: Pick<ModelInfo, "providerID" | "modelID" | "npm">,
  ctx: PlanContext,
  warnings: WarningList,
): CompanionMessage[] {
  // Every tool message answers an earlier call (a neutral-contract invariant); the first answer of a call counts.
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === "tool" && !results.has(m.toolCallId)) results.set(m.toolCallId, m.content);
  let seq = 0;
  const id = (kind: "msg" | "prt") => `${kind}_pb${ctx.idPrefix}${(seq++).toString(36).padStart(4, "0")}`;
  const out: CompanionMessage[] = [];
  const ref = { providerID: model.providerID, modelID: model.modelID };
  let lastUserId: string | undefined;
  for (const m of messages) {
    if (m.role === "tool") continue; // folded into the assistant's tool part
    const msgId = id("msg");
    if (m.role === "user") {
      lastUserId = msgId;
      out.push({
        info: { id: msgId, role: "user", time: { created: ctx.now }, agent: BRIDGE_AGENT, model: ref },
        parts: m.content.map((p) => userPart(p, id("prt"))),
      });
      continue;
    }
    const parts: CompanionMessage["parts"] = reasoningParts(m.reasoning ?? [], model, id, ctx.now, warnings);
    for (const p of m.content) {
      if (p.type === "text" && p.text !== "") parts.push({ id: id("prt"), type: "text", text: p.text });
      else if (p.type === "media")
        warnings.add(warn.dropped("messages[].content", "media in an assistant message was dropped"));
    }
    for (const c of m.toolCalls) parts.push(toolPart(c, results.get(c.id), id("prt"), ctx.now, warnings));
    out.push({
      info: {
        id: msgId,
        role: "assistant",
        time: { created: ctx.now, completed: ctx.now },
        ...(lastUserId ? { parentID: lastUserId } : {}),
        ...ref,
        mode: BRIDGE_AGENT,
        agent: BRIDGE_AGENT,
        path: { cwd: "/", root: "/" },
        cost: 0,
        tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
        finish: m.toolCalls.length ? "tool-calls" : "stop",
      },
      parts,
    });
  }
  return out;
}

/** Signed reasoning as OpenCode reasoning parts whose `metadata` is the AI SDK provider metadata
 *  (`{anthropic: {signature}}` / `{anthropic: {redactedData}}`): OpenCode sends it back as providerOptions when the
 *  message's model is the request's model, and @ai-sdk/anthropic turns it into a `thinking` / `redacted_thinking`
 *  block. Other providers cannot verify it: dropped with a warning. */
function reasoningParts(
  reasoning: SignedReasoning[],
  model: Pick<ModelInfo, "npm">,
  id: (kind: "prt") => string,
  now: number,
  warnings: WarningList,
): CompanionMessage["parts"] {
  if (reasoning.length === 0) return [];
  if (model.npm !== ANTHROPIC_NPM) {
    warnings.add(
      warn.dropped(
        "messages[].reasoning",
        "signed thinking blocks in history dropped: only an Anthropic provider can verify them",
      ),
    );
    return [];
  }
  return reasoning.map((r) => ({
    id: id("prt"),
    type: "reasoning",
    text: r.text,
    metadata: {
      anthropic: r.redactedData !== undefined ? { redactedData: r.redactedData } : { signature: r.signature ?? "" },
    },
    time: { start: now, end: now },
  }));
}

function userPart(p: ContentPart, partId: string): CompanionMessage["parts"][number] {
  if (p.type === "text") return { id: partId, type: "text", text: p.text };
  return { id: partId, type: "file", mime: p.mediaType, url: p.url, filename: p.filename ?? "file" };
}

function toolPart(
  c: ToolCall,
  result: string | undefined,
  partId: string,
  now: number,
  warnings: WarningList,
): CompanionMessage["parts"][number] {
  let input: Record<string, unknown> = {};
  if (c.arguments.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(c.arguments);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
        input = parsed as Record<string, unknown>;
      else throw new Error("not an object");
    } catch {
      input = { _raw: c.arguments };
      warnings.add(
        warn.approximated(
          "messages[].tool_calls[].arguments",
          `arguments of tool call "${c.id}" are not a JSON object; sent as {"_raw": …}`,
        ),
      );
    }
    assertJsonDepth(input, "messages", `the arguments of tool call "${c.id}"`, BRIDGE_JSON_DEPTH);
  }
  const time = { start: now, end: now };
  const state =
    result !== undefined
      ? { status: "completed", input, output: result, title: "", metadata: {}, time }
      : { status: "error", input, error: NO_RESULT, metadata: {}, time };
  return { id: partId, type: "tool", tool: toOpenCodeToolName(c.name), callID: c.id, state };
}

function triggerText(messages: NeutralMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") continue;
    const text = m.content.flatMap((p) => (p.type === "text" && p.text ? [p.text] : [])).join("\n");
    if (text) return text;
  }
  return "(continue)";
}

function sha256(value: unknown): string {
  return crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex");
}
