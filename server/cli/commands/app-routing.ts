// `patchbay app route|budget`: route request roles to models, and set rolling budgets, for one app.
// Like the other `app` commands, writes the data folder's files; a running Patchbay picks the change up.
import type { Command } from "commander";
import {
  BUDGET_WINDOWS,
  REQUEST_ROLES,
  RequestRole,
  RouteTarget,
  describeBudget,
  parseBudgetSpec,
  type Budget,
} from "../../../shared/routing";
import { budgetStatus } from "../../budgets/policy";
import { readBudgetUsage } from "../../budgets/usage-store";
import { PatchbayError } from "../../core/errors";
import { withStores, type CliContext } from "../context";
import { UsageError } from "../errors";
import { localTime, table } from "../format";
import { checkCliRoutingModels } from "../routing-models";
import { noSuchApp } from "../cli-hint";

/** Collects a repeatable option's values. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--remove requests/5h`: which budget (metric and window); UsageError naming the accepted forms. */
function parseBudgetKey(value: string): Pick<Budget, "metric" | "window"> {
  const [metric, window] = value.split("/");
  if ((metric === "requests" || metric === "tokens") && window !== undefined && Object.hasOwn(BUDGET_WINDOWS, window))
    return { metric, window: window as Budget["window"] };
  throw new UsageError(
    `'${value}' names no budget: use requests/<window> or tokens/<window> with a window of ${Object.keys(BUDGET_WINDOWS).join(", ")}.`,
  );
}

/** Registers `route` and `budget` under the `app` command group. */
export function registerAppRoutingCommands(app: Command, ctx: CliContext): void {
  app
    .command("route")
    .description("Show, set or remove where an app sends each request role (Claude Code and Codex hint headers)")
    .argument("<name>", "app name")
    .argument("[role]", `request role: ${REQUEST_ROLES.join(", ")}`)
    .argument("[model]", "alias of the app, or provider/model[#variant]")
    .option("--remove", "remove the role's route (its requests keep the model they ask for)")
    .addHelpText(
      "after",
      `
Examples:
  $ patchbay app route claude subagent cheap          # Claude Code's subagents on the alias "cheap"
  $ patchbay app route claude compaction anthropic/claude-haiku-4-5
  $ patchbay app route claude subagent --remove`,
    )
    .action(async (name: string, role: string | undefined, model: string | undefined, opts: { remove?: boolean }) => {
      if (opts.remove && (role === undefined || model !== undefined))
        throw new UsageError("--remove takes the role only: patchbay app route APP ROLE --remove");
      if (role !== undefined) {
        const r = RequestRole.safeParse(role);
        if (!r.success) throw new UsageError(`${r.error.issues[0]?.message ?? "Unknown role"}.`);
      }
      if (model !== undefined) {
        const t = RouteTarget.safeParse(model);
        if (!t.success) throw new UsageError(`Invalid model "${model}": ${t.error.issues[0]?.message ?? "invalid"}.`);
      }
      let warning: string | null = null;
      const routes = await withStores(ctx, async ({ apps }) => {
        const app = apps.get(name);
        if (!app) throw noSuchApp(ctx, name);
        const current = app.routes;
        if (role === undefined || (model === undefined && !opts.remove)) return current;
        const key = role as RequestRole;
        if (opts.remove && current[key] === undefined)
          throw new PatchbayError("not_found", `App "${name}" has no route for ${role}.`);
        const next = { ...current };
        if (opts.remove) delete next[key];
        else {
          next[key] = model;
          warning = await checkCliRoutingModels(ctx, { routes: { [key]: model } }, app);
        }
        return (await apps.update(name, { routes: next })).routes;
      });
      if (warning) ctx.io.err(warning);
      if (opts.remove) {
        ctx.io.out(`Removed the route for ${role} of app "${name}"; its requests keep the model they ask for.\n`);
        return;
      }
      if (role !== undefined) {
        const to = routes[role as RequestRole];
        ctx.io.out(to ? `${role} → ${to}\n` : `App "${name}" has no route for ${role}.\n`);
        return;
      }
      const rows = Object.entries(routes).filter((r): r is [string, string] => r[1] !== undefined);
      if (rows.length === 0) ctx.io.out(`App "${name}" has no routes: every request keeps the model it asks for.\n`);
      else ctx.io.out(table([["ROLE", "MODEL"], ...rows]));
    });

  app
    .command("budget")
    .description("Show or set an app's rolling budgets (requests or tokens per 5h, day or week)")
    .argument("<name>", "app name")
    .option("--requests <N/window>", "at most N requests per window (5h, day, week); repeat for more windows", collect)
    .option("--tokens <N/window>", "at most N tokens (input + output) per window; repeat for more windows", collect)
    .option(
      "--remove [metric/window]",
      "remove one budget (e.g. requests/5h, tokens/week), or every budget without one",
    )
    .option("--json", "print JSON (each budget with its use now)")
    .addHelpText(
      "after",
      `
Examples:
  $ patchbay app budget claude --requests 200/5h --tokens 5000000/week
  $ patchbay app budget claude
  $ patchbay app budget claude --remove tokens/week
  $ patchbay app budget claude --remove`,
    )
    .action(
      async (
        name: string,
        opts: { requests?: string[]; tokens?: string[]; remove?: boolean | string; json?: boolean },
      ) => {
        const specs = [
          ...(opts.requests ?? []).map((s) => parseBudgetSpec("requests", s)),
          ...(opts.tokens ?? []).map((s) => parseBudgetSpec("tokens", s)),
        ];
        for (const s of specs) if ("error" in s) throw new UsageError(s.error);
        if (opts.remove !== undefined && specs.length > 0)
          throw new UsageError("--remove takes no --requests or --tokens.");
        const one = typeof opts.remove === "string" ? parseBudgetKey(opts.remove) : null;
        const set = specs as Budget[];
        let removed: string | null = null;
        const app = await withStores(ctx, async ({ apps }) => {
          const current = apps.get(name);
          if (!current) throw noSuchApp(ctx, name);
          if (one) {
            const gone = current.budgets.find((b) => b.metric === one.metric && b.window === one.window);
            // Not a usage error (exit 2): the command was right, the app just has no such budget (exit 1).
            if (!gone)
              throw new PatchbayError("not_found", `App "${name}" has no ${one.metric} budget per ${one.window}.`);
            removed = `Removed the budget of ${describeBudget(gone)}.`;
            return apps.update(name, { budgets: current.budgets.filter((b) => b !== gone) });
          }
          if (opts.remove) {
            removed = current.budgets.length ? `Removed every budget of app "${name}".` : null;
            return apps.update(name, { budgets: [] });
          }
          if (set.length === 0) return current;
          // A new budget replaces the one of the same metric and window; others stay.
          const kept = current.budgets.filter((b) => !set.some((s) => s.metric === b.metric && s.window === b.window));
          return apps.update(name, { budgets: [...kept, ...set] });
        });
        const now = Date.now();
        const uses = readBudgetUsage(ctx.dataDir(), now).get(app.id) ?? [];
        const statuses = app.budgets.map((b) => budgetStatus(b, uses, now));
        if (opts.json) {
          ctx.io.out(`${JSON.stringify(statuses, null, 2)}\n`);
          return;
        }
        if (removed) ctx.io.out(`${removed}\n`);
        if (statuses.length === 0) {
          ctx.io.out(`App "${name}" has no budget.\n`);
          return;
        }
        ctx.io.out(
          table([
            ["BUDGET", "USED", "STATE", "RESETS"],
            ...statuses.map((s) => [
              describeBudget(s),
              `${s.used}/${s.limit}`,
              s.spent ? "spent" : "ok",
              s.spent ? localTime(s.retryAt) : s.resetAt === null ? "-" : localTime(s.resetAt),
            ]),
          ]),
        );
      },
    );
}
