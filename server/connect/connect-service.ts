// `connect` as four operations shared by the CLI and the admin API: preview (diff, writes nothing — not even a new
// app or key), apply, undo and verify. Results use the admin API's schemas (shared/admin/connect.ts).
import type {
  ConnectApplyResult,
  ConnectCompanion,
  ConnectPreview,
  ConnectUndoResult,
  ConnectVerifyResult,
} from "../../shared/admin/connect";
import { readFile } from "node:fs/promises";
import type { PatchbayStatus } from "../../shared/status";
import { PatchbayError } from "../core/errors";
import type { ConnectableClient } from "../clients/registry";
import { ConfigFileError, type ClientSettings } from "../clients/types";
import {
  applyConnect,
  configPath,
  keyInText,
  planConnect,
  planDiff,
  undoConnect,
  type ConnectPlan,
} from "./connect-files";
import { ensureConnectKey, isReusableConnectKey } from "./connect-key";
import { keyPrefixOf } from "../stores/keys-store";
import { apiOrigin, chooseModels, clientSettings, type PatchbayAccess } from "./patchbay-access";
import type { CliCommand } from "../core/cli-command";
import { patchbayCommand } from "./patchbay-command";
import { verifyClient } from "./verify";

/** Stands in for a key that apply would create (a preview must not create one). */
export const PENDING_KEY = "pb-(a new key is created when you apply)";

/** Settings for reading the config file as it is (a plan made with them is never written). */
const PLACEHOLDER_SETTINGS: ClientSettings = {
  origin: "http://127.0.0.1",
  key: PENDING_KEY,
  model: "m",
  smallModel: "m",
};

/** What every operation needs. */
export interface ConnectRequest {
  client: ConnectableClient;
  /** Environment for the config file's location (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME). */
  env: Record<string, string | undefined>;
  /** The app the key belongs to (default: the client's id). */
  app?: string;
  model?: string;
  /** How hints name a Patchbay command, the data folder included (default: {@link patchbayCommand} with `env`). */
  cli?: CliCommand;
}

/** A ConfigFileError becomes a 400 the admin API and the CLI show as is (nothing was written). */
function asPatchbayError(err: unknown): never {
  if (err instanceof ConfigFileError) throw new PatchbayError("invalid_request_error", err.message, { cause: err });
  throw err;
}

/** `fn()`, with a ConfigFileError turned into PatchbayError (see {@link asPatchbayError}). */
function configStep<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    return asPatchbayError(err);
  }
}

/** How the user runs connect again for this client (`patchbay connect codex`). */
function connectCommandOf(r: ConnectRequest): string {
  return cliOf(r)(`connect ${commandName(r)}`);
}

/** The client's name in its connect command (`claude` for claude-code). */
function commandName(r: ConnectRequest): string {
  return r.client.aliases[0] ?? r.client.id;
}

function cliOf(r: ConnectRequest): CliCommand {
  return r.cli ?? ((args) => patchbayCommand(args, r.env));
}

function appOf(r: ConnectRequest): string {
  return r.app ?? r.client.id;
}

/** Settings for a preview: the key in the config file when connect would keep it (connect-key.ts), else
 *  {@link PENDING_KEY}. Creates nothing. */
async function previewSettings(
  access: PatchbayAccess,
  r: ConnectRequest,
  before: string | null,
): Promise<ClientSettings> {
  const app = appOf(r);
  const origin = apiOrigin(await access.status());
  const chosen = await chooseModels(access, app, r.model);
  const current = keyInText(r.client, before);
  const keep = current !== null && (await isReusableConnectKey(access, app, current));
  return { origin, ...chosen, key: keep ? current : PENDING_KEY };
}

/** The diff connect would apply. Throws PatchbayError (400 for a file it cannot edit). */
export async function previewConnect(access: PatchbayAccess, r: ConnectRequest): Promise<ConnectPreview> {
  const target = { client: r.client, dataDir: access.dataDir, env: r.env };
  // The file as it is (refused here when broken, before anything is asked of Patchbay).
  const current = await planConnect(target, PLACEHOLDER_SETTINGS).catch(asPatchbayError);
  const settings = await previewSettings(access, r, current.before);
  const plan = await planConnect(target, settings).catch(asPatchbayError);
  const notes = portNotes(await access.status(), r.client.name, connectCommandOf(r));
  return {
    client: r.client.id,
    path: plan.path,
    exists: plan.before !== null,
    changed: plan.changed || plan.companion?.changed === true,
    diff: planDiff(plan, settings.key === PENDING_KEY ? null : settings.key),
    model: settings.model,
    app: appOf(r),
    backup: plan.backup,
    ...companionOf(plan),
    ...(notes.length ? { notes } : {}),
  };
}

/** The plan's companion file for a result (absent when none). */
function companionOf(plan: ConnectPlan): { companion?: ConnectCompanion } {
  const c = plan.companion;
  return c ? { companion: { what: c.what, path: c.path, changed: c.changed } } : {};
}

/** Writes the client's config file (app made on first use; the key: the file's own while live, else a new key of its
 *  own, connect-key.ts). Throws PatchbayError. */
export async function applyClientConnect(access: PatchbayAccess, r: ConnectRequest): Promise<ConnectApplyResult> {
  const target = { client: r.client, dataDir: access.dataDir, env: r.env };
  // Refuse a broken file before making an app or a key.
  await planConnect(target, PLACEHOLDER_SETTINGS).catch(asPatchbayError);
  const app = appOf(r);
  let model = "";
  // The key is chosen under the file's lock, from the file as the write finds it: two applies at once (a double
  // click, the CLI beside the dashboard) then share one key instead of leaving the first one's key live and unused.
  const plan = await applyConnect(target, async (before) => {
    const settings = await clientSettings(access, app, r.model, () =>
      ensureConnectKey(access, app, commandName(r), keyInText(r.client, before)),
    );
    model = settings.model;
    return settings;
  }).catch(asPatchbayError);
  const notes = portNotes(await access.status(), r.client.name, connectCommandOf(r));
  return {
    client: r.client.id,
    path: plan.path,
    changed: plan.changed || plan.companion?.changed === true,
    model,
    backup: plan.backup,
    undo: `${connectCommandOf(r)} --undo`,
    tightenedFrom: plan.tightenedFrom,
    ...companionOf(plan),
    ...(notes.length ? { notes } : {}),
  };
}

/** A note when the written address lasts only as long as this Patchbay: its port was picked for this run. */
function portNotes(status: PatchbayStatus, client: string, command: string): string[] {
  if (!status.api.portPicked) return [];
  return [
    `This Patchbay picked port ${status.api.port} for this run (port 0 asks for a free one at each start); the ` +
      `next start picks another, and ${client} will not reach it. For a lasting setup give Patchbay a fixed port ` +
      `(\`serve\` without --port 0, \`--port N\`, or the port in Settings) and run \`${command}\` again.`,
  ];
}

/** Restores the original file; `keyPrefix` names the key the file held (undo revokes nothing). Needs no running
 *  Patchbay. Throws PatchbayError. */
export async function undoClientConnect(
  dataDir: string,
  r: ConnectRequest,
  options: { force?: boolean } = {},
): Promise<ConnectUndoResult> {
  const target = { client: r.client, dataDir, env: r.env };
  // The key itself stays here: the answer names its prefix only.
  const { heldKey, ...outcome } = await undoConnect(target, Date.now, options).catch(asPatchbayError);
  return { client: r.client.id, ...outcome, ...(heldKey ? { keyPrefix: keyPrefixOf(heldKey) } : {}) };
}

/**
 * One request with the settings in the client's config file. Throws PatchbayError when there are none.
 * `runningOrigin` tells where the Patchbay of this data folder answers now (null: none runs), asked only when the
 * written address does not answer, so the hint can say the port moved.
 */
export async function verifyClientConnect(
  r: ConnectRequest,
  fetchImpl: typeof fetch = fetch,
  runningOrigin?: () => Promise<string | null>,
): Promise<ConnectVerifyResult> {
  const command = connectCommandOf(r);
  const file = configStep(() => configPath({ client: r.client, dataDir: "", env: r.env }));
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new PatchbayError(
      code === "ENOENT" ? "not_found" : "invalid_request_error",
      code === "ENOENT"
        ? `${file} does not exist: ${r.client.name} is not set up for Patchbay. Run: ${command}`
        : `Cannot read ${file} (${code ?? (err as Error).message}).`,
    );
  }
  const settings = configStep(() => r.client.config.read(text));
  if (!settings)
    throw new PatchbayError(
      "not_found",
      `${file} has no Patchbay settings: ${r.client.name} is not set up. Run: ${command}`,
    );
  const broken = await companionProblem(r.client, file, settings.model);
  if (broken)
    return {
      client: r.client.id,
      ok: false,
      request: `read ${broken.path}`,
      status: null,
      message: `${broken.what} ${broken.path} does not fit ${file}: ${broken.problem}.`,
      hint: `Run \`${command}\` again to rewrite it.`,
    };
  return verifyClient(r.client, settings, command, fetchImpl, undefined, file, cliOf(r), runningOrigin);
}

/** What is wrong with the companion file the config names (missing, unreadable, without the model), or null. */
async function companionProblem(
  client: ConnectableClient,
  file: string,
  model: string,
): Promise<{ what: string; path: string; problem: string } | null> {
  const c = client.config.companion;
  if (!c) return null;
  const at = c.path(file);
  let text: string;
  try {
    text = await readFile(at, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { what: c.what, path: at, problem: code === "ENOENT" ? "it does not exist" : `it cannot be read (${code})` };
  }
  const problem = c.check(text, model);
  return problem ? { what: c.what, path: at, problem } : null;
}
