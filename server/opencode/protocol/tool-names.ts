// Renames the client tool names that clash with OpenCode built-ins it treats specially (or that OpenCode loses), and
// maps them back (pure). Source: DESIGN §3 / spike report §2 "Name collisions" (opencode 1.18.33).

/** Names a client tool cannot keep through OpenCode: the built-ins it treats specially (`invalid` is never offered,
 *  `websearch` is filtered by provider, `edit`/`write`/`apply_patch` by model family and share one permission, `task`
 *  gets its description suffixed) and `__proto__`, which OpenCode's plain-object tool map drops before the upstream
 *  call. Client tools with these names are sent as `client_<name>`. */
export const CLASHING_TOOL_NAMES: ReadonlySet<string> = new Set([
  "invalid",
  "websearch",
  "edit",
  "write",
  "apply_patch",
  "task",
  "__proto__",
]);

const PREFIX = "client_";

/** Client name → the name OpenCode (and the upstream model) sees. */
export function toOpenCodeToolName(name: string): string {
  return CLASHING_TOOL_NAMES.has(name) ? PREFIX + name : name;
}

/** OpenCode name → the client's name. Only names produced by {@link toOpenCodeToolName} are changed. */
export function fromOpenCodeToolName(name: string): string {
  return name.startsWith(PREFIX) && CLASHING_TOOL_NAMES.has(name.slice(PREFIX.length))
    ? name.slice(PREFIX.length)
    : name;
}
