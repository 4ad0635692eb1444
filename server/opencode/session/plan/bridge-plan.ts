// Plans one request through OpenCode (pure): NeutralRequest → the companion spec (system, OpenCode-internal history,
// params), the instance's tool set, permission rules, tool_choice/structured-output/variant mapping and warnings.
// No I/O, no clocks (time and id prefix are inputs). Rules: DESIGN §3 and the spike report §1–§6 (opencode 1.18.33).
// The parts: tools.ts (tool set, tool_choice, permissions), params.ts (structured output, generation parameters,
// variant), conversation.ts (messages as OpenCode-internal history).
import type { BackendRequest } from "../../../core/contract";
import { WarningList } from "../../../core/warnings";
import { toInternalMessages, triggerText } from "./conversation";
import { planGenerationParams, planStructuredOutput, planVariant } from "./params";
import { planPermissions, planTools, toolsetHash } from "./tools";
import type { BridgePlan, PlanContext } from "./types";

export type { BridgePlan, PermissionRule, PlanContext, StructuredMode } from "./types";

/**
 * Plans `req` for `model`. Throws PatchbayError `invalid_request_error` for requests OpenCode cannot express (two
 * tools that map to the same OpenCode name) and for tool schemas, history tool-call arguments or response_format
 * schemas nested deeper than BRIDGE_JSON_DEPTH. Relies on the neutral invariants (core/neutral-invariants.ts): a
 * named tool_choice is one of the tools.
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
