// What Patchbay knows about one coding agent (a client of Patchbay's API): how to start it on Patchbay (environment
// and command-line settings only) and, for clients with a config file, how to merge Patchbay's settings into it and
// take them out again. Pure: no file system, no processes, no network.

/** Where a client's Patchbay settings point to, and with what. */
export interface ClientSettings {
  /** Patchbay's origin without `/v1`, e.g. `http://127.0.0.1:4747`. */
  origin: string;
  /** The app key (`pb-…`). */
  key: string;
  /** Model id or alias for the main work. */
  model: string;
  /** Model id or alias for small, fast tasks (titles, summaries); often the same as `model`. */
  smallModel: string;
  /** The main model's context window in tokens, when the catalog knows it. */
  contextWindow?: number | null;
  /** Every model the app may use (the chosen one first), for clients that keep a model catalog (Codex). */
  models?: ClientModel[];
}

/** One model a client may offer (a catalog model or an alias of the app). */
export interface ClientModel {
  /** The name the client sends (`provider/model` or an alias). */
  id: string;
  name: string;
  description: string;
  /** Tokens; null when unknown. */
  contextWindow: number | null;
  /** Accepts image input. */
  image: boolean;
  reasoning: boolean;
}

/** How to start a client on Patchbay without touching its files. */
export interface LaunchPlan {
  /** Variables to set in the client's environment. */
  env: Record<string, string>;
  /** Variables to remove from the inherited environment (they would override Patchbay's settings). */
  unsetEnv: string[];
  /** Arguments placed before the user's own. */
  args: string[];
  /**
   * Files the client reads for this run only (absolute path → text), all inside the launch folder passed to
   * {@link ClientSpec.launch}. Written with mode 0600 before the client starts, removed when it ends: they may hold
   * the key.
   */
  files?: Record<string, string>;
}

/** The wire a client speaks, i.e. what `verify` sends. */
export type ClientWire = "anthropic-messages" | "openai-responses" | "openai-chat";

/** A config file that cannot be edited safely (broken syntax, unexpected shape). Nothing is written. */
export class ConfigFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigFileError";
  }
}

/** What Patchbay reads back from a client's config file to verify it. */
export interface WrittenSettings {
  /** URL of the request `verify` sends (e.g. `http://127.0.0.1:4747/v1/messages`). */
  url: string;
  key: string;
  model: string;
  /**
   * How the client sends the key on the Anthropic wire: `bearer` (Authorization only), `x-api-key` (that header only);
   * absent: both, as Claude Code does with ANTHROPIC_AUTH_TOKEN.
   */
  authScheme?: "bearer" | "x-api-key";
}

/** A client's own config file: where it is and how Patchbay edits it. */
export interface ClientConfigFile {
  /** Absolute path of the file for this environment (HOME and the client's own override variables). */
  path(env: Record<string, string | undefined>, home: string): string;
  /** The client's own variables that move the file (`CLAUDE_CONFIG_DIR`): a hint to run connect again names them. */
  movedBy?: readonly string[];
  /**
   * The file's text with Patchbay's settings merged in (`current` null: no file yet). Everything else is kept as it
   * was, byte for byte where the format allows. Throws {@link ConfigFileError} for a file it cannot edit safely.
   */
  merge(current: string | null, settings: ClientSettings, file?: string): string;
  /** The text with Patchbay's settings taken out (used by undo when no backup is known). Throws ConfigFileError. */
  unmerge(current: string): string;
  /** The settings a merged file holds, or null when it holds none. Throws ConfigFileError for a broken file. */
  read(current: string): WrittenSettings | null;
  /** A second file Patchbay owns whole and the config file refers to (Codex's model catalog). */
  companion?: CompanionFile;
}

/**
 * A file connect writes whole next to a client's config file, which refers to it. Backed up, restored and checked
 * with the config file (written before it, restored after it, so the config never names a missing file).
 */
export interface CompanionFile {
  /** What it is, for messages (`Codex's model catalog`). */
  what: string;
  /** Its absolute path, from the config file's. */
  path(configFile: string): string;
  /**
   * Its text for these settings from its current text (null: no file yet), or null when there is nothing to write
   * (the config's merge then leaves the reference out). Throws ConfigFileError for a file it cannot edit safely.
   */
  merge(current: string | null, settings: ClientSettings): string | null;
  /** Why its text does not fit the config's `model` (shown by verify), or null when it does. */
  check(text: string, model: string): string | null;
}

/** One coding agent. */
export interface ClientSpec {
  /** Id and default app name, e.g. `claude-code`. */
  id: string;
  /** Other names accepted on the command line (`claude`). */
  aliases: readonly string[];
  /** Display name (`Claude Code`). */
  name: string;
  /** Executable looked up on PATH (absent: a desktop app `launch` cannot start). */
  bin?: string;
  /** Environment variable that overrides the executable's path (tests, unusual installs). */
  binEnv?: string;
  /** How to install it. */
  install: string;
  wire: ClientWire;
  /** Environment, arguments and per-run files (inside `dir`, a folder private to this run) that put the client on
   *  Patchbay for one run; absent when `launch` does not support the client (set it up with `connect`). */
  launch?(settings: ClientSettings, dir: string): LaunchPlan;
  /** Its own config file, when `patchbay connect` supports it. */
  config?: ClientConfigFile;
}

/** A client `launch` can start: it has an executable and a launch plan. */
export type LaunchableClient = ClientSpec & Required<Pick<ClientSpec, "launch" | "bin" | "binEnv">>;

/** `1:5` style location of a character offset in `text` (1-based line and column). */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `line ${line}, column ${column}`;
}
