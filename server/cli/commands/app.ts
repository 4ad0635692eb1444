// `patchbay app create|list|delete|history`: manage apps (one per client program) in the data folder.
// Must not talk to a running server: the stores' files are shared, and a running server picks changes up.
import type { Command } from "commander";
import { AppName, HistoryLimitsFields, ModelPattern, type HistoryLimits } from "../../../shared/apps";
import { PatchbayError } from "../../core/errors";
import { deleteApp } from "../../stores/app-lifecycle";
import { withStores, type CliContext } from "../context";
import { UsageError } from "../errors";
import { describeHistoryLimits, localTime, table } from "../format";

/** Splits and checks `--models a/b,c/*`. Throws UsageError naming the bad pattern. */
function parseModels(value: string): string[] {
  const patterns = value
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  for (const p of patterns) {
    const result = ModelPattern.safeParse(p);
    if (!result.success)
      throw new UsageError(`Invalid model pattern "${p}": ${result.error.issues[0]?.message ?? "invalid"}.`);
  }
  return patterns;
}

function checkName(name: string): string {
  const result = AppName.safeParse(name);
  if (!result.success)
    throw new UsageError(`Invalid app name "${name}": ${result.error.issues[0]?.message ?? "invalid"}.`);
  return result.data;
}

/** Parses `--max-sessions` / `--max-age-days`: a whole number in the field's range, or `none` (keep forever).
 *  @throws UsageError naming the flag and the range. */
function limitParser(field: keyof HistoryLimits, flag: string): (value: string) => number | "none" {
  return (value) => {
    // "none", not null: commander turns a parser's null into "".
    if (value.trim().toLowerCase() === "none") return "none";
    const n = Number(value);
    const result = HistoryLimitsFields.shape[field].unwrap().safeParse(/^\s*\d+\s*$/.test(value) ? n : Number.NaN);
    if (!result.success)
      throw new UsageError(
        `Invalid ${flag} "${value}": use a whole number ${field === "maxSessions" ? "from 1 to 1000000" : "from 1 to 36500"}, or none.`,
      );
    return result.data;
  };
}

/** Registers the `app` command group. */
export function registerAppCommands(program: Command, ctx: CliContext): void {
  const app = program
    .command("app")
    .description("Manage apps: one per client program, each with its own keys and allowed models")
    .addHelpText(
      "after",
      `
Examples:
  $ patchbay app create my-editor --models "anthropic/*,openai/gpt-5"
  $ patchbay app list
  $ patchbay app history my-editor --max-sessions 200 --max-age-days 30
  $ patchbay app delete my-editor`,
    );

  app
    .command("create")
    .description("Create an app")
    .argument("<name>", "app name: lowercase letters, digits and '-' (max 40)")
    .option("--models <patterns>", "comma-separated allowlist: provider/model or provider/* (default: every model)")
    .action(async (name: string, opts: { models?: string }) => {
      const valid = checkName(name);
      const models = opts.models === undefined ? undefined : parseModels(opts.models);
      const created = await withStores(ctx, ({ apps }) => apps.create(valid, models ? { models } : {}));
      const allows = created.models.length === 0 ? "every model" : created.models.join(", ");
      ctx.io.out(`Created app "${created.name}" (allows ${allows}) in ${ctx.dataDir()}.\n`);
      if (ctx.io.stdoutIsTTY) ctx.io.out(`Next: patchbay key create ${created.name}\n`);
    });

  app
    .command("list")
    .description("List apps")
    .option("--json", "print JSON (an array of apps)")
    .action(async (opts: { json?: boolean }) => {
      await withStores(ctx, async ({ apps, keys }) => {
        const list = apps.list();
        if (opts.json) {
          ctx.io.out(`${JSON.stringify(list, null, 2)}\n`);
          return;
        }
        if (list.length === 0) {
          ctx.io.out("No apps yet. Create one with: patchbay app create NAME\n");
          return;
        }
        const rows = list.map((a) => [
          a.name,
          a.models.length === 0 ? "*" : a.models.join(","),
          String(keys.list(a.name).length),
          localTime(a.createdAt),
        ]);
        ctx.io.out(table([["NAME", "MODELS", "KEYS", "CREATED"], ...rows]));
      });
    });

  app
    .command("history")
    .description("Show or set how much session history an app keeps (older sessions are pruned automatically)")
    .argument("<name>", "app name")
    .option(
      "--max-sessions <n>",
      "keep at most this many sessions (1-1000000), or none",
      limitParser("maxSessions", "--max-sessions"),
    )
    .option(
      "--max-age-days <n>",
      "delete sessions inactive for this many days (1-36500), or none",
      limitParser("maxAgeDays", "--max-age-days"),
    )
    .action(async (name: string, opts: { maxSessions?: number | "none"; maxAgeDays?: number | "none" }) => {
      const patch: Partial<HistoryLimits> = {};
      if (opts.maxSessions !== undefined) patch.maxSessions = opts.maxSessions === "none" ? null : opts.maxSessions;
      if (opts.maxAgeDays !== undefined) patch.maxAgeDays = opts.maxAgeDays === "none" ? null : opts.maxAgeDays;
      const changed = Object.keys(patch).length > 0;
      const limits = await withStores(ctx, async ({ apps }) => {
        if (!changed) {
          const found = apps.get(name);
          if (!found) throw new PatchbayError("app_not_found", `No app named "${name}". See: patchbay app list`);
          return found.history;
        }
        return (await apps.update(name, { history: patch })).history;
      });
      ctx.io.out(`App "${name}" history: ${describeHistoryLimits(limits)}.\n`);
      if (changed && (limits.maxSessions !== null || limits.maxAgeDays !== null))
        ctx.io.out(
          `A running Patchbay prunes after requests (at most once a minute) and every 10 minutes; to prune now: patchbay sessions prune ${name}\n`,
        );
    });

  app
    .command("delete")
    .description("Delete an app and revoke all of its keys")
    .argument("<name>", "app name")
    .action(async (name: string) => {
      const revoked = await withStores(ctx, async ({ apps, keys }) => {
        const count = keys.list(name).length;
        await deleteApp(apps, keys, name);
        return count;
      });
      ctx.io.out(`Deleted app "${name}" and revoked its ${revoked} key${revoked === 1 ? "" : "s"}.\n`);
    });
}
