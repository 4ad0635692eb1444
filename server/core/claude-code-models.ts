// How Patchbay's models appear in Claude Code's `/model` picker. Claude Code (2.1.x, gateway model discovery,
// `CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY=1`) asks `GET <ANTHROPIC_BASE_URL>/v1/models?limit=1000` with a
// `User-Agent: claude-code/<version>` and keeps only the entries whose id matches /(claude|anthropic)/i, showing each
// one's `display_name` (read from the installed CLI's own code). So for that request every model and alias whose id
// would be dropped is listed as `claude/<id>`, and the model resolver reads `claude/<id>` back as `<id>`. Other
// clients see the list unchanged. Pure.
/** Prefix that makes a model id survive Claude Code's discovery filter. */
export const CLAUDE_CODE_MODEL_PREFIX = "claude/";

/** Claude Code's own filter on discovered model ids. */
const KEPT_BY_CLAUDE_CODE = /(claude|anthropic)/i;

/** True for the request Claude Code's gateway model discovery sends (its User-Agent is `claude-code/<version>`). */
export function isClaudeCodeDiscovery(userAgent: string | undefined): boolean {
  return /^claude-code\/\d/.test(userAgent ?? "");
}

/** The id Claude Code keeps for `id`: unchanged when its filter keeps it, else {@link CLAUDE_CODE_MODEL_PREFIX}+id. */
export function claudeCodeModelId(id: string): string {
  return KEPT_BY_CLAUDE_CODE.test(id) ? id : `${CLAUDE_CODE_MODEL_PREFIX}${id}`;
}

/**
 * The model list as Claude Code's picker should see it: every entry, renamed by {@link claudeCodeModelId}, with its
 * display name kept (that is what the picker shows). Order is kept.
 */
export function claudeCodeModelList<T extends { id: string }>(models: readonly T[]): T[] {
  return models.map((m) => ({ ...m, id: claudeCodeModelId(m.id) }));
}

/**
 * `asked` without the Claude Code prefix, when it has it and the rest is not itself an alias or a model a provider
 * named `claude` offers (`exists` says whether a name resolves as it is). Else `asked` unchanged.
 */
export function fromClaudeCodeModelId(asked: string, exists: (name: string) => boolean): string {
  if (!asked.startsWith(CLAUDE_CODE_MODEL_PREFIX) || exists(asked)) return asked;
  return asked.slice(CLAUDE_CODE_MODEL_PREFIX.length);
}
