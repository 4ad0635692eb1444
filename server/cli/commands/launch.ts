// `patchbay launch <client> [--model M] [--app NAME] [-- client args]`: starts a coding agent on the running Patchbay
// with everything in its environment and command line (nothing is written to the user's files; only Patchbay's own
// data folder gets the app, its key and launch-keys.json). Passes the agent's exit code on.
import type { Command } from "commander";
import { AppName } from "../../../shared/apps";
import { PatchbayError } from "../../core/errors";
import { clientNames, findClient, isLaunchable, unknownClientMessage } from "../../clients/registry";
import { cliHint } from "../cli-hint";
import type { CliContext } from "../context";
import { UsageError } from "../errors";

/** Options of `launch`. */
interface LaunchOptions {
  model?: string;
  app?: string;
}

/** Checks `--app`. Throws UsageError. */
export function checkAppOption(app: string | undefined): string | undefined {
  if (app === undefined) return undefined;
  const r = AppName.safeParse(app);
  if (!r.success) throw new UsageError(`Invalid app name "${app}": ${r.error.issues[0]?.message ?? "invalid"}.`);
  return r.data;
}

/** Registers `launch`. */
export function registerLaunchCommand(program: Command, ctx: CliContext): void {
  program
    .command("launch")
    .description("Start a coding agent on Patchbay (settings in its environment only; your files are not changed)")
    .argument("<client>", `the agent: ${clientNames(isLaunchable)}`)
    .argument("[args...]", "arguments for the agent, after --")
    .option("--model <model>", "model id or alias (default: the app's `default` alias, else the first model)")
    .option("--app <name>", "app whose key the agent uses (default: the agent's name; created on first use)")
    .addHelpText(
      "after",
      `
Examples:
  $ patchbay launch claude
  $ patchbay launch codex --model openai/gpt-5
  $ patchbay launch claude -- -p "Explain this repository"
  $ patchbay launch codex -- exec "Add a test"

Needs a running Patchbay (patchbay serve, or the desktop app). The key (labelled "patchbay launch") is kept in the
data folder's launch-keys.json and reused; a revoked key is replaced. It is never the key \`connect\` wrote.
The agent is the one on PATH, else the copy in Patchbay's own node_modules (launch prints which); that copy is not
on PATH: install the agent to run it without launch.
Codex outside a git repository stops at "Not inside a trusted directory": run it in a repository or add Codex's
--skip-git-repo-check after exec (patchbay launch codex -- exec --skip-git-repo-check "…").`,
    )
    .action(async (name: string, args: string[], opts: LaunchOptions) => {
      const found = findClient(name);
      if (!found) throw new UsageError(unknownClientMessage(name, isLaunchable));
      if (!isLaunchable(found))
        throw new UsageError(
          `${found.name} is a desktop app \`launch\` cannot start; set it up with ` +
            `\`${cliHint(ctx, `connect ${found.id}`)}\` and start it as usual.`,
        );
      const client = found;
      const app = checkAppOption(opts.app) ?? client.id;
      // Loaded here, not at start: the other commands should not pay for the admin client and process helpers.
      const [{ resolveClientBinary }, { clientSettings }, { runClientProcess }, { requireRunningPatchbay }, dirs] =
        await Promise.all([
          import("../../connect/find-binary"),
          import("../../connect/patchbay-access"),
          import("../client-process"),
          import("../patchbay-required"),
          import("../../connect/launch-dir"),
        ]);
      const bin = resolveClientBinary(client.bin, client.binEnv, ctx.io.env);
      if (!bin)
        throw new PatchbayError(
          "not_found",
          `${client.name} is not installed (no \`${client.bin}\` on PATH or in Patchbay's node_modules). Install it with: ${client.install}`,
        );
      const access = await requireRunningPatchbay(ctx);
      const settings = await clientSettings(access, app, opts.model);
      await dirs.sweepLaunchDirs(access.dataDir);
      const dir = await dirs.createLaunchDir(access.dataDir);
      let code: number;
      try {
        const plan = client.launch(settings, dir);
        await dirs.writeLaunchFiles(plan.files ?? {});
        const env: Record<string, string | undefined> = { ...ctx.io.env };
        for (const k of plan.unsetEnv) delete env[k];
        Object.assign(env, plan.env);
        ctx.io.err(
          `patchbay: starting ${client.name} (${bin}) on ${settings.origin} (app "${app}", model ${settings.model}` +
            `${settings.keyCreated ? ", new key" : ""})\n`,
        );
        try {
          code = await runClientProcess({ command: bin, args: [...plan.args, ...args], env });
        } catch (err) {
          throw new PatchbayError(
            "not_found",
            `Cannot start ${client.name} (${bin}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}. ` +
              `Install it with: ${client.install}`,
          );
        }
      } finally {
        await dirs.removeLaunchDir(dir);
      }
      ctx.io.exit(code);
    });
}
