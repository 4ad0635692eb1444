// `patchbay models [--json]`: the models the running Patchbay can serve (its admin API's catalog, i.e. what OpenCode's
// logged-in providers offer), as `provider/model` ids. With none it says how to log in (issue 16 item 12), so a user
// without logins learns it here rather than from a 404. Must not start an OpenCode of its own.
import type { Command } from "commander";
import { NO_MODELS } from "../../../shared/status";
import type { CliContext } from "../context";
import { table } from "../format";

/** Registers the `models` command. */
export function registerModelsCommand(program: Command, ctx: CliContext): void {
  program
    .command("models")
    .description("List the models the running Patchbay serves (provider/model ids); says how to log in when none")
    .option("--json", "print JSON (an array of {id, name, provider, toolCall})")
    .action(async (opts: { json?: boolean }) => {
      const { requireRunning } = await import("../patchbay-required"); // the admin client: only when run
      const running = await requireRunning(ctx, "the models come from its OpenCode");
      const catalog = await running.client.getModels();
      const models = catalog.providers.flatMap((p) =>
        p.models.map((m) => ({ id: m.id, name: m.name, provider: p.name, toolCall: m.capabilities.toolCall })),
      );
      if (opts.json) {
        ctx.io.out(`${JSON.stringify(models, null, 2)}\n`);
        if (models.length === 0) ctx.io.err(`${NO_MODELS.text}\n`);
        return;
      }
      if (models.length === 0) {
        ctx.io.out(`${NO_MODELS.text}\n`);
        return;
      }
      ctx.io.out(
        table([
          ["MODEL", "NAME", "PROVIDER", "TOOLS"],
          ...models.map((m) => [m.id, m.name, m.provider, m.toolCall ? "yes" : "no"]),
        ]),
      );
    });
}
