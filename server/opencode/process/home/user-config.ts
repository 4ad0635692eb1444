// Reads what Patchbay takes from the user's own OpenCode setup: the provider sections of their global opencode.json
// and where their auth.json lives (DESIGN §1). Never writes to the user's files; tolerates missing/corrupt files.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The three sections Patchbay takes from the user's global config (everything else stays out). */
export interface UserProviderSections {
  provider: Record<string, unknown>;
  enabled_providers?: string[];
  disabled_providers: string[];
  /** Environment variables the sections reference as `{env:NAME}` (passed through to OpenCode). */
  envRefs: string[];
}

/** Result of {@link readUserProviderSections}: the sections plus notices for the UI (corrupt file, …). */
export interface UserConfigRead {
  sections: UserProviderSections;
  notices: string[];
}

const EMPTY: UserProviderSections = { provider: {}, disabled_providers: [], envRefs: [] };

/**
 * Reads `provider`, `enabled_providers` and `disabled_providers` from the user's global opencode.json(c).
 * Missing file or null path → empty sections, no notice. Unreadable/invalid → empty sections and a notice.
 * Relative `{file:…}` references are made absolute against the config file's folder (the generated config lives
 * elsewhere) and `~/` against the user's real home.
 */
export function readUserProviderSections(configFile: string | null, homeDir: string = os.homedir()): UserConfigRead {
  if (!configFile) return { sections: { ...EMPTY }, notices: [] };
  let text: string;
  try {
    text = fs.readFileSync(configFile, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { sections: { ...EMPTY }, notices: [] };
    return {
      sections: { ...EMPTY },
      notices: [
        `Could not read your OpenCode config ${configFile}: ${(err as Error).message}. Custom providers are not available.`,
      ],
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonc(text));
  } catch (err) {
    return {
      sections: { ...EMPTY },
      notices: [
        `Your OpenCode config ${configFile} is not valid JSON (${(err as Error).message}). Custom providers are not available.`,
      ],
    };
  }
  if (!isRecord(parsed)) {
    return {
      sections: { ...EMPTY },
      notices: [`Your OpenCode config ${configFile} is not a JSON object. Custom providers are not available.`],
    };
  }
  const notices: string[] = [];
  const baseDir = path.dirname(configFile);
  const provider = isRecord(parsed.provider)
    ? (rewriteRefs(parsed.provider, baseDir, homeDir) as Record<string, unknown>)
    : {};
  if (parsed.provider !== undefined && !isRecord(parsed.provider))
    notices.push(`Ignored "provider" in ${configFile}: not an object.`);
  const list = (key: "enabled_providers" | "disabled_providers"): string[] | undefined => {
    const v = parsed[key];
    if (v === undefined) return undefined;
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v;
    notices.push(`Ignored "${key}" in ${configFile}: not a list of provider ids.`);
    return undefined;
  };
  const enabled = list("enabled_providers");
  const sections: UserProviderSections = {
    provider,
    disabled_providers: list("disabled_providers") ?? [],
    envRefs: [
      ...new Set(
        [...JSON.stringify(provider).matchAll(/\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1] as string),
      ),
    ],
  };
  if (enabled) sections.enabled_providers = enabled;
  return { sections, notices };
}

/** JSONC → JSON text: removes comments, then trailing commas, outside strings (OpenCode accepts both). */
export function stripJsonc(text: string): string {
  return scan(scan(text, "comments"), "commas");
}

function scan(text: string, remove: "comments" | "commas"): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (remove === "comments" && c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (remove === "comments" && c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (remove === "commas" && c === ",") {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j] as string)) j++;
      if (text[j] !== "}" && text[j] !== "]") out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function rewriteRefs(value: unknown, baseDir: string, homeDir: string): unknown {
  if (typeof value === "string") {
    return value.replace(/\{file:([^}]+)\}/g, (_m, p: string) => {
      const abs = p.startsWith("~/") ? path.join(homeDir, p.slice(2)) : path.resolve(baseDir, p);
      return `{file:${abs}}`;
    });
  }
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, baseDir, homeDir));
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteRefs(v, baseDir, homeDir)]));
  return value;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
