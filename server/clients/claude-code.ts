// Claude Code on Patchbay: the Anthropic Messages wire at Patchbay's origin (ANTHROPIC_BASE_URL has no `/v1`), the
// app key as ANTHROPIC_AUTH_TOKEN, and every model tier mapped to Patchbay models. `connect` writes the same variables
// into the `env` block of `~/.claude/settings.json` (or `$CLAUDE_CONFIG_DIR/settings.json`), keeping comments,
// formatting and every other setting. Pure.
import path from "node:path";
import {
  applyEdits,
  modify,
  parse,
  printParseErrorCode,
  type ModificationOptions,
  type ParseError,
} from "jsonc-parser";
import {
  ConfigFileError,
  lineColumn,
  type ClientSettings,
  type LaunchableClient,
  type LaunchPlan,
  type WrittenSettings,
} from "./types";

/** The variables Patchbay sets for Claude Code, in the order they are written. */
export function claudeCodeEnv(s: ClientSettings): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: s.origin,
    ANTHROPIC_AUTH_TOKEN: s.key,
    ANTHROPIC_MODEL: s.model,
    // Every tier: Claude Code's subagents and `/model` ask for "sonnet", "opus" or "haiku" by name.
    ANTHROPIC_DEFAULT_OPUS_MODEL: s.model,
    ANTHROPIC_DEFAULT_SONNET_MODEL: s.model,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: s.smallModel,
    ANTHROPIC_SMALL_FAST_MODEL: s.smallModel,
    // No telemetry, error reporting or update checks to Anthropic: Patchbay is the only endpoint. Not the broader
    // CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: it also switches off gateway model discovery (the `/model` picker).
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    // `/model` lists Patchbay's models: Claude Code asks GET /v1/models (see server/core/claude-code-models.ts).
    CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: "1",
    // Each request says what it is for (`x-claude-code-request-class`, `x-claude-code-agent-type`): an app's routes
    // send subagents, compaction and background calls to the models it chose (`patchbay app route`).
    CLAUDE_CODE_GATEWAY_HINT_HEADERS: "1",
    // No per-conversation billing line at the start of the system prompt (it defeats prompt caching upstream).
    CLAUDE_CODE_ATTRIBUTION_HEADER: "0",
    // Claude Code knows only Anthropic's model names; for others it guesses the window (and warns) unless told.
    ...(s.contextWindow ? { CLAUDE_CODE_MAX_CONTEXT_TOKENS: String(s.contextWindow) } : {}),
  };
}

/** Variables earlier Patchbay versions wrote (still Patchbay's to remove). */
const LEGACY_ENV_NAMES = ["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"];

/** Variables Patchbay owns in settings.json's `env` (removed again by undo without a backup). */
export const CLAUDE_CODE_ENV_NAMES: readonly string[] = [
  ...Object.keys(claudeCodeEnv({ origin: "", key: "", model: "", smallModel: "", contextWindow: 1 })),
  ...LEGACY_ENV_NAMES,
];

/** Inherited variables that would take precedence over Patchbay's settings for one launch. */
const CONFLICTING_ENV = [
  "ANTHROPIC_API_KEY",
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
  "CLAUDE_CODE_USE_FOUNDRY",
];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** jsonc-parser's error codes in words (the usual slips in a hand-edited settings.json), by printParseErrorCode. */
const PARSE_ERROR_WORDS: Record<string, string> = {
  InvalidCommentToken: "a comment, which Claude Code cannot read (it reads settings.json as plain JSON)",
  PropertyNameExpected: "a property name expected: a trailing comma before }?",
  ValueExpected: "a value expected: a trailing comma before ]?",
  CommaExpected: "a comma expected between two entries",
  ColonExpected: 'a ":" expected after a property name',
  CloseBraceExpected: "a } expected",
  CloseBracketExpected: "a ] expected",
  EndOfFileExpected: "text after the end of the JSON object",
  InvalidSymbol: "a character JSON does not allow (quotes must be double quotes)",
  UnexpectedEndOfString: "a string that is never closed",
};

/**
 * Parses settings.json as Claude Code does: plain JSON. Comments and trailing commas are refused although the parser
 * could keep them, because Claude Code itself cannot read such a file (it reports "Invalid or malformed JSON" and
 * runs without its settings), so "connect" would otherwise report OK for a setup that does not work. `strict` false
 * (taking Patchbay's variables out again) tolerates them. Throws ConfigFileError with the location.
 */
function parseSettings(text: string, file = "settings.json", strict = true): { [k: string]: Json } {
  if (text.trim() === "") return {};
  if (strict && text.startsWith("\uFEFF"))
    throw new ConfigFileError(
      `${file} starts with a byte-order mark (U+FEFF), which JSON does not allow. Save it as UTF-8 without BOM; ` +
        "Patchbay did not change it.",
    );
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: !strict, disallowComments: strict }) as Json;
  const first = errors[0];
  if (first) {
    const what = PARSE_ERROR_WORDS[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error);
    throw new ConfigFileError(
      `${file} is not valid JSON (${what} at ${lineColumn(text, first.offset)}). ` +
        "Fix it by hand; Patchbay did not change it.",
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new ConfigFileError(`${file} must hold a JSON object ({ … }); Patchbay did not change it.`);
  const env = value.env;
  if (env !== undefined && (env === null || typeof env !== "object" || Array.isArray(env)))
    throw new ConfigFileError(`The "env" entry of ${file} must be an object; Patchbay did not change it.`);
  return value;
}

/** Indentation the file already uses (default two spaces). */
function detectIndent(text: string): { insertSpaces: boolean; tabSize: number } {
  const m = /\n([ \t]+)"/.exec(text);
  if (m?.[1]?.startsWith("\t")) return { insertSpaces: false, tabSize: 1 };
  return { insertSpaces: true, tabSize: m?.[1]?.length ?? 2 };
}

/** A line this long means a minified file: formatting an edit would reformat the whole line. */
const MINIFIED_LINE = 2_000;

/** jsonc-parser's edit options for `text`: formatted like the file, except a minified file gets compact edits
 *  (jsonc-parser formats the whole line of an edit, which on a one-line file is the whole file, once per change:
 *  quadratic in its size). */
function editOptions(text: string): ModificationOptions {
  if (text.split("\n").some((line) => line.length > MINIFIED_LINE)) return {};
  return { formattingOptions: { ...detectIndent(text), eol: text.includes("\r\n") ? "\r\n" : "\n" } };
}

/** Sets or removes `env.<name>` entries with minimal text edits. */
function editEnv(text: string, changes: Record<string, string | undefined>): string {
  const options = editOptions(text);
  let out = text;
  for (const [name, value] of Object.entries(changes))
    out = applyEdits(out, modify(out, ["env", name], value, options));
  return out;
}

/** Merges Patchbay's variables into settings.json text (null: no file yet). Throws ConfigFileError. */
export function mergeClaudeSettings(current: string | null, s: ClientSettings): string {
  const base = current === null || current.trim() === "" ? "{}\n" : current;
  const env = (parseSettings(base).env ?? {}) as Record<string, Json>;
  // A variable an earlier Patchbay wrote that would now switch off the model picker goes.
  const legacy = Object.fromEntries(LEGACY_ENV_NAMES.filter((n) => Object.hasOwn(env, n)).map((n) => [n, undefined]));
  const merged = editEnv(base, { ...legacy, ...claudeCodeEnv(s) });
  return current === null && !merged.endsWith("\n") ? `${merged}\n` : merged;
}

/** Removes Patchbay's variables (and an `env` block left empty) from settings.json text. Throws ConfigFileError. */
export function unmergeClaudeSettings(current: string): string {
  const parsed = parseSettings(current, "settings.json", false);
  const env = (parsed.env ?? {}) as Record<string, Json>;
  const owned = CLAUDE_CODE_ENV_NAMES.filter((n) => Object.hasOwn(env, n));
  if (owned.length === 0) return current;
  let out = editEnv(current, Object.fromEntries(owned.map((n) => [n, undefined])));
  if (Object.keys(env).length === owned.length)
    out = applyEdits(out, modify(out, ["env"], undefined, editOptions(out)));
  return out;
}

/** Base URL, key and model a merged settings.json holds, or null. Throws ConfigFileError. */
export function readClaudeSettings(current: string): WrittenSettings | null {
  const env = (parseSettings(current).env ?? {}) as Record<string, Json>;
  const origin = env.ANTHROPIC_BASE_URL;
  const key = env.ANTHROPIC_AUTH_TOKEN;
  const model = env.ANTHROPIC_MODEL;
  if (typeof origin !== "string" || typeof key !== "string" || typeof model !== "string") return null;
  return { url: `${origin.replace(/\/+$/, "")}/v1/messages`, key, model };
}

/**
 * One run of Claude Code on Patchbay: the variables in its environment and, because the `env` block of the user's
 * settings.json (e.g. written by `connect`) outranks the process environment, the same variables in a `--settings`
 * file: Claude Code ranks flag settings above user, project and local settings, so the model and key `launch` chose
 * win. The file lives in `dir` (the run's private folder).
 */
export function claudeCodeLaunch(s: ClientSettings, dir: string): LaunchPlan {
  const env = claudeCodeEnv(s);
  const file = path.join(dir, "claude-settings.json");
  return {
    env,
    unsetEnv: CONFLICTING_ENV,
    args: ["--settings", file],
    files: { [file]: `${JSON.stringify({ env }, null, 2)}\n` },
  };
}

/** Claude Code (`claude`, npm `@anthropic-ai/claude-code`). */
export const claudeCode: LaunchableClient = {
  id: "claude-code",
  aliases: ["claude"],
  name: "Claude Code",
  bin: "claude",
  binEnv: "PATCHBAY_CLAUDE_BIN",
  install: "npm i -g @anthropic-ai/claude-code",
  wire: "anthropic-messages",
  launch: claudeCodeLaunch,
  config: {
    path: (env, home) =>
      path.join(env.CLAUDE_CONFIG_DIR?.trim() ? env.CLAUDE_CONFIG_DIR : path.join(home, ".claude"), "settings.json"),
    movedBy: ["CLAUDE_CONFIG_DIR"],
    merge: mergeClaudeSettings,
    unmerge: unmergeClaudeSettings,
    read: readClaudeSettings,
  },
};
