// `patchbay app create|list|models|alias|history|web-search|delete`: manage apps (one per client program) in the data folder.
// Changes go to the stores' files, never through a running server (it picks changes up); a running server is only
// asked what it uses (its models for an alias, its search backend for web-search).
import type { Command } from "commander";
import {
  AliasName,
  AppName,
  HistoryLimitsFields,
  ModelPatternInput,
  isModelAllowed,
  type HistoryLimits,
} from "../../../shared/apps";
import { shortenClientText } from "../../core/client-text";
import { PatchbayError } from "../../core/errors";
import { createSettingsStore } from "../../stores/settings-store";
import { withStores, type CliContext } from "../context";
import { UsageError } from "../errors";
import { describeHistoryLimits, localTime, table } from "../format";
import { registerAppRoutingCommands } from "./app-routing";
import { checkCliRoutingModels } from "../routing-models";
import { runningModels } from "../running-models";
import { cliHint, noSuchApp } from "../cli-hint";

/** Splits and checks `--models a/b,c/*`. Throws UsageError naming the bad pattern. */
function parseModels(value: string): string[] {
  const patterns = value
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  for (const p of patterns) {
    const result = ModelPatternInput.safeParse(p);
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

/** `app` itself, or PatchbayError `app_not_found` (exit 1) naming the data folder and `app list`. */
function requireApp<T>(ctx: CliContext, app: T | undefined, name: string): T {
  if (!app) throw noSuchApp(ctx, name);
  return app;
}

interface AliasOptions {
  remove?: boolean;
  fallback?: string[];
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
  $ patchbay app models my-editor "anthropic/*,openai/gpt-5"
  $ patchbay app alias my-editor fast openai/gpt-5#low
  $ patchbay app alias my-editor fast openai/gpt-5#low \\
      --fallback anthropic/claude-haiku-4-5
  $ patchbay app route my-editor subagent fast
  $ patchbay app budget my-editor --requests 200/5h
  $ patchbay app history my-editor --max-sessions 200 --max-age-days 30
  $ patchbay app delete my-editor`,
    );

  app
    .command("create")
    .description("Create an app")
    .argument("<name>", "app name: lowercase letters, digits and '-' (max 40)")
    .option(
      "--models <patterns>",
      "comma-separated allowlist: provider/model, provider/prefix*, provider/* or * (default: every model)",
    )
    .action(async (name: string, opts: { models?: string }) => {
      const valid = checkName(name);
      const models = opts.models === undefined ? undefined : parseModels(opts.models);
      const created = await withStores(ctx, ({ apps }) => apps.create(valid, models ? { models } : {}));
      const allows = created.models.length === 0 ? "every model" : created.models.join(", ");
      ctx.io.out(`Created app "${created.name}" (allows ${allows}) in ${ctx.dataDir()}.\n`);
      await warnIfMatchingNothing(ctx, created.models);
      if (ctx.io.stdoutIsTTY) ctx.io.out(`Next: ${cliHint(ctx, `key create ${created.name}`)}\n`);
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
          ctx.io.out(`No apps yet. Create one with: ${cliHint(ctx, `app create NAME`)}\n`);
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
    .command("models")
    .description("Show or set which models an app may use")
    .argument("<name>", "app name")
    .argument("[patterns]", "comma-separated provider/model, provider/prefix* or provider/*, or `all` for every model")
    .action(async (name: string, patterns: string | undefined) => {
      let models: string[] | undefined;
      if (patterns !== undefined) {
        models = patterns.trim().toLowerCase() === "all" ? [] : parseModels(patterns);
        if (models.length === 0 && patterns.trim().toLowerCase() !== "all")
          throw new UsageError("Give at least one pattern (provider/model or provider/*), or all.");
      }
      const allowed = await withStores(ctx, async ({ apps }) =>
        models === undefined
          ? requireApp(ctx, apps.get(name), name).models
          : (await apps.update(name, { models })).models,
      );
      ctx.io.out(`App "${name}" may use ${allowed.length === 0 ? "every model" : allowed.join(", ")}.\n`);
      if (models !== undefined) await warnIfMatchingNothing(ctx, allowed);
    });

  app
    .command("alias")
    .description("Show, set or remove an app's model aliases (a client sends the alias name as `model`)")
    .argument("<name>", "app name")
    .argument("[alias]", "alias name: letters, digits, '.', '_', ':' and '-'")
    .argument("[target]", "provider/model or provider/model#variant")
    .option("--remove", "remove the alias")
    .option(
      "--fallback <model>",
      "provider/model[#variant] tried next when the target refuses before answering (429, quota, 5xx); repeat for a chain",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(async (name: string, alias: string | undefined, target: string | undefined, opts: AliasOptions) => {
      if (opts.remove && (alias === undefined || target !== undefined))
        throw new UsageError("--remove takes the alias name only: patchbay app alias APP ALIAS --remove");
      if (opts.fallback && target === undefined)
        throw new UsageError(
          "--fallback needs the alias's target: patchbay app alias APP ALIAS TARGET --fallback MODEL",
        );
      if (alias !== undefined) {
        // Checked before use as an object key: a reserved name such as __proto__ must never reach the map.
        const checked = AliasName.safeParse(alias);
        if (!checked.success)
          throw new UsageError(
            `Invalid alias name "${shortenClientText(alias, 80)}": ${checked.error.issues[0]?.message ?? "invalid"}.`,
          );
      }
      let warning: string | null = null;
      const saved = await withStores(ctx, async ({ apps }) => {
        const app = requireApp(ctx, apps.get(name), name);
        const current = app.aliases;
        if (alias === undefined || (target === undefined && !opts.remove)) return app;
        if (opts.remove && !Object.hasOwn(current, alias))
          throw new PatchbayError("not_found", `App "${name}" has no alias "${alias}".`);
        const next = { ...current };
        if (opts.remove) delete next[alias];
        else next[alias] = target as string;
        // Setting an alias sets its whole chain: no --fallback clears an earlier one.
        const fallbacks = { ...app.fallbacks };
        if (opts.fallback) fallbacks[alias] = opts.fallback;
        else delete fallbacks[alias];
        if (opts.fallback)
          warning = await checkCliRoutingModels(ctx, { fallbacks: { [alias]: opts.fallback }, aliases: next }, app);
        return apps.update(name, { aliases: next, fallbacks });
      });
      if (warning) ctx.io.err(warning);
      const { aliases } = saved;
      const chainOf = (a: string, to: string) =>
        [to, ...(Object.hasOwn(saved.fallbacks, a) ? (saved.fallbacks[a] ?? []) : [])].join(" → ");
      if (alias !== undefined && !opts.remove) {
        const to = Object.hasOwn(aliases, alias) ? aliases[alias] : undefined;
        if (to === undefined) throw new PatchbayError("not_found", `App "${name}" has no alias "${alias}".`);
        ctx.io.out(`${alias} → ${chainOf(alias, to)}\n`);
        const chain = Object.hasOwn(saved.fallbacks, alias) ? (saved.fallbacks[alias] ?? []) : [];
        if (target !== undefined) await warnIfUnavailable(ctx, alias, to, chain);
        return;
      }
      if (opts.remove) ctx.io.out(`Removed alias "${alias}" of app "${name}".\n`);
      const rows = Object.entries(aliases)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([a, to]) => [a, chainOf(a, to)]);
      if (rows.length === 0) ctx.io.out(`App "${name}" has no aliases.\n`);
      else if (!opts.remove) ctx.io.out(table([["ALIAS", "TARGET"], ...rows]));
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
      const limits = await withStores(ctx, async ({ apps }) =>
        changed ? (await apps.update(name, { history: patch })).history : requireApp(ctx, apps.get(name), name).history,
      );
      ctx.io.out(`App "${name}" history: ${describeHistoryLimits(limits)}.\n`);
      if (changed && (limits.maxSessions !== null || limits.maxAgeDays !== null))
        ctx.io.out(
          `A running Patchbay prunes after requests (at most once a minute) and every 10 minutes; to prune now: ${cliHint(ctx, `sessions prune ${name}`)}\n`,
        );
    });

  app
    .command("web-search")
    .description("Show or switch an app's web search (clients' web search / web fetch tools, run by Patchbay)")
    .argument("<name>", "app name")
    .argument("[state]", "on or off")
    .action(async (name: string, state: string | undefined) => {
      const value = state === undefined ? undefined : state.trim().toLowerCase();
      if (value !== undefined && value !== "on" && value !== "off") throw new UsageError('Use "on" or "off".');
      const on = await withStores(ctx, async ({ apps }) =>
        value === undefined
          ? requireApp(ctx, apps.get(name), name).webSearch
          : (await apps.update(name, { webSearch: value === "on" })).webSearch,
      );
      const backend = await describeSearchBackend(ctx);
      ctx.io.out(
        on
          ? `Web search is on for app "${name}": ${backend}\n`
          : `Web search is off for app "${name}": its clients get a "search unavailable" result.\n`,
      );
    });

  app
    .command("delete")
    .description("Delete an app: revoke its keys, delete its sessions, then the app")
    .argument("<name>", "app name")
    .option("--keep-sessions", "leave the app's sessions in OpenCode's database (starts no OpenCode)")
    .action(async (name: string, opts: { keepSessions?: boolean }) => {
      const { deleteAppWithSessions } = await import("../app-delete");
      const r = await deleteAppWithSessions(ctx, name, opts.keepSessions === true);
      const keys = `revoked its ${r.keysRevoked} key${r.keysRevoked === 1 ? "" : "s"}`;
      const sessions =
        r.sessionsDeleted === null
          ? " Its sessions were left in OpenCode's database (--keep-sessions)."
          : ` Deleted its ${r.sessionsDeleted} session${r.sessionsDeleted === 1 ? "" : "s"}.` +
            (r.sessionsLeft ? ` ${r.sessionsLeft} could not be deleted (still running or refused by OpenCode).` : "");
      ctx.io.out(`Deleted app "${name}" and ${keys}.${sessions}\n`);
    });

  registerAppRoutingCommands(app, ctx);
}

/**
 * Which backend serves searches and what leaves the machine. With a Patchbay running on this data folder, its own
 * backend (status `search`: its `--search-url`, PATCHBAY_SEARCH_URL or Settings), since that is the one queries go
 * to; otherwise the one `patchbay serve` would use without `--search-url`, and the sentence says so.
 */
async function describeSearchBackend(ctx: CliContext): Promise<string> {
  const { findRunningPatchbay } = await import("../../connect/running-patchbay");
  const running = await findRunningPatchbay(ctx.dataDir()).catch(() => null);
  const search = running ? (await running.client.getStatus().catch(() => null))?.search : undefined;
  if (running && search) {
    const from = search.from === "settings" ? "Settings" : search.from;
    return search.url
      ? `queries go to the SearXNG-compatible endpoint ${search.url} (the running Patchbay's, from ${from}); pages are fetched by Patchbay.`
      : `the running Patchbay has no search backend (set one in Settings, or restart it with \`${cliHint(ctx, "serve --search-url URL")}\`); until then searches get a "search unavailable" result.`;
  }
  const fromEnv = ctx.io.env.PATCHBAY_SEARCH_URL?.trim();
  let url = fromEnv || null;
  if (!url) {
    const settings = await createSettingsStore({ dataDir: ctx.dataDir() });
    url = settings.get().searchUrl;
    await settings.close();
  }
  const which = running
    ? "" // a running Patchbay too old to say which it uses: the best guess, unqualified
    : ` (no Patchbay is running on this data folder: this is what \`${cliHint(ctx, "serve")}\` would use without --search-url)`;
  return url
    ? `queries go to the SearXNG-compatible endpoint ${url}${fromEnv ? " (PATCHBAY_SEARCH_URL)" : ""}${which}; pages are fetched by Patchbay.`
    : `no search backend is configured yet${which} (set one in Settings, with \`${cliHint(ctx, "serve --search-url URL")}\` or PATCHBAY_SEARCH_URL); until then searches get a "search unavailable" result.`;
}

/**
 * Warns on stderr for each allowlist pattern that matches no model the running Patchbay's providers offer (the app
 * could use none of them: its /v1/models would leave them out). Without a running Patchbay nothing is checked.
 */
async function warnIfMatchingNothing(ctx: CliContext, patterns: readonly string[]): Promise<void> {
  if (patterns.length === 0) return;
  const listed = await runningModels(ctx);
  if (!("models" in listed)) return;
  const ids = listed.models.map((m) => m.id);
  const none = patterns.filter((p) => !ids.some((id) => isModelAllowed([p], id)));
  if (none.length === 0) return;
  const all = none.length === patterns.length;
  ctx.io.err(
    `patchbay: warning: ${none.map((p) => `"${p}"`).join(", ")} ${none.length === 1 ? "matches" : "match"} no model a ` +
      `connected provider offers${all ? ", so the app can use no model yet" : ""} (see: ${cliHint(ctx, "models")}).\n`,
  );
}

/**
 * Warns on stderr when an alias just set points to a model the running Patchbay's providers do not offer (it is kept,
 * but /v1/models leaves it out). Without a running Patchbay (no catalog without OpenCode) nothing is checked.
 */
async function warnIfUnavailable(ctx: CliContext, alias: string, target: string, fallbacks: string[]): Promise<void> {
  const listed = await runningModels(ctx);
  if (!("models" in listed)) return;
  const offered = (ref: string): boolean => {
    const [base = "", variant] = ref.split("#");
    const model = listed.models.find((m) => m.id === base);
    return Boolean(model && (variant === undefined || model.variants.includes(variant)));
  };
  if (offered(target)) return;
  const serving = fallbacks.find(offered);
  ctx.io.err(
    `patchbay: warning: alias "${alias}" points to ${target}, which no connected provider offers; it is saved, ` +
      (serving
        ? `and until that model is available its requests go to its fallback ${serving}.\n`
        : `but until that model is available its requests are refused and /v1/models leaves it out (see GET ` +
          `/v1/models for ids).\n`),
  );
}
