// GitHub Copilot CLI on Patchbay (launch only; `copilot`, npm `@github/copilot`). Its BYOK settings live in its
// environment only (`copilot help environment`, 1.0.102): COPILOT_PROVIDER_BASE_URL makes it use that provider instead
// of GitHub's model routing, "GitHub authentication is not required"; COPILOT_OFFLINE=true skips every other network
// access (GitHub login, telemetry, web tools, the GitHub MCP server, auto-update). Patchbay is an OpenAI-compatible
// provider speaking chat completions at `<origin>/v1`. Inherited provider variables that would win over these
// (a bearer token or key command takes precedence over COPILOT_PROVIDER_API_KEY) are removed for the run. Pure.
import type { ClientSettings, LaunchableClient, LaunchPlan } from "./types";

/** Provider variables an inherited environment may hold that would change what this run sends. */
const INHERITED_PROVIDER_ENV = [
  "COPILOT_PROVIDER_BEARER_TOKEN",
  "COPILOT_PROVIDER_API_KEY_COMMAND",
  "COPILOT_PROVIDER_MODEL_ID",
  "COPILOT_PROVIDER_WIRE_MODEL",
  "COPILOT_PROVIDER_HEADERS",
  "COPILOT_PROVIDER_TRANSPORT",
  "COPILOT_PROVIDER_AZURE_API_VERSION",
  "COPILOT_PROVIDER_MAX_OUTPUT_TOKENS",
  "COPILOT_PROVIDER_MAX_PROMPT_TOKENS",
];

/** The environment of one Copilot CLI run on Patchbay. */
export function copilotEnv(s: ClientSettings): Record<string, string> {
  return {
    COPILOT_PROVIDER_BASE_URL: `${s.origin}/v1`,
    COPILOT_PROVIDER_TYPE: "openai",
    COPILOT_PROVIDER_WIRE_API: "completions",
    COPILOT_PROVIDER_API_KEY: s.key,
    COPILOT_MODEL: s.model,
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    ...(s.contextWindow ? { COPILOT_PROVIDER_MAX_PROMPT_TOKENS: String(s.contextWindow) } : {}),
  };
}

/** One run: environment only, no arguments, no files. */
export function copilotLaunch(s: ClientSettings): LaunchPlan {
  return { env: copilotEnv(s), unsetEnv: INHERITED_PROVIDER_ENV, args: [] };
}

/** GitHub Copilot CLI. */
export const copilot: LaunchableClient = {
  id: "copilot",
  aliases: [],
  name: "GitHub Copilot CLI",
  bin: "copilot",
  binEnv: "PATCHBAY_COPILOT_BIN",
  install: "npm i -g @github/copilot",
  wire: "openai-chat",
  launch: copilotLaunch,
};
