// `patchbay dashboard [--open]` (issue 16 item 14): asks the Patchbay serving this data folder (runtime.json and its
// admin token, as the other commands do) for a fresh one-time login URL and prints it, since a used link cannot be
// reused and restarting the server was the only other way to get one. Opens a browser only when asked: an opener
// is unreliable without a display, and a printed link always works.
import type { Command } from "commander";
import type { CliContext } from "../context";

/** Registers the `dashboard` command. */
export function registerDashboardCommand(program: Command, ctx: CliContext): void {
  program
    .command("dashboard")
    .description("Print a new one-time dashboard login URL from the running Patchbay (--open: also open it)")
    .option("--open", "open the URL in the default browser as well (needs a desktop session)")
    .addHelpText(
      "after",
      `
Each login URL works once; run this again for another. The URL is printed
alone on stdout.

Examples:
  $ patchbay dashboard
  $ patchbay dashboard --open`,
    )
    .action(async (opts: { open?: boolean }) => {
      const { requireRunning } = await import("../patchbay-required"); // the admin client: only when run
      const running = await requireRunning(ctx, "it prints a login URL itself once started");
      const { url } = await running.client.createLoginLink();
      ctx.io.out(`${url}\n`);
      if (ctx.io.stdoutIsTTY) ctx.io.err("This link works once, in a browser on this machine.\n");
      if (!opts.open) return;
      const opener = ctx.io.openUrl;
      try {
        if (!opener) throw new Error("no way to open a browser here");
        await opener(url);
      } catch (err) {
        // Not opening it is not a failure of the command: the URL is on stdout, and repeated here with the reason
        // (stdout may be piped away, and a headless opener fails silently otherwise).
        ctx.io.err(`Could not open a browser (${(err as Error).message}). Open this URL yourself: ${url}\n`);
      }
    });
}
