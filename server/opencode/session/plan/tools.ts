// The client tools of one request through OpenCode: their OpenCode names and the instance's tool set, what
// tool_choice offers or forces, the session's permission rules and the prompt's `tools` map.
import type { NeutralRequest } from "../../../core/contract";
import { quoteClientText as q } from "../../../core/client-text";
import { PatchbayError } from "../../../core/errors";
import type { WarningList } from "../../../core/warnings";
import { warn } from "../../../core/warnings";
import type { CompanionTool } from "../../protocol/companion-plugin";
import { toOpenCodeToolName } from "../../protocol/tool-names";
import { BRIDGE_JSON_DEPTH, EMPTY_OBJECT_SCHEMA, sha256 } from "./shared";
import { assertJsonDepth } from "../../../core/json-depth";
import type { BridgePlan, PermissionRule, StructuredMode } from "./types";

/** OpenCode's own structured-output tool (native structured output; also how a tool call is forced). */
const STRUCTURED_OUTPUT_TOOL = "StructuredOutput";

/**
 * OpenCode name → client name of each tool. Throws PatchbayError 400 (`tools`) for two tools that map to one
 * OpenCode name (`edit` is sent as `client_edit`, so a client's own `client_edit` beside it cannot be told apart).
 * The backend's admission check (`ModelBackend.check`) and the planner both call it.
 */
export function openCodeToolNames(tools: NeutralRequest["tools"]): Map<string, string> {
  const toolNames = new Map<string, string>();
  for (const t of tools) {
    const name = toOpenCodeToolName(t.name);
    const taken = toolNames.get(name);
    if (taken !== undefined) {
      throw new PatchbayError(
        "invalid_request_error",
        `Tools ${q(taken)} and ${q(t.name)} cannot be used together through OpenCode (both become ${q(name)}); rename one of them.`,
        { param: "tools" },
      );
    }
    toolNames.set(name, t.name);
  }
  return toolNames;
}

/** The client tools under their OpenCode names (sorted: a tool set is one instance directory), which of them are
 *  offered (`tool_choice`), and whether a call is required. Throws for two tools that map to one OpenCode name. */
export function planTools(
  r: NeutralRequest,
  warnings: WarningList,
): { toolset: CompanionTool[]; toolNames: Map<string, string>; allowed: string[]; forceToolUse: boolean } {
  const toolNames = openCodeToolNames(r.tools);
  const toolset: CompanionTool[] = r.tools.map((t) => ({
    name: toOpenCodeToolName(t.name),
    description: t.description ?? "",
    parameters: t.parameters ?? EMPTY_OBJECT_SCHEMA,
  }));
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
    // Among the tools (a neutral invariant, checked before any backend runs), so its OpenCode name is too.
    allowed = [toOpenCodeToolName(tc.name)];
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

/** Session permission rules: offered client tools allowed, the others denied; OpenCode's StructuredOutput tool allowed
 *  only for native structured output. */
export function planPermissions(
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

/**
 * The prompt's `tools` map: every built-in off, client tools per the plan. OpenCode turns this map into the
 * session's permission rules (replacing earlier ones), so it must carry the client-tool and StructuredOutput rules
 * too, and never a `"*"` entry (it would also deny the client-tool permission that the plugin rejects).
 */
export function promptToolsMap(
  plan: Pick<BridgePlan, "toolNames" | "permission">,
  builtinIds: readonly string[],
): Record<string, boolean> {
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
