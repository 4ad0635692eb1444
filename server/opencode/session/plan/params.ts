// Parameters of one request through OpenCode: structured output (response_format passthrough or OpenCode's tool),
// the generation parameters the plugin sets in `chat.params` (per provider package), and the model variant.
import type { BackendRequest } from "../../../core/contract";
import type { CompanionParams } from "../../protocol/companion-plugin";
import type { WarningList } from "../../../core/warnings";
import { warn } from "../../../core/warnings";
import { assertJsonDepth } from "../../../core/json-depth";
import { BRIDGE_JSON_DEPTH, EMPTY_OBJECT_SCHEMA, OPENAI_COMPATIBLE, sha256 } from "./shared";
import type { BridgePlan, StructuredMode } from "./types";

const OPENAI_RESPONSES = new Set(["@ai-sdk/openai", "@ai-sdk/azure"]);
const PROMPT_CACHE_KEY_NPM = new Set(["@ai-sdk/openai", "@ai-sdk/azure", "@ai-sdk/xai", "@ai-sdk/mistral"]);

/** Structured output: `response_format` passed through to OpenAI-compatible providers, else OpenCode's native
 *  structured-output tool; a forced tool call also needs a `format` (OpenCode's only way to require one). Returns the
 *  provider options it started (more are added by the generation parameters). */
export function planStructuredOutput(
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

/** `chat.params` for the plugin: the client's parameters, `null` for those it did not send (clears OpenCode's
 *  defaults), provider options for what only some packages take (others dropped with a warning). Adds to `options`. */
export function planGenerationParams(
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
export function planVariant(
  req: BackendRequest,
  options: Record<string, unknown>,
  warnings: WarningList,
): string | undefined {
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
