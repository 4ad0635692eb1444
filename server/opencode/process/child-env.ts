// Builds the environment of `opencode serve` (pure): isolated HOME/XDG, the OPENCODE_* switches of DESIGN §3, the
// server password and side-channel endpoint, and a narrow passthrough of the parent's env (PATH, proxies, provider keys).
// Never passes the parent's HOME, XDG_* or OPENCODE_* (the user's own OpenCode must not leak in).
import path from "node:path";
import { PIDFILE_ENV } from "./leftover";

/** Flags that keep OpenCode offline-capable and quiet. Values must be "1"/"true" or unset: "" crashes OpenCode. */
export const OPENCODE_FLAGS: Readonly<Record<string, string>> = Object.freeze({
  OPENCODE_DISABLE_AUTOUPDATE: "true",
  OPENCODE_DISABLE_SHARE: "true",
  OPENCODE_DISABLE_LSP_DOWNLOAD: "true",
  OPENCODE_DISABLE_CLAUDE_CODE: "true",
  OPENCODE_DISABLE_EXTERNAL_SKILLS: "true",
  OPENCODE_DISABLE_PROJECT_CONFIG: "true",
  OPENCODE_DISABLE_EMBEDDED_WEB_UI: "true",
  OPENCODE_DISABLE_AUTOCOMPACT: "true",
  OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER: "true",
});

/** Inputs of {@link buildChildEnv}. */
export interface ChildEnvInput {
  /** The parent's environment (process.env). */
  parent: NodeJS.ProcessEnv;
  /** HOME/XDG dirs of Patchbay's OpenCode home. */
  home: Record<string, string>;
  /** Basic-auth password of the server (env only, never argv). */
  password: string;
  sideChannel: { url: string; token: string };
  /** Extra variable names to pass through (e.g. `{env:NAME}` references in the user's providers). */
  passthrough?: string[];
  /** Let OpenCode fetch the models.dev catalogue (network at startup). Default false: the bundled snapshot is used. */
  modelsFetch?: boolean;
}

const SYSTEM_VARS = new Set([
  "PATH",
  "Path",
  "PATHEXT",
  "SystemRoot",
  "SYSTEMROOT",
  "windir",
  "ComSpec",
  "TEMP",
  "TMP",
  "TMPDIR",
  "LANG",
  "LANGUAGE",
  "TZ",
  "USER",
  "USERNAME",
  "LOGNAME",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
]);
const PROXY_VARS = /^(http_proxy|https_proxy|no_proxy|all_proxy)$/i;
// Provider credentials and endpoints the way AI SDK providers and models.dev name them (OPENAI_API_KEY,
// ANTHROPIC_API_KEY, AWS_*, AZURE_RESOURCE_NAME, GOOGLE_VERTEX_PROJECT, …).
const PROVIDER_VARS =
  /(_API_KEY|_API_TOKEN|_AUTH_TOKEN|_ACCESS_TOKEN|_BASE_URL|_ENDPOINT|_RESOURCE_NAME|_PROJECT_ID|_ACCOUNT_ID|_API_VERSION)$|^(AWS|AZURE|GOOGLE|VERTEX|GCP|CLOUDSDK|BEDROCK)_/;

/** The child's complete environment. */
export function buildChildEnv(input: ChildEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  const extra = new Set(input.passthrough ?? []);
  for (const [k, v] of Object.entries(input.parent)) {
    if (v === undefined || v === "") continue;
    if (/^(OPENCODE_|PATCHBAY_|XDG_)/.test(k) || k === "HOME" || k === "USERPROFILE") continue;
    if (SYSTEM_VARS.has(k) || k.startsWith("LC_") || PROXY_VARS.test(k) || PROVIDER_VARS.test(k) || extra.has(k))
      env[k] = v;
  }
  Object.assign(env, input.home, OPENCODE_FLAGS);
  if (input.home.HOME) env.USERPROFILE = input.home.HOME;
  if (!input.modelsFetch) env.OPENCODE_DISABLE_MODELS_FETCH = "true";
  env.OPENCODE_SERVER_PASSWORD = input.password;
  env.OPENCODE_SERVER_USERNAME = "opencode";
  env.PATCHBAY_SIDE_CHANNEL_URL = input.sideChannel.url;
  env.PATCHBAY_SIDE_CHANNEL_TOKEN = input.sideChannel.token;
  // The child guard records OpenCode's pid there; the same variable in OpenCode's env proves a leftover is ours.
  if (input.home.XDG_RUNTIME_DIR) env[PIDFILE_ENV] = path.join(input.home.XDG_RUNTIME_DIR, "opencode.pid");
  return env;
}
