// `patchbay connect <client> [--model M] [--app NAME] [--dry-run] [--undo] [--verify-only] [--no-verify]`: writes Patchbay's
// settings into the agent's own config file for permanent use (merged, original backed up once), or restores it, then
// checks them with one real request. Needs a running Patchbay, except for --undo.
import type { Command } from "commander";
import { PatchbayError } from "../../core/errors";
import {
  clientNames,
  findClient,
  findConnectable,
  unknownClientMessage,
  type ConnectableClient,
} from "../../clients/registry";
import type { ConnectRequest } from "../../connect/connect-service";
import type { CliContext } from "../context";
import { UsageError } from "../errors";
import { cliHint } from "../cli-hint";
import { shellQuote } from "../../connect/patchbay-command";
import { checkAppOption } from "./launch";

/** Options of `connect`. */
interface ConnectOptions {
  model?: string;
  app?: string;
  dryRun?: boolean;
  undo?: boolean;
  force?: boolean;
  verify: boolean;
  verifyOnly?: boolean;
}

const connectable = (c: { config?: unknown }) => c.config !== undefined;

/** The connectable client called `name`, or UsageError naming the supported ones. */
function requireConnectable(ctx: CliContext, name: string): ConnectableClient {
  const client = findConnectable(name);
  if (client) return client;
  const known = findClient(name);
  throw new UsageError(
    known
      ? `${known.name} has no config file Patchbay writes; use \`${cliHint(ctx, `launch ${known.id}`)}\` instead.`
      : unknownClientMessage(name, connectable),
  );
}

/** Registers `connect`. */
export function registerConnectCommand(program: Command, ctx: CliContext): void {
  program
    .command("connect")
    .description("Set a coding agent up for Patchbay in its own config file (merged; the original is backed up)")
    .argument("<client>", `the agent: ${clientNames(connectable)}`)
    .option("--model <model>", "model id or alias (default: the app's `default` alias, else the first model)")
    .option("--app <name>", "app whose key the agent uses (default: the agent's name; created on first use)")
    .option("--dry-run", "print the change as a unified diff and write nothing")
    .option("--undo", "restore the file as it was before the first connect (removed if there was none)")
    .option("--force", "with --undo and no backup in this data folder: take Patchbay's settings out anyway")
    .option("--verify-only", "only check the settings already in the file with one request (writes nothing)")
    .option("--no-verify", "skip the check request after writing")
    .addHelpText(
      "after",
      `
Writes:
  claude  ~/.claude/settings.json ($CLAUDE_CONFIG_DIR): the "env" block (ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN,
          ANTHROPIC_MODEL and the other model tiers, DISABLE_TELEMETRY, DISABLE_ERROR_REPORTING,
          DISABLE_AUTOUPDATER, CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY (/model lists Patchbay's models),
          CLAUDE_CODE_GATEWAY_HINT_HEADERS, CLAUDE_CODE_ATTRIBUTION_HEADER, CLAUDE_CODE_MAX_CONTEXT_TOKENS)
  codex   ~/.codex/config.toml ($CODEX_HOME): model, model_provider = "patchbay", model_catalog_json and
          [model_providers.patchbay] (base_url, wire_api = "responses", supports_websockets = false, the key as
          experimental_bearer_token); and the model catalog it names, patchbay-models.json next to it
  claude-desktop
          its third-party inference profile: Claude-3p/configLibrary/<id>.json in the app's data folder
          ($CLAUDE_USER_DATA_DIR/configLibrary) with inferenceProvider = "gateway", inferenceGatewayBaseUrl,
          inferenceGatewayApiKey, inferenceGatewayAuthScheme = "bearer", inferenceModels; and _meta.json beside it
          (lists the profile as "Patchbay" and applies it). Quit and reopen Claude Desktop afterwards
The key is connect's own (labelled "patchbay connect <client>", never launch's): kept in the file, reused while it is
live, replaced when revoked. The written file is made readable by you only (mode 0600: it holds the key). The
original is copied once per file (per $CLAUDE_CONFIG_DIR / $CODEX_HOME) to <data folder>/connect-backups/, kept
until --undo restores it byte for byte.

Examples:
  $ patchbay connect codex --dry-run
  $ patchbay connect claude --model anthropic/claude-sonnet-4-5
  $ patchbay connect codex --verify-only
  $ patchbay connect claude --undo`,
    )
    .action(async (name: string, opts: ConnectOptions) => {
      const client = requireConnectable(ctx, name);
      const verifyOnly = opts.verifyOnly === true;
      const modes = [opts.dryRun, opts.undo, verifyOnly].filter(Boolean).length;
      if (modes > 1) throw new UsageError("Use only one of --dry-run, --undo and --verify-only.");
      if (opts.undo && (opts.model !== undefined || opts.app !== undefined))
        throw new UsageError("--undo restores the original file; it takes no --model or --app.");
      if (opts.force && !opts.undo) throw new UsageError("--force goes with --undo only.");
      // A config file moved by the client's own variable (CLAUDE_CONFIG_DIR) is found again only with it set.
      const movedTo = (client.config.movedBy ?? [])
        .filter((name) => ctx.io.env[name]?.trim())
        .map((name) => `${name}=${shellQuote(ctx.io.env[name] ?? "")} `)
        .join("");
      const hint = (args: string): string => `${args.startsWith("connect ") ? movedTo : ""}${cliHint(ctx, args)}`;
      const command = hint(`connect ${client.aliases[0] ?? client.id}`);
      const request: ConnectRequest = {
        client,
        env: ctx.io.env,
        cli: hint,
        ...(opts.model !== undefined ? { model: opts.model } : {}),
        ...(opts.app !== undefined ? { app: checkAppOption(opts.app) } : {}),
      };
      const out = ctx.io.out;
      // Loaded here, not at start: the other commands should not pay for the connect service and the admin client.
      const { applyClientConnect, previewConnect, undoClientConnect } = await import("../../connect/connect-service");

      if (opts.undo) {
        const r = await undoClientConnect(ctx.dataDir(), request, { force: opts.force === true });
        const what = {
          restored: `Restored ${r.path} as it was before \`${command}\`.`,
          removed: `Removed ${r.path} (it did not exist before \`${command}\`).`,
          unmerged:
            `Removed Patchbay's settings from ${r.path}${r.emptied ? " (nothing else was in it, so the file is gone)" : ""}; ` +
            "what they replaced could not be put back (no backup in this data folder).",
          nothing: `${r.path} has no Patchbay settings; nothing to undo.`,
        }[r.action];
        out(`${what}\n`);
        if (r.savedCurrent)
          out(
            r.action === "unmerged"
              ? `The file as it was is saved to ${r.savedCurrent}\n`
              : `It had been edited since; that version was saved to ${r.savedCurrent}\n` +
                  (r.action === "restored"
                    ? `(to see your edits: diff ${shellQuote(r.path)} ${shellQuote(r.savedCurrent)})\n`
                    : ""),
          );
        const c = r.companion;
        if (c && c.action !== "nothing")
          out(`${c.action === "restored" ? "Restored" : "Removed"} ${c.path} (written by \`${command}\`).\n`);
        if (r.keyPrefix) out(await keyStillValid(ctx, r.keyPrefix));
        return;
      }
      if (verifyOnly) return verify(ctx, request);

      const { requireRunningPatchbay } = await import("../patchbay-required");
      const access = await requireRunningPatchbay(ctx);
      if (opts.dryRun) {
        const p = await previewConnect(access, request);
        if (!p.changed) out(`${p.path} already has these settings (model ${p.model}); nothing would change.\n`);
        else if (p.diff) out(`Would write ${p.path}:\n${p.diff}`);
        if (p.companion?.changed) out(`Would write ${p.companion.path} (${p.companion.what}).\n`);
        for (const note of p.notes ?? []) ctx.io.err(`Note: ${note}\n`);
        return;
      }
      const r = await applyClientConnect(access, request);
      if (!r.changed)
        out(
          `${r.path} already has these settings (model ${r.model}).\n` +
            (r.tightenedFrom != null
              ? `Made it readable by you only (mode 0600, was ${octal(r.tightenedFrom)}): it holds your Patchbay key.\n`
              : ""),
        );
      else
        out(
          `Wrote ${client.name} settings to ${r.path} (model ${r.model}).\n` +
            (r.tightenedFrom != null
              ? `Made it readable by you only (mode 0600, was ${octal(r.tightenedFrom)}): it holds your Patchbay key.\n`
              : "") +
            (r.companion?.changed ? `Wrote ${r.companion.what} to ${r.companion.path}.\n` : "") +
            (r.backup ? `The original is kept in ${r.backup}; undo with: ${r.undo}\n` : `Undo with: ${r.undo}\n`),
        );
      for (const note of r.notes ?? []) ctx.io.err(`Note: ${note}\n`);
      if (client.id === "claude-desktop" && r.changed)
        out("Claude Desktop reads it when it starts: quit it fully and open it again.\n");
      if (client.id === "claude-code" && ctx.io.env.ANTHROPIC_API_KEY)
        ctx.io.err(
          "Note: ANTHROPIC_API_KEY is set in this shell; Claude Code uses the token from settings.json but warns " +
            "about the conflict. Unset it where you start Claude Code.\n",
        );
      if (opts.verify) await verify(ctx, request);
    });
}

/** The API origin of the Patchbay serving `dataDir` now, or null when none answers (the port may have moved). */
async function runningApiOrigin(dataDir: string): Promise<string | null> {
  const { findRunningPatchbay } = await import("../../connect/running-patchbay");
  const { apiOrigin } = await import("../../connect/patchbay-access");
  const running = await findRunningPatchbay(dataDir);
  return running ? apiOrigin(await running.client.getStatus()) : null;
}

/** Undo revokes nothing: the line naming the key the file held and how to revoke it (its app found in this data
 *  folder's keys; none found: it was revoked already, or belongs to another data folder). */
async function keyStillValid(ctx: CliContext, prefix: string): Promise<string> {
  const stores = await ctx.openStores().catch(() => null);
  if (!stores) return "";
  try {
    const app = stores.apps.list().find((a) => stores.keys.list(a.name).some((k) => k.prefix === prefix))?.name;
    return app
      ? `Its key pb-${prefix} (app "${app}") still works; revoke it in the dashboard or with: ` +
          `${cliHint(ctx, `key revoke ${app} pb-${prefix}`)}\n`
      : "";
  } finally {
    await stores.close();
  }
}

/** `0644`. */
function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

/** Runs the check request and prints OK, or the failure and its fix (then exit code 1). */
async function verify(ctx: CliContext, request: ConnectRequest): Promise<void> {
  const { verifyClientConnect } = await import("../../connect/connect-service");
  const v = await verifyClientConnect(request, fetch, () => runningApiOrigin(ctx.dataDir()));
  if (v.ok) {
    ctx.io.out(`OK: ${v.message}\n`);
    return;
  }
  throw new PatchbayError("upstream_error", `Check failed: ${v.message}${v.hint ? ` ${v.hint}` : ""}`);
}
