// The upstream credentials Patchbay can know by value, so the request log can scrub them wherever a body echoes
// them: the user's OpenCode logins (auth.json: API keys, OAuth tokens), literal `apiKey`s in their provider sections,
// and the provider key variables of the environment. Read-only; re-read at most every few seconds.
import fs from "node:fs";
import type { UserOpenCodePaths } from "../../../opencode-user-paths";
import { readUserProviderSections } from "./user-config";

/** Credential fields of an auth.json entry (`{type:"api",key}`, `{type:"oauth",access,refresh}`, well-known tokens). */
const AUTH_FIELDS = ["key", "access", "refresh", "token"];

/** Environment variables that hold provider credentials by their name. */
const SECRET_ENV = /(?:_API_KEY|_ACCESS_KEY|_SECRET(?:_ACCESS)?_KEY|_TOKEN|_AUTH_TOKEN|_SECRET)$/i;

/** Options of {@link providerSecrets}. */
export interface ProviderSecretsOptions {
  user: UserOpenCodePaths;
  env?: NodeJS.ProcessEnv;
  /** Minimum ms between re-reads of the files (default 5000). */
  recheckMs?: number;
  now?: () => number;
}

/** Returns a function listing the known upstream credentials (strings, deduplicated); never throws. */
export function providerSecrets(o: ProviderSecretsOptions): () => string[] {
  const env = o.env ?? process.env;
  const now = o.now ?? Date.now;
  let cached: string[] = [];
  let readAt = -Infinity;
  return () => {
    if (now() - readAt < (o.recheckMs ?? 5000)) return cached;
    readAt = now();
    const found = new Set<string>();
    for (const v of fromAuthFile(o.user.authFile)) found.add(v);
    const { sections } = readUserProviderSections(o.user.configFile);
    for (const provider of Object.values(sections.provider)) {
      const options = isRecord(provider) && isRecord(provider.options) ? provider.options : {};
      for (const [k, v] of Object.entries(options))
        if (/key|token|secret/i.test(k) && typeof v === "string" && !v.startsWith("{")) found.add(v);
    }
    for (const name of [...Object.keys(env).filter((n) => SECRET_ENV.test(n)), ...sections.envRefs]) {
      const value = env[name];
      if (value) found.add(value);
    }
    cached = [...found];
    return cached;
  };
}

function fromAuthFile(file: string | null): string[] {
  if (!file) return [];
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    if (!isRecord(parsed)) return [];
    const out: string[] = [];
    for (const entry of Object.values(parsed)) {
      if (!isRecord(entry)) continue;
      for (const field of AUTH_FIELDS) {
        const v = entry[field];
        if (typeof v === "string" && v !== "") out.push(v);
      }
    }
    return out;
  } catch {
    return [];
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
