// `patchbay doctor [--json] [--client NAME…] [--base-url URL] [--timeout S]`: checks every installed agent CLI
// against a throwaway Patchbay with the scripted demo model (server/doctor/run-doctor.ts) and prints a table: client,
// version, each check, the last version that passed; under it, for each failure, the request Patchbay refused and why.
// Exit code 1 when a check failed.
import type { Command } from "commander";
import { findClient } from "../../clients/registry";
import type { CliContext } from "../context";
import { UsageError } from "../errors";

interface DoctorCliOptions {
  json?: boolean;
  client?: string[];
  baseUrl?: string;
  timeout: string;
}

/** Registers `doctor`. */
export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  program
    .command("doctor")
    .description("Check every installed coding agent against Patchbay (throwaway Patchbay, demo model, temp homes)")
    .option("--json", "print the results as JSON")
    .option("--client <name...>", "check only these (claude, codex, copilot)")
    .option(
      "--base-url <url>",
      "send the clients to this URL instead, with the throwaway Patchbay's key (see how a wrong base URL fails)",
    )
    .option("--timeout <seconds>", "time per check", "180")
    .addHelpText(
      "after",
      `
Each agent found (on PATH first, else in Patchbay's node_modules) runs headless in a throwaway home against a
throwaway Patchbay serving the scripted demo model: a plain prompt, one tool round trip and, where the agent can send
one, an image it reads with its own file tool. The last version whose checks all passed is kept in
<data folder>/doctor.json. Needs no login and no running Patchbay.`,
    )
    .action(async (opts: DoctorCliOptions) => {
      const only = opts.client?.map((n) => {
        const c = findClient(n);
        if (!c) throw new UsageError(`Unknown client "${n}". Doctor checks claude, codex and copilot.`);
        return c.id;
      });
      const timeout = Number(opts.timeout);
      if (!Number.isFinite(timeout) || timeout < 5 || timeout > 3600)
        throw new UsageError("--timeout: a number of seconds between 5 and 3600.");
      if (opts.baseUrl !== undefined) checkBaseUrl(opts.baseUrl);
      const { runDoctor } = await import("../../doctor/run-doctor");
      // Ctrl-C or SIGTERM: the running client is killed and the throwaway Patchbay and temp homes are removed.
      const abort = new AbortController();
      const stop = () => {
        if (abort.signal.aborted) return;
        ctx.io.err("Stopping doctor: ending the client and the throwaway Patchbay…\n");
        abort.abort();
      };
      ctx.io.onSignal("SIGINT", stop);
      ctx.io.onSignal("SIGTERM", stop);
      const results = await runDoctor({
        createPatchbay: await ctx.loadCreatePatchbay(),
        dataDir: ctx.dataDir(),
        env: ctx.io.env,
        timeoutMs: timeout * 1000,
        ...(only ? { only } : {}),
        ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
        ...(opts.json ? {} : { progress: (line: string) => ctx.io.err(`${line}\n`) }),
        signal: abort.signal,
      }).catch((err: unknown) => {
        if (!abort.signal.aborted) throw err;
        ctx.io.err("Doctor stopped; nothing it started is left running.\n");
        return null;
      });
      if (results === null) return ctx.io.exit(130);
      if (opts.json) ctx.io.out(`${JSON.stringify({ clients: results }, null, 2)}\n`);
      else if (results.length === 0)
        ctx.io.out(
          "No coding agent found to check (claude, codex, copilot). Install one, e.g. npm i -g @openai/codex.\n",
        );
      else {
        const { doctorTable } = await import("../../doctor/doctor-table");
        ctx.io.out(doctorTable(results));
      }
      if (results.some((r) => !r.ok)) ctx.io.exit(1);
    });
}

/** Refuses a `--base-url` that is no http(s) URL before the throwaway Patchbay starts (a wrong but well-formed URL is
 *  the point of the flag: doctor shows how the clients fail on it). Throws UsageError. */
function checkBaseUrl(value: string): void {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname)
    throw new UsageError(
      `--base-url: ${JSON.stringify(value.slice(0, 200))} is not an http(s) URL (e.g. http://127.0.0.1:4747/v1).`,
    );
}
