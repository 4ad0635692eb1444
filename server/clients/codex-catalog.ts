// Codex's model catalog built from Patchbay's models: the JSON file Codex reads through `model_catalog_json`
// (`{"models":[ModelInfo…]}`). Without it Codex (0.156+) treats a custom model as unknown: no context window, no
// input modalities, no apply_patch tool. Codex rejects the whole file when one entry misses a field it requires, and
// then silently runs without a catalog, so every entry carries every field of the newest entry shape Codex ships in
// its own bundled catalog (read from @openai/codex 0.171.0's bundled models.json; `gpt-5.5`, the entry without
// Codex-only features, is the template). Pure.

/** One model as Codex should know it. */
export interface CodexCatalogModel {
  /** The name Codex sends as `model` (a Patchbay model id or an alias of the app). */
  slug: string;
  displayName: string;
  description: string;
  /** Context window in tokens; null when unknown. */
  contextWindow: number | null;
  /** The model accepts images (Codex then sends `view_image` results and pasted images). */
  image: boolean;
  /** The model reasons (Codex offers reasoning levels and asks for summaries). */
  reasoning: boolean;
}

/** Reasoning levels offered for a reasoning model (the descriptions Codex's own catalog uses). */
const REASONING_LEVELS = [
  { effort: "low", description: "Fast responses with lighter reasoning" },
  { effort: "medium", description: "Balances speed and reasoning depth for everyday tasks" },
  { effort: "high", description: "Greater reasoning depth for complex problems" },
];

/**
 * The system prompt of a catalog model. Codex refuses an entry without `base_instructions` (or a model-specific
 * template), and its own prompt for unknown models is not ours to copy, so this is Patchbay's short one: what the
 * agent is, and how to use Codex's tools.
 */
export const CODEX_BASE_INSTRUCTIONS = [
  "You are a coding agent running in the Codex CLI, a terminal coding assistant, working in the user's workspace.",
  "Be precise, safe and helpful. Keep going until the user's request is fully resolved before ending your turn.",
  "Use the shell tool to inspect files and run commands; prefer `rg` for searching.",
  "Edit files with the apply_patch tool (its input is a patch in the format its description gives), not with shell",
  "redirection. Keep changes minimal and in the style of the surrounding code.",
  "When you finish, say briefly what you changed and how to check it.",
].join("\n");

/** One catalog entry: every field of Codex's ModelInfo, with values that fit a model served through Patchbay. */
export function codexModelInfo(m: CodexCatalogModel, priority: number): Record<string, unknown> {
  return {
    slug: m.slug,
    display_name: m.displayName,
    description: m.description,
    // Patchbay serves Responses over HTTP only.
    prefer_websockets: false,
    support_verbosity: false,
    default_verbosity: null,
    // The freeform (grammar) apply_patch tool: Codex's own editing tool, sent as a `custom` tool.
    apply_patch_tool_type: "freeform",
    web_search_tool_type: "text_and_image",
    input_modalities: m.image ? ["text", "image"] : ["text"],
    supports_image_detail_original: false,
    truncation_policy: { mode: "tokens", limit: 10000 },
    supports_parallel_tool_calls: true,
    tool_mode: null,
    multi_agent_version: null,
    multi_agent_reasoning_effort: null,
    use_responses_lite: false,
    supports_reasoning_effort_updates: false,
    include_skills_usage_instructions: true,
    include_apps_usage_instructions: true,
    include_plugin_usage_instructions: true,
    guardian: null,
    node_repl_auto_review_required: false,
    node_repl_disabled: false,
    requires_sandboxed_review: false,
    auto_review_model_override: null,
    model_specialty: null,
    context_window: m.contextWindow,
    max_context_window: m.contextWindow,
    auto_compact_token_limit: null,
    comp_hash: "2911",
    default_reasoning_summary: "none",
    default_reasoning_level: m.reasoning ? "medium" : null,
    supported_reasoning_levels: m.reasoning ? REASONING_LEVELS : [],
    shell_type: "shell_command",
    visibility: "list",
    minimal_client_version: "0.98.0",
    supported_in_api: true,
    availability_nux: null,
    upgrade: null,
    priority,
    base_instructions: CODEX_BASE_INSTRUCTIONS,
    model_messages: null,
    experimental_supported_tools: [],
    available_in_plans: [],
    supports_search_tool: false,
    supports_experimental_context: false,
    default_service_tier: null,
    service_tiers: [],
    additional_speed_tiers: [],
    supports_reasoning_summary_parameter: m.reasoning,
    supports_reasoning_summaries: m.reasoning,
  };
}

/** The catalog file's text (`{"models":[…]}`), entries in the given order (the first is the most prominent). */
export function codexModelCatalog(models: readonly CodexCatalogModel[]): string {
  return `${JSON.stringify({ models: models.map((m, i) => codexModelInfo(m, i + 1)) }, null, 2)}\n`;
}
