// Builds the opencode.json of Patchbay's own OpenCode home (pure). Owns the `bridge` agent definition and the
// switches that keep OpenCode quiet (no autoupdate, share, snapshots, LSP, formatters, compaction).
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { UserProviderSections } from "./user-config";
import { WARM_UP_PROVIDER_ID, warmUpProviderConfig } from "../../protocol/warm-up-model";

/** Name of the agent every Patchbay session runs as (the plugin recognises Patchbay sessions by it). */
export const BRIDGE_AGENT = "bridge";
/** Permission the client tools ask; the companion plugin rejects it at once (DESIGN §3). */
export const CLIENT_TOOL_PERMISSION = "patchbay_client_tool";
/** Where an instance directory's client tools are written for the companion plugin (relative to the directory). */
export const TOOLSET_FILE = path.join(".patchbay", "toolset.json");

/** Inputs of {@link buildOpenCodeConfig}. */
export interface OpenCodeConfigInput {
  user: UserProviderSections;
  /** Provider blocks Patchbay adds (e.g. the demo provider), keyed by provider id; they win over the user's. */
  extraProviders?: Record<string, unknown>;
  /** Absolute path of the companion plugin copy inside the home. */
  pluginFile: string;
}

/** The generated config object (written as `$XDG_CONFIG_HOME/opencode/opencode.json`). */
export function buildOpenCodeConfig(input: OpenCodeConfigInput): Record<string, unknown> {
  // The hidden warm-up model is always there: priming an instance runs one model call on it (prime-instance.ts).
  const extra = { ...input.extraProviders, [WARM_UP_PROVIDER_ID]: warmUpProviderConfig() };
  const config: Record<string, unknown> = {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    snapshot: false,
    lsp: false,
    formatter: false,
    compaction: { auto: false, prune: false },
    // The free "OpenCode Zen" provider would otherwise be connected for everyone.
    disabled_providers: [...new Set(["opencode", ...input.user.disabled_providers])].filter((id) => !(id in extra)),
    provider: { ...input.user.provider, ...extra },
    agent: {
      [BRIDGE_AGENT]: {
        mode: "primary",
        description: "Patchbay: the client's own prompt, history and tools (replaced by the companion plugin).",
        // Never sent upstream: the plugin replaces the whole system prompt. Must be non-empty (else OpenCode falls
        // back to its provider prompt for sessions the plugin does not handle).
        prompt: "You are a helpful assistant.",
        permission: { "*": "deny", [CLIENT_TOOL_PERMISSION]: "ask" },
      },
    },
    plugin: [pathToFileURL(input.pluginFile).href],
  };
  if (input.user.enabled_providers) {
    config.enabled_providers = [...new Set([...input.user.enabled_providers, ...Object.keys(extra)])];
  }
  return config;
}
