// `patchbay sessions list|prune APP`: an app's OpenCode session history from the command line.
// How: when a Patchbay serves this data folder (runtime.json answers), the command asks it through the admin API, so
// running sessions are known exactly and no second OpenCode starts. Otherwise it starts its own short-lived
// `opencode serve` on the data folder's OpenCode home and uses the history service directly; that OpenCode cannot see
// requests running in another process, so `prune` then checks every session active within the app's request deadline
// (+1 minute) by its last message and keeps it unless that is a finished answer. Must not change apps, keys or settings.
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import type { HistoryLimits } from "../../../shared/apps";
import type {
  openAiTokenTotals as openAiTokenTotalsFn,
  PrunePreview,
  SessionPage,
  SessionSummary,
  SweepResult,
} from "../../../shared/admin/history";
import { PatchbayError } from "../../core/errors";
import type { HistoryServiceOptions } from "../../history/history-service";
import { withHistory } from "../own-history";
import { withStores, type CliContext } from "../context";
import { describeHistoryLimits, localTime, table } from "../format";
import { cliHint, noSuchApp } from "../cli-hint";

/** shared/admin/history's token summer, loaded on demand (its module builds zod schemas the other commands skip). */
type OpenAiTokenTotals = typeof openAiTokenTotalsFn;

/** Extra margin on the request deadline before a recently active session may be pruned by the CLI (ms). */
const RUNNING_MARGIN_MS = 60_000;
/** Sweeps one `prune` runs at most (each bounded by the default budget and deadline). */
const MAX_SWEEPS = 1000;

function parseLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 1_000_000) throw new InvalidArgumentError("Use a whole number from 1 up.");
  return n;
}

/** `--search`: the title text, trimmed, 1–200 characters (the admin API's rule, checked here for both paths). */
function parseSearch(value: string): string {
  const text = value.trim();
  if (text.length === 0) throw new InvalidArgumentError("Give some text to look for in session titles.");
  if (text.length > 200) throw new InvalidArgumentError("Use at most 200 characters.");
  return text;
}

/** The app's saved history limits and request deadline, or PatchbayError 404. */
async function readApp(ctx: CliContext, name: string): Promise<{ history: HistoryLimits; totalTimeoutMs: number }> {
  return withStores(ctx, async ({ apps }) => {
    const app = apps.get(name);
    if (!app) throw noSuchApp(ctx, name);
    return { history: app.history, totalTimeoutMs: app.limits.totalTimeoutMs };
  });
}

/** What the `sessions` commands need from an app's history, whoever serves it. */
interface HistoryAccess {
  list(app: string, q: { limit: number; cursor?: string; search?: string }): Promise<SessionPage>;
  /** What a prune with the app's saved limits would delete now. */
  preview(app: string, limits: HistoryLimits): Promise<PrunePreview>;
  /** One bounded sweep with the app's saved limits. */
  sweep(app: string, limits: HistoryLimits): Promise<SweepResult>;
}

/**
 * Runs `fn` against the Patchbay serving the data folder when there is one, else against this command's own
 * OpenCode (see {@link withHistory}); `extra` applies to the latter only. Says which on stderr with PATCHBAY_DEBUG=1.
 */
async function withHistoryAccess<R>(
  ctx: CliContext,
  extra: Pick<HistoryServiceOptions, "externalRunsWithinMs">,
  fn: (access: HistoryAccess) => Promise<R>,
): Promise<R> {
  const debug = ctx.io.env.PATCHBAY_DEBUG === "1";
  // Loaded here, not at start: the other commands should not pay for the admin client and its schemas.
  const { findRunningPatchbay } = await import("../../connect/running-patchbay");
  const running = await findRunningPatchbay(ctx.dataDir());
  if (running) {
    if (debug) ctx.io.err(`sessions: asking the running Patchbay (pid ${running.pid}) at ${running.adminUrl}\n`);
    const { client } = running;
    return fn({
      list: (name, q) => client.listSessions({ params: { name }, query: q }),
      preview: (name) => client.previewPrune({ params: { name }, query: {} }),
      sweep: (name) => client.pruneNow({ params: { name }, body: {} }),
    });
  }
  if (debug) ctx.io.err("sessions: no running Patchbay answers for this data folder; starting an OpenCode\n");
  return withHistory(ctx, extra, (history) =>
    fn({
      list: (name, q) => history.list(name, q),
      preview: (name, limits) => history.previewPrune(name, limits),
      sweep: (name, limits) => history.prune(name, { limits, trigger: "manual" }),
    }),
  );
}

/** "1 stored response" / "3 stored responses". */
function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function tokens(s: SessionSummary, openAiTokenTotals: OpenAiTokenTotals): string {
  const t = openAiTokenTotals(s.tokens);
  return `${t.input}/${t.output}`;
}

/** Registers the `sessions` command group. */
export function registerSessionsCommands(program: Command, ctx: CliContext): void {
  const sessions = program
    .command("sessions")
    .description("An app's OpenCode session history: list it, prune it by the app's history limits")
    .addHelpText(
      "after",
      `
While Patchbay runs on the same data folder, these commands ask it; otherwise
each starts its own OpenCode for a few seconds.

Examples:
  $ patchbay sessions list my-editor --limit 20
  $ patchbay sessions list my-editor --all --json > sessions.json
  $ patchbay sessions prune my-editor --dry-run`,
    );

  sessions
    .command("list")
    .description("List an app's sessions, newest first")
    .argument("<app>", "app name")
    .option(
      "--json",
      "print JSON (an array of sessions: id, title, directory, toolSet, createdAt, updatedAt, model, tokens, cost)",
    )
    .option("--limit <n>", "how many of the newest sessions (default 50)", parseLimit)
    .option("--all", "every session")
    .option("--search <text>", "only sessions whose title contains this text (case-insensitive)", parseSearch)
    .action(async (name: string, opts: { json?: boolean; limit?: number; all?: boolean; search?: string }) => {
      await readApp(ctx, name);
      const want = opts.all ? Infinity : (opts.limit ?? 50);
      const found = await withHistoryAccess(ctx, {}, async (history) => {
        const out: SessionSummary[] = [];
        let cursor: string | undefined;
        do {
          const page = await history.list(name, {
            limit: Math.min(200, want - out.length),
            ...(cursor ? { cursor } : {}),
            ...(opts.search ? { search: opts.search } : {}),
          });
          out.push(...page.sessions);
          cursor = page.nextCursor ?? undefined;
        } while (cursor && out.length < want);
        return out;
      });
      if (opts.json) {
        // `running` is left out: without a running Patchbay this command cannot see requests running elsewhere, and
        // the output keeps one shape either way.
        ctx.io.out(
          `${JSON.stringify(
            found.map(({ running: _running, ...s }) => s),
            null,
            2,
          )}\n`,
        );
        return;
      }
      if (found.length === 0) {
        ctx.io.out(`App "${name}" has no sessions${opts.search ? ` matching "${opts.search}"` : ""}.\n`);
        return;
      }
      const { openAiTokenTotals } = await import("../../../shared/admin/history");
      const rows = found.map((s) => [
        s.id,
        localTime(s.receivedAt ?? s.createdAt),
        localTime(s.updatedAt),
        s.model ?? "-",
        tokens(s, openAiTokenTotals),
        s.title,
      ]);
      ctx.io.out(table([["ID", "CREATED", "UPDATED", "MODEL", "TOKENS IN/OUT", "TITLE"], ...rows]));
    });

  sessions
    .command("prune")
    .description("Delete an app's sessions beyond its history limits (oldest first; running sessions are kept)")
    .argument("<app>", "app name")
    .option("--dry-run", "only show what would be deleted")
    .action(async (name: string, opts: { dryRun?: boolean }) => {
      const app = await readApp(ctx, name);
      const limits = app.history;
      if (limits.maxSessions === null && limits.maxAgeDays === null) {
        ctx.io.out(
          `App "${name}" keeps its history forever (no history limits); nothing to prune. ` +
            `Set limits with: ${cliHint(ctx, `app history ${name} --max-sessions N`)} (or in the dashboard).\n`,
        );
        return;
      }
      const extra = { externalRunsWithinMs: app.totalTimeoutMs + RUNNING_MARGIN_MS };
      await withHistoryAccess(ctx, extra, async (history) => {
        if (opts.dryRun) {
          const p = await history.preview(name, limits);
          ctx.io.out(
            `Limits: ${describeHistoryLimits(limits)}. ${p.scanned} sessions; a prune would delete ${p.count}`,
          );
          ctx.io.out(p.count ? ` (last active ${localTime(p.oldest)} … ${localTime(p.newest)})` : "");
          ctx.io.out(p.skippedRunning ? `; ${p.skippedRunning} running kept` : "");
          ctx.io.out(p.responses !== undefined ? `; and ${countOf(p.responses, "stored response")}.\n` : ".\n");
          for (const s of p.sample) ctx.io.out(`  ${s.id}  ${localTime(s.updatedAt)}  ${s.title}\n`);
          // The preview names at most 10; say how many more, so the list never looks like the whole count.
          if (p.count > p.sample.length) ctx.io.out(`  … and ${p.count - p.sample.length} more\n`);
          return;
        }
        const { emptySweepResult } = await import("../../../shared/admin/history");
        const total: SweepResult & { sweeps: number } = { ...emptySweepResult(name, "manual", Date.now()), sweeps: 0 };
        for (let i = 0; i < MAX_SWEEPS; i++) {
          const r = await history.sweep(name, limits);
          total.sweeps++;
          total.removed += r.removed;
          total.alreadyMissing += r.alreadyMissing;
          total.failed += r.failed;
          if (r.responsesRemoved !== undefined)
            total.responsesRemoved = (total.responsesRemoved ?? 0) + r.responsesRemoved;
          total.skippedRunning = r.skippedRunning;
          total.remaining = r.remaining;
          total.error = r.error;
          if (ctx.io.env.PATCHBAY_DEBUG === "1") ctx.io.err(`history: sweep ${JSON.stringify(r)}\n`);
          if (r.remaining === 0 || r.error || r.removed + r.alreadyMissing === 0) break;
        }
        ctx.io.out(
          `Pruned app "${name}" (${describeHistoryLimits(limits)}): removed ${total.removed}, already gone ${total.alreadyMissing}, ` +
            `failed ${total.failed}, kept as running ${total.skippedRunning}, still over the limits ${total.remaining}` +
            (total.responsesRemoved !== undefined ? `; stored responses removed ${total.responsesRemoved}.\n` : ".\n"),
        );
        if (total.error) throw new PatchbayError("backend_unavailable", `Pruning stopped: ${total.error}`);
      });
    });
}
