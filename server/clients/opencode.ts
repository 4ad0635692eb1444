// OpenCode as a client of Patchbay (launch only): a `patchbay` custom provider (OpenAI-compatible, `<origin>/v1`) and
// the model, passed as inline config in OPENCODE_CONFIG_CONTENT, which OpenCode merges over the user's own config.
// Pure.
import type { ClientSettings, LaunchableClient } from "./types";

/** Provider id the inline config adds. */
export const OPENCODE_PROVIDER = "patchbay";

/** The inline OpenCode config for one run. */
export function openCodeConfig(s: ClientSettings): Record<string, unknown> {
  const models = Object.fromEntries([...new Set([s.model, s.smallModel])].map((m) => [m, { name: m }]));
  return {
    $schema: "https://opencode.ai/config.json",
    provider: {
      [OPENCODE_PROVIDER]: {
        npm: "@ai-sdk/openai-compatible",
        name: "Patchbay",
        options: { baseURL: `${s.origin}/v1`, apiKey: s.key },
        models,
      },
    },
    model: `${OPENCODE_PROVIDER}/${s.model}`,
    small_model: `${OPENCODE_PROVIDER}/${s.smallModel}`,
  };
}

/** OpenCode (`opencode`, npm `opencode-ai`). */
export const openCode: LaunchableClient = {
  id: "opencode",
  aliases: [],
  name: "OpenCode",
  bin: "opencode",
  // Not PATCHBAY_OPENCODE_BIN: that one names the OpenCode Patchbay itself runs.
  binEnv: "PATCHBAY_OPENCODE_CLIENT_BIN",
  install: "npm i -g opencode-ai",
  wire: "openai-chat",
  launch: (s) => ({ env: { OPENCODE_CONFIG_CONTENT: JSON.stringify(openCodeConfig(s)) }, unsetEnv: [], args: [] }),
};
