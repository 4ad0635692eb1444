// Codex on Patchbay: a `patchbay` model provider speaking the Responses wire at `<origin>/v1`. `launch` passes it as
// `-c` overrides with the key in PATCHBAY_KEY (`env_key`); `connect` writes `model`, `model_provider` and a
// `[model_providers.patchbay]` table into `~/.codex/config.toml` (or `$CODEX_HOME/config.toml`) with the key as the
// provider's `experimental_bearer_token`, so Codex works without any variable exported. Edits are made on the text
// (comments and layout survive) and checked by parsing the result. Pure.
import path from "node:path";
import { parse, TomlError } from "smol-toml";
import { codexModelCatalog, type CodexCatalogModel } from "./codex-catalog";
import {
  ConfigFileError,
  type ClientModel,
  type ClientSettings,
  type LaunchableClient,
  type LaunchPlan,
  type WrittenSettings,
} from "./types";

/** Name of the model provider Patchbay adds. */
export const CODEX_PROVIDER = "patchbay";
/** Variable `launch` passes the key in (the provider's `env_key`). */
export const CODEX_KEY_ENV = "PATCHBAY_KEY";
/** Name of the model catalog file (in the launch folder; next to config.toml for connect). */
export const CODEX_CATALOG_FILE = "patchbay-models.json";

/** A TOML basic string. JSON string escapes are valid TOML for the ids, URLs and keys written here. */
function str(value: string): string {
  return JSON.stringify(value);
}

/** `-c` overrides for one run (values are TOML, as `codex --help` documents). */
export function codexLaunchArgs(s: ClientSettings): string[] {
  const p = `model_providers.${CODEX_PROVIDER}`;
  return [
    ["model_provider", str(CODEX_PROVIDER)],
    [`${p}.name`, str("Patchbay")],
    [`${p}.base_url`, str(`${s.origin}/v1`)],
    [`${p}.env_key`, str(CODEX_KEY_ENV)],
    [`${p}.wire_api`, str("responses")],
    [`${p}.supports_websockets`, "false"],
    ["model", str(s.model)],
  ].flatMap(([k, v]) => ["-c", `${k}=${v}`]);
}

type Toml = Record<string, unknown>;

/** Parses config.toml. Throws ConfigFileError with the parse error's location. */
function parseConfig(text: string): Toml {
  try {
    return parse(text) as Toml;
  } catch (err) {
    if (err instanceof TomlError)
      throw new ConfigFileError(
        `config.toml is not valid TOML (line ${err.line}, column ${err.column}: ${err.message.split("\n")[0]}). ` +
          "Fix it by hand; Patchbay did not change it.",
      );
    throw err;
  }
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;
const PROVIDER_HEADER = new Set([
  `model_providers.${CODEX_PROVIDER}`,
  `"model_providers".${CODEX_PROVIDER}`,
  `model_providers."${CODEX_PROVIDER}"`,
]);

/** Index of the first table header line (end of the root table), or lines.length. */
function rootEnd(lines: readonly string[]): number {
  const i = lines.findIndex((l) => HEADER.test(l));
  return i < 0 ? lines.length : i;
}

/** Index of the root-table line assigning `key` (bare or quoted), or -1. */
function rootKeyLine(lines: readonly string[], key: string): number {
  const re = new RegExp(`^\\s*("?)${key}\\1\\s*=`);
  const end = rootEnd(lines);
  for (let i = 0; i < end; i++) if (re.test(lines[i] ?? "")) return i;
  return -1;
}

/** [start, end) of the `[model_providers.patchbay]` table (header line to the next header), or null. */
function providerTable(lines: readonly string[]): [number, number] | null {
  const start = lines.findIndex((l) => PROVIDER_HEADER.has(HEADER.exec(l)?.[1]?.replace(/\s+/g, "") ?? ""));
  if (start < 0) return null;
  let end = start + 1;
  while (end < lines.length && !HEADER.test(lines[end] ?? "")) end++;
  // Keep blank lines and comments that introduce the next table with that table.
  while (end > start + 1 && /^\s*(#.*)?$/.test(lines[end - 1] ?? "")) end--;
  return [start, end];
}

/** The provider table Patchbay writes. */
function providerLines(s: ClientSettings): string[] {
  return [
    `[model_providers.${CODEX_PROVIDER}]`,
    `name = ${str("Patchbay")}`,
    `base_url = ${str(`${s.origin}/v1`)}`,
    `wire_api = ${str("responses")}`,
    // Patchbay serves Responses over HTTP only (no WebSocket transport), as the Connect page's snippet says.
    "supports_websockets = false",
    `experimental_bearer_token = ${str(s.key)}`,
  ];
}

/** Splits text into lines, remembering the line ending and whether it ended with one. */
function splitLines(text: string): { lines: string[]; eol: string; finalEol: boolean } {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const finalEol = text === "" || text.endsWith("\n");
  const body = finalEol ? text.replace(/\r?\n$/, "") : text;
  return { lines: body === "" ? [] : body.split(/\r?\n/), eol, finalEol };
}

function joinLines(lines: readonly string[], eol: string, finalEol: boolean): string {
  return lines.join(eol) + (finalEol ? eol : "");
}

/** The provider entry, however the file spells it (table, dotted keys, inline table). */
function providerOf(config: Toml): Toml | undefined {
  const providers = config.model_providers;
  if (providers === undefined) return undefined;
  if (typeof providers !== "object" || providers === null || Array.isArray(providers))
    throw new ConfigFileError("config.toml's model_providers must be a table; Patchbay did not change it.");
  const p = (providers as Toml)[CODEX_PROVIDER];
  if (p === undefined) return undefined;
  if (typeof p !== "object" || p === null || Array.isArray(p))
    throw new ConfigFileError(
      `config.toml's model_providers.${CODEX_PROVIDER} must be a table; Patchbay did not change it.`,
    );
  return p as Toml;
}

/** Where connect writes the model catalog for the config file `file`: `patchbay-models.json` next to it. */
export function codexCatalogPath(file: string): string {
  return path.join(path.dirname(file), CODEX_CATALOG_FILE);
}

/**
 * Merges Patchbay's provider and model into config.toml text (null: no file yet). With the config file's path and
 * the app's models, also `model_catalog_json` naming the catalog connect writes next to it
 * ({@link codexCatalogPath}). Throws ConfigFileError.
 */
export function mergeCodexConfig(current: string | null, s: ClientSettings, file?: string): string {
  const text = current ?? "";
  const before = parseConfig(text);
  const { lines, eol, finalEol } = splitLines(text);
  const table = providerTable(lines);
  if (!table && providerOf(before) !== undefined)
    throw new ConfigFileError(
      `config.toml defines model_providers.${CODEX_PROVIDER} in a form Patchbay does not edit (not a ` +
        `[model_providers.${CODEX_PROVIDER}] table). Remove it or turn it into that table; Patchbay did not change it.`,
    );
  // The provider table: replaced in place, else appended.
  if (table) lines.splice(table[0], table[1] - table[0], ...providerLines(s));
  else lines.push(...(lines.length > 0 && (lines.at(-1) ?? "").trim() !== "" ? [""] : []), ...providerLines(s));
  // Root keys: replaced in place, else inserted before the first table.
  const catalog = file && s.models?.length ? codexCatalogPath(file) : null;
  for (const [key, value] of [
    ["model_provider", CODEX_PROVIDER],
    ["model", s.model],
    ...(catalog ? [["model_catalog_json", catalog] as const] : []),
  ] as const) {
    const line = `${key} = ${str(value)}`;
    const at = rootKeyLine(lines, key);
    if (at >= 0) lines[at] = line;
    else {
      // After the root table's last entry: above the blank lines and comments that introduce the first table.
      let end = rootEnd(lines);
      while (end > 0 && /^\s*#/.test(lines[end - 1] ?? "")) end--;
      while (end > 0 && (lines[end - 1] ?? "").trim() === "") end--;
      lines.splice(end, 0, ...(end === 0 && lines.length > 0 ? [line, ""] : [line]));
    }
  }
  const merged = joinLines(lines, eol, current === null ? true : finalEol);
  checkMerged(merged, s, catalog);
  return merged;
}

/** Refuses a text edit that did not produce exactly the intended settings (e.g. an unusual multi-line value). */
function checkMerged(merged: string, s: ClientSettings, catalog: string | null): void {
  let after: Toml;
  try {
    after = parse(merged) as Toml;
  } catch {
    throw new ConfigFileError("config.toml has a layout Patchbay cannot edit safely; Patchbay did not change it.");
  }
  const p = providerOf(after);
  if (
    after.model !== s.model ||
    after.model_provider !== CODEX_PROVIDER ||
    p?.base_url !== `${s.origin}/v1` ||
    p.experimental_bearer_token !== s.key ||
    (catalog !== null && after.model_catalog_json !== catalog)
  )
    throw new ConfigFileError("config.toml has a layout Patchbay cannot edit safely; Patchbay did not change it.");
}

/**
 * Removes Patchbay's provider table, and `model`/`model_provider` (and a `model_catalog_json` naming Patchbay's
 * catalog) when they point at it. Throws ConfigFileError.
 */
export function unmergeCodexConfig(current: string): string {
  const config = parseConfig(current);
  const { lines, eol, finalEol } = splitLines(current);
  if (config.model_provider === CODEX_PROVIDER) {
    const ours =
      typeof config.model_catalog_json === "string" && path.basename(config.model_catalog_json) === CODEX_CATALOG_FILE;
    for (const key of ["model_provider", "model", ...(ours ? ["model_catalog_json"] : [])]) {
      const at = rootKeyLine(lines, key);
      if (at >= 0) lines.splice(at, 1);
    }
  }
  const table = providerTable(lines);
  if (table) {
    let [start] = table;
    if (start > 0 && (lines[start - 1] ?? "").trim() === "") start--;
    lines.splice(start, table[1] - start);
  }
  while (lines.length > 0 && (lines[0] ?? "").trim() === "") lines.shift();
  return joinLines(lines, eol, finalEol && lines.length > 0);
}

/** Base URL, key and model a merged config.toml holds, or null. Throws ConfigFileError. */
export function readCodexConfig(current: string): WrittenSettings | null {
  const config = parseConfig(current);
  const p = providerOf(config);
  if (config.model_provider !== CODEX_PROVIDER || !p) return null;
  const { base_url: base, experimental_bearer_token: key } = p;
  if (typeof base !== "string" || typeof key !== "string" || typeof config.model !== "string") return null;
  return { url: `${base.replace(/\/+$/, "")}/responses`, key, model: config.model };
}

/**
 * One run of Codex on Patchbay: the provider as `-c` overrides, the key in {@link CODEX_KEY_ENV}, and, when the
 * app's models are known, a model catalog in `dir` named by `model_catalog_json` (see codex-catalog.ts).
 */
export function codexLaunch(s: ClientSettings, dir: string): LaunchPlan {
  const args = codexLaunchArgs(s);
  if (!s.models?.length) return { env: { [CODEX_KEY_ENV]: s.key }, unsetEnv: [], args };
  const file = path.join(dir, CODEX_CATALOG_FILE);
  return {
    env: { [CODEX_KEY_ENV]: s.key },
    unsetEnv: [],
    args: [...args, "-c", `model_catalog_json=${str(file)}`],
    files: { [file]: codexModelCatalog(s.models.map(catalogModel)) },
  };
}

/**
 * The catalog `model_catalog_json` names, as the companion file connect writes next to config.toml: the app's models
 * (none: no catalog, and merge writes no `model_catalog_json`).
 */
function codexCatalogCompanion(s: ClientSettings): string | null {
  return s.models?.length ? codexModelCatalog(s.models.map(catalogModel)) : null;
}

/** Why the catalog connect wrote does not offer `model` (unreadable, not JSON, model missing), or null when it does. */
export function checkCodexCatalog(text: string, model: string): string | null {
  let slugs: unknown[];
  try {
    const models = (JSON.parse(text) as { models?: unknown }).models;
    if (!Array.isArray(models)) return "it has no models list";
    slugs = models.map((m) => (m as { slug?: unknown } | null)?.slug);
  } catch {
    return "it is not valid JSON";
  }
  return slugs.includes(model) ? null : `it does not list the model "${model}"`;
}

/** A client model as a catalog entry. */
function catalogModel(m: ClientModel): CodexCatalogModel {
  return {
    slug: m.id,
    displayName: m.name,
    description: m.description,
    contextWindow: m.contextWindow,
    image: m.image,
    reasoning: m.reasoning,
  };
}

/** Codex (`codex`, npm `@openai/codex`). */
export const codex: LaunchableClient = {
  id: "codex",
  aliases: [],
  name: "Codex",
  bin: "codex",
  binEnv: "PATCHBAY_CODEX_BIN",
  install: "npm i -g @openai/codex",
  wire: "openai-responses",
  launch: codexLaunch,
  config: {
    path: (env, home) => path.join(env.CODEX_HOME?.trim() ? env.CODEX_HOME : path.join(home, ".codex"), "config.toml"),
    movedBy: ["CODEX_HOME"],
    merge: mergeCodexConfig,
    unmerge: unmergeCodexConfig,
    read: readCodexConfig,
    companion: {
      what: "Codex's model catalog",
      path: codexCatalogPath,
      // Patchbay owns the file whole: its text depends on the settings only.
      merge: (_current, s) => codexCatalogCompanion(s),
      check: checkCodexCatalog,
    },
  },
};
