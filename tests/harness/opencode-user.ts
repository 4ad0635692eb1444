// Writes an isolated "user" OpenCode setup in a temp dir (a global opencode.json with a `mock` provider pointing at the
// mock upstream, optional auth.json) and returns the paths to hand to the supervisor. Test-only.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Options of {@link createOpenCodeUser}. */
export interface OpenCodeUserOptions {
  /** `http://127.0.0.1:<port>/v1` of the mock upstream. */
  mockBaseURL: string;
  /** Content of the user's auth.json; omitted → no auth.json. */
  auth?: Record<string, unknown>;
  /** Extra top-level keys for the user's opencode.json (e.g. an agent or MCP server that must NOT leak). */
  extraConfig?: Record<string, unknown>;
  /** Extra provider blocks (enabled next to `mock`), e.g. a mock Anthropic provider. */
  extraProviders?: Record<string, unknown>;
  /** Parent folder (default: the OS temp dir). */
  parentDir?: string;
}

/** A created user setup. `cleanup()` removes the temp dir. */
export interface OpenCodeUser {
  root: string;
  /** Path to pass as `user.configFile`. */
  configFile: string;
  /** Path to pass as `user.authFile` (may not exist when no `auth` was given). */
  authFile: string;
  cleanup(): void;
}

/** The `mock` provider block: `mock/mock-model`, `mock/mock-reasoner` (variants low/high), `mock/mock-vision`. */
export function mockProviderConfig(baseURL: string): Record<string, unknown> {
  const base = { tool_call: true, temperature: true, limit: { context: 128000, output: 4096 } };
  return {
    mock: {
      npm: "@ai-sdk/openai-compatible",
      name: "Mock upstream",
      options: { baseURL, apiKey: "sk-mock-key-000000000000" },
      models: {
        "mock-model": {
          ...base,
          name: "Mock Model",
          attachment: false,
          reasoning: false,
          modalities: { input: ["text"], output: ["text"] },
        },
        "mock-reasoner": {
          ...base,
          name: "Mock Reasoner",
          attachment: false,
          reasoning: true,
          modalities: { input: ["text"], output: ["text"] },
          variants: { low: { reasoningEffort: "low" }, high: { reasoningEffort: "high" } },
        },
        "mock-vision": {
          ...base,
          name: "Mock Vision",
          attachment: true,
          reasoning: false,
          modalities: { input: ["text", "image"], output: ["text"] },
        },
      },
    },
  };
}

/** Creates the user setup. */
export function createOpenCodeUser(opts: OpenCodeUserOptions): OpenCodeUser {
  const root = fs.mkdtempSync(path.join(opts.parentDir ?? os.tmpdir(), "pb-oc-user-"));
  const configDir = path.join(root, "config", "opencode");
  const dataDir = path.join(root, "data", "opencode");
  fs.mkdirSync(configDir, { recursive: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const configFile = path.join(configDir, "opencode.json");
  const authFile = path.join(dataDir, "auth.json");
  const config = {
    $schema: "https://opencode.ai/config.json",
    // Only these three sections may reach Patchbay's OpenCode.
    enabled_providers: ["mock", ...Object.keys(opts.extraProviders ?? {})],
    disabled_providers: [],
    provider: { ...mockProviderConfig(opts.mockBaseURL), ...opts.extraProviders },
    ...opts.extraConfig,
  };
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2));
  if (opts.auth) fs.writeFileSync(authFile, JSON.stringify(opts.auth, null, 2), { mode: 0o600 });
  return { root, configFile, authFile, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}
