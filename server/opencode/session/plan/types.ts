// The types of a request's plan through OpenCode (what session/plan/* produce and the run consumes).
import type { JsonSchema, PatchbayWarning } from "../../../core/contract";
import type { CompanionSpec, CompanionTool } from "../../protocol/companion-plugin";

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
