// Claude Desktop on Patchbay: its third-party inference ("3P") gateway profile. Anthropic's configuration reference
// (claude.com/docs/third-party/claude-desktop/configuration and …/gateway) documents the keys and where a local
// configuration lives: the folder `Claude-3p/configLibrary/` in the app's data folder, where `_meta.json` records
// which saved configuration is applied and each configuration is a `<id>.json` file beside it. connect writes one
// configuration of its own (a fixed id, named "Patchbay") with `inferenceProvider: "gateway"`,
// `inferenceGatewayBaseUrl` (Patchbay's origin on literal 127.0.0.1, no `/v1`: the app adds `/v1/messages` and
// `/v1/models` itself), `inferenceGatewayApiKey`, `inferenceGatewayAuthScheme: "bearer"` and `inferenceModels` (the
// app's models under ids that read as Anthropic's), and applies it in `_meta.json` (the companion file). The app reads
// the configuration once at launch. Pure.
import path from "node:path";
import { claudeCodeModelId } from "../core/claude-code-models";
import {
  ConfigFileError,
  type ClientSettings,
  type ClientSpec,
  type CompanionFile,
  type WrittenSettings,
} from "./types";

/** Id of Patchbay's configuration in the library (the profile is `<id>.json`; fixed, so re-runs replace it). */
export const CLAUDE_DESKTOP_PROFILE_ID = "9a7c1e52-5061-4263-8862-6179d0c0ffee";
/** Its name in `_meta.json` (the app's configuration window lists it). */
export const CLAUDE_DESKTOP_PROFILE_NAME = "Patchbay";

/**
 * The app's `configLibrary` folder: `$CLAUDE_USER_DATA_DIR/configLibrary` when set (the app's own override of its
 * data folder), else `Claude-3p/configLibrary` in the OS's per-user app-data folder (macOS `~/Library/Application
 * Support`, Windows `%LOCALAPPDATA%`, elsewhere `$XDG_CONFIG_HOME` or `~/.config`).
 */
export function claudeDesktopLibrary(
  env: Record<string, string | undefined>,
  home: string,
  platform: NodeJS.Platform = process.platform,
): string {
  const own = env.CLAUDE_USER_DATA_DIR?.trim();
  if (own) return path.join(own, "configLibrary");
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "Claude-3p", "configLibrary");
  if (platform === "win32")
    return path.join(env.LOCALAPPDATA?.trim() || path.join(home, "AppData", "Local"), "Claude-3p", "configLibrary");
  return path.join(env.XDG_CONFIG_HOME?.trim() || path.join(home, ".config"), "Claude-3p", "configLibrary");
}

type Json = Record<string, unknown>;

/** Parses a JSON object file. Throws ConfigFileError naming `name` and the reason. */
function parseObject(text: string, name: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigFileError(`${name} is not valid JSON (${(err as Error).message}); Patchbay did not change it.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ConfigFileError(`${name} is not a JSON object; Patchbay did not change it.`);
  return value as Json;
}

/** `http://127.0.0.1:4747` for `http://localhost:4747`: the profile names the loopback address literally. */
function literalLoopback(origin: string): string {
  const url = new URL(origin);
  if (url.hostname === "localhost") url.hostname = "127.0.0.1";
  return url.origin;
}

/** The model ids the profile offers, the chosen one first, each in the form Claude's clients keep. */
function profileModels(s: ClientSettings): string[] {
  const ids = [s.model, ...(s.models ?? []).map((m) => m.id)];
  return [...new Set(ids.map(claudeCodeModelId))];
}

/** The profile's keys for these settings (see the file comment for each). */
export function claudeDesktopProfile(s: ClientSettings): Json {
  return {
    inferenceProvider: "gateway",
    inferenceGatewayBaseUrl: literalLoopback(s.origin),
    inferenceGatewayApiKey: s.key,
    inferenceGatewayAuthScheme: "bearer",
    inferenceModels: profileModels(s),
  };
}

const PROFILE_KEYS = Object.keys(claudeDesktopProfile({ origin: "http://x", key: "", model: "m", smallModel: "m" }));

/** The profile's text with Patchbay's keys set; other keys of an earlier version of it are kept. */
export function mergeClaudeDesktopProfile(current: string | null, s: ClientSettings): string {
  const base = current === null || current.trim() === "" ? {} : parseObject(current, "The Patchbay profile");
  return `${JSON.stringify({ ...base, ...claudeDesktopProfile(s) }, null, 2)}\n`;
}

/** The profile without Patchbay's keys ("" when nothing else is left). */
export function unmergeClaudeDesktopProfile(current: string): string {
  const rest = parseObject(current, "The Patchbay profile");
  for (const k of PROFILE_KEYS) delete rest[k];
  return Object.keys(rest).length === 0 ? "" : `${JSON.stringify(rest, null, 2)}\n`;
}

/** What the profile configures: `POST <base>/v1/messages` with its key as a bearer token, its first model. */
export function readClaudeDesktopProfile(current: string): WrittenSettings | null {
  const p = parseObject(current, "The Patchbay profile");
  const { inferenceGatewayBaseUrl: base, inferenceGatewayApiKey: key, inferenceModels: models } = p;
  if (p.inferenceProvider !== "gateway" || typeof base !== "string" || typeof key !== "string") return null;
  const model = Array.isArray(models) && typeof models[0] === "string" ? models[0] : null;
  if (!model) return null;
  const scheme = p.inferenceGatewayAuthScheme === "x-api-key" ? "x-api-key" : "bearer";
  return { url: `${base.replace(/\/+$/, "")}/v1/messages`, key, model, authScheme: scheme };
}

/** `_meta.json` with Patchbay's configuration listed and applied; other entries and keys are kept. */
export function mergeClaudeDesktopMeta(current: string | null): string {
  const meta = current === null || current.trim() === "" ? { entries: [] } : parseObject(current, "_meta.json");
  const entries = meta.entries ?? [];
  if (!Array.isArray(entries))
    throw new ConfigFileError("_meta.json's entries is not a list; Patchbay did not change it.");
  const entry = { id: CLAUDE_DESKTOP_PROFILE_ID, name: CLAUDE_DESKTOP_PROFILE_NAME };
  const at = entries.findIndex((e) => (e as Json | null)?.id === CLAUDE_DESKTOP_PROFILE_ID);
  const next = at < 0 ? [...entries, entry] : entries.map((e, i) => (i === at ? { ...(e as Json), ...entry } : e));
  return `${JSON.stringify({ ...meta, appliedId: CLAUDE_DESKTOP_PROFILE_ID, entries: next }, null, 2)}\n`;
}

/** `_meta.json`, listing and applying Patchbay's profile beside it. */
const metaCompanion: CompanionFile = {
  what: "Claude Desktop's configuration list (_meta.json, which applies the Patchbay profile)",
  path: (profile) => path.join(path.dirname(profile), "_meta.json"),
  merge: (current) => mergeClaudeDesktopMeta(current),
  check(text) {
    try {
      const meta = JSON.parse(text) as Json;
      return meta.appliedId === CLAUDE_DESKTOP_PROFILE_ID ? null : "it applies another configuration";
    } catch {
      return "it is not valid JSON";
    }
  },
};

/** Claude Desktop (third-party inference through a gateway). `connect` only: it is a desktop app. */
export const claudeDesktop: ClientSpec = {
  id: "claude-desktop",
  aliases: [],
  name: "Claude Desktop",
  install: "download it from https://claude.com/download",
  wire: "anthropic-messages",
  config: {
    path: (env, home) => path.join(claudeDesktopLibrary(env, home), `${CLAUDE_DESKTOP_PROFILE_ID}.json`),
    merge: mergeClaudeDesktopProfile,
    unmerge: unmergeClaudeDesktopProfile,
    read: readClaudeDesktopProfile,
    companion: metaCompanion,
  },
};
