// Per-app session history over OpenCode: list (newest first, across the app's tool-set directories), read messages,
// delete, preview and run bounded prunes. Owns the rules "never delete a running session" and "only this app's
// sessions"; it never starts sweeps by itself (see sweeper.ts) and never touches the request path.
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { HistoryLimits } from "../../../shared/apps";
import type {
  DeleteSessionsResult,
  MessagePage,
  PrunePreview,
  SessionMessage,
  SessionPage,
  SessionSummary,
  SweepResult,
} from "../../../shared/admin/history";
import { PatchbayError } from "../../core/errors";
import { createAppDirectories, type AppDirectories } from "./app-directories";
import { DEFAULT_VIEW_LIMITS, mapMessages, unreadableMessage, type ViewLimits } from "./message-view";
import {
  createOpenCodeHistoryPort,
  InvalidOpenCodeCursorError,
  UnreadableMessagesError,
  type OpenCodeClientFactory,
  type OpenCodeHistoryPort,
  type RawMessage,
  type RawSession,
} from "./opencode-port";
import { hasLimits, isOverLimits, planPrune, pruneRule, spreadSample, walkEnd, type PruneRule } from "./prune-plan";
import {
  compareNewestFirst,
  decodeListCursor,
  encodeListCursor,
  mergePage,
  needsMore,
  type DirFetch,
  type ListCursor,
  type MergedPage,
  type SessionKey,
} from "./session-pager";

/** Dependencies of {@link HistoryService}. */
export interface HistoryServiceOptions {
  /** Source of SDK clients (the supervisor). Required unless `port` is given. */
  opencode?: OpenCodeClientFactory;
  /** The OpenCode calls themselves (tests pass a fake); default: an adapter over `opencode`. */
  port?: OpenCodeHistoryPort;
  /** The app's folder, whose subfolders are its tool-set (instance) directories: `<dataDir>/apps/<app>`. */
  appsDir(app: string): string;
  /** Clock for age limits (epoch ms); default Date.now. Deadlines use a monotonic clock regardless. */
  now?: () => number;
  /** False → PatchbayError 404 `app_not_found`. Default: every app exists. */
  hasApp?: (app: string) => boolean;
  /** Directory lookup (tests); default: subfolders of `appsDir(app)` on disk. */
  directories?: AppDirectories;
  /** Size caps of the session view. */
  viewLimits?: ViewLimits;
  /** Directories whose OpenCode instance is live (the instance pool's). Sessions only run in live instances, so
   *  status is asked there only and other calls avoid booting cold instances. Default: every directory is live. */
  liveDirectories?: () => readonly string[];
  /** For callers that cannot see every running request (the CLI with its own OpenCode next to a running Patchbay):
   *  sessions active within this many ms are checked through their last message and count as running unless it is
   *  a finished answer (or they have none and are older than 5 s). Pass the longest request deadline. Default 0 (off). */
  externalRunsWithinMs?: number;
  /** Patchbay requests in flight (all apps). While > 0, sweeps yield: at most one deletion (or scan window) per
   *  `busyIntervalMs`, so OpenCode's single event loop stays free for requests. Default: never busy. */
  activeRequests?: () => number;
}

/** Options of {@link HistoryService.prune}. */
export interface PruneOptions {
  limits: HistoryLimits;
  /** Plan and count only. */
  dryRun?: boolean;
  /** Max deletions attempted in this sweep (default {@link DEFAULT_SWEEP_BUDGET}). */
  budget?: number;
  /** No new deletion starts after this many ms (default {@link DEFAULT_SWEEP_DEADLINE_MS}). */
  deadlineMs?: number;
  /** Deletions in flight at once (default {@link DEFAULT_SWEEP_CONCURRENCY}). */
  concurrency?: number;
  /** Pause after each deletion, per worker, ms (default {@link DEFAULT_SWEEP_PAUSE_MS}). */
  pauseMs?: number;
  /** While requests are in flight, at most one deletion per this many ms (default {@link DEFAULT_BUSY_INTERVAL_MS}). */
  busyIntervalMs?: number;
  trigger?: SweepResult["trigger"];
}

/** Deletions per sweep: a few hundred (issue 6). At the measured ≈ 10–25 ms per deletion this is a few seconds of
 *  background work; larger backlogs drain over several sweeps. */
export const DEFAULT_SWEEP_BUDGET = 300;
/** A sweep stops starting deletions after this long, whatever is left. */
export const DEFAULT_SWEEP_DEADLINE_MS = 10_000;
/** Deletions in flight at once during a sweep. */
export const DEFAULT_SWEEP_CONCURRENCY = 2;
/** Pause after each deletion, per worker. */
export const DEFAULT_SWEEP_PAUSE_MS = 5;
/** While requests are in flight, one deletion per this many ms (≈ 10 ms of OpenCode time each: a ~4 % duty cycle). */
export const DEFAULT_BUSY_INTERVAL_MS = 250;

const DEFAULT_PAGE = 50;
const DEFAULT_MESSAGES_PAGE = 50;
/** Window size of full scans: one v2 list call per 500 sessions (≈ 0.1–0.2 s of OpenCode time each). */
const SCAN_WINDOW = 500;
/** Re-read a directory's running sessions during a sweep at most this often, ms. */
const STATUS_REFRESH_MS = 1000;
/** A session without messages may be a request's brand-new session for this long (ms). */
const NO_MESSAGE_GRACE_MS = 5000;
/** A sweep gives up after this many failed deletions in a row (OpenCode down). */
const MAX_CONSECUTIVE_FAILURES = 5;
const UNREADABLE_REASON =
  "OpenCode 1.18.33 cannot return this message (it asked for structured output); its content is not available here.";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs `fn` over `items` with at most `concurrency` in flight; results in input order. */
async function mapLimit<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}

/** Pacing state of one sweep: the next time an OpenCode call may start while requests are in flight. */
interface YieldGate {
  nextSlot: number;
  intervalMs: number;
}

/** Every session of an app plus the ids running now (from one full scan). */
interface AppScan {
  sessions: RawSession[];
  running: Set<string>;
}

/**
 * The history of each app's OpenCode sessions. Throws PatchbayError: `app_not_found` (unknown app),
 * `session_not_found` (unknown or another app's session), `session_running` (deleting a running session),
 * `invalid_request_error` (bad cursor), `backend_unavailable` (OpenCode down or failing).
 */
export class HistoryService {
  private readonly port: OpenCodeHistoryPort;
  private readonly dirs: AppDirectories;
  private readonly now: () => number;
  private readonly hasApp: (app: string) => boolean;
  private readonly viewLimits: ViewLimits;
  private readonly liveDirectories: (() => readonly string[]) | null;
  private readonly recentMs: number;
  private readonly activeRequests: () => number;

  constructor(opts: HistoryServiceOptions) {
    if (!opts.port && !opts.opencode) throw new Error("HistoryService needs `opencode` or `port`");
    this.port = opts.port ?? createOpenCodeHistoryPort(opts.opencode as OpenCodeClientFactory);
    this.dirs = opts.directories ?? createAppDirectories(opts.appsDir);
    this.now = opts.now ?? Date.now;
    this.hasApp = opts.hasApp ?? (() => true);
    this.viewLimits = opts.viewLimits ?? DEFAULT_VIEW_LIMITS;
    this.liveDirectories = opts.liveDirectories ?? null;
    this.recentMs = Math.max(0, opts.externalRunsWithinMs ?? 0);
    this.activeRequests = opts.activeRequests ?? (() => 0);
  }

  /**
   * One page of the app's sessions, newest first by creation, merged across its tool-set directories. `cursor` is
   * `nextCursor` of the previous page (made for the same `search`); pages stay exact while new sessions arrive
   * (those are newer than the cursor, so they appear only when the list is restarted). `limit` 1–200 (default 50).
   * Cost: per directory one OpenCode list call of `limit` (rarely two) plus one status call per directory on the page.
   */
  async list(app: string, q: { cursor?: string; limit?: number; search?: string } = {}): Promise<SessionPage> {
    this.requireApp(app);
    const limit = Math.min(200, Math.max(1, Math.trunc(q.limit ?? DEFAULT_PAGE)));
    const search = q.search?.trim() || null;
    const cursor = q.cursor ? decodeListCursor(q.cursor, search) : null;
    const done = cursor?.done ?? [];
    const directories = (await this.dirs.list(app)).filter((d) => !done.includes(path.basename(d)));
    const fetches = await Promise.all(directories.map((d) => this.fetchForPage(d, cursor, limit, search)));
    const merged = mergePage(fetches, cursor?.last ?? null, limit, search, done);
    const running = await this.runningAmong(merged.page);
    return { sessions: merged.page.map((s) => toSummary(s, running)), nextCursor: merged.next ? encodeListCursor(merged.next) : null };
  }

  /**
   * A page of a session's messages: the newest `limit` (default 50, max 100) before `cursor`, oldest first;
   * `nextCursor` leads to older ones. When OpenCode's list endpoint fails (it cannot encode messages that asked for
   * structured output), reads them one at a time and shows a placeholder for the unreadable one.
   */
  async messages(app: string, sessionId: string, q: { cursor?: string; limit?: number } = {}): Promise<MessagePage> {
    const session = await this.ownedSession(app, sessionId);
    const limit = Math.min(100, Math.max(1, Math.trunc(q.limit ?? DEFAULT_MESSAGES_PAGE)));
    const summary = toSummary(session, await this.runningAmong([session]));
    try {
      const page = await this.port.messages(session.id, this.scope(session.directory), { limit, ...(q.cursor ? { before: q.cursor } : {}) });
      return { session: summary, messages: mapMessages(page.items, this.viewLimits), nextCursor: page.next, incomplete: null };
    } catch (err) {
      if (!(err instanceof UnreadableMessagesError)) throw err;
      return { session: summary, ...(await this.readOneByOne(session, limit, q.cursor)) };
    }
  }

  /**
   * Deletes sessions of `app`. Running sessions are never deleted (`running`); unknown ids and other apps' sessions
   * are `missing`; OpenCode errors per session are `failed`.
   */
  async delete(app: string, ids: readonly string[]): Promise<DeleteSessionsResult> {
    this.requireApp(app);
    const unique = [...new Set(ids)];
    const result: DeleteSessionsResult = { deleted: [], missing: [], running: [], failed: [] };
    const found = await mapLimit(unique, 8, (id) => this.port.getSession(id));
    const owned: RawSession[] = [];
    unique.forEach((id, i) => {
      const s = found[i];
      if (!s || !this.dirs.owns(app, s.directory)) result.missing.push(id);
      else owned.push(s);
    });
    const running = await this.runningAmong(owned);
    const deletable = owned.filter((s) => {
      if (!running.has(s.id)) return true;
      result.running.push(s.id);
      return false;
    });
    await mapLimit(deletable, 4, async (s) => {
      try {
        const r = await this.port.deleteSession(s.id, this.scope(s.directory));
        (r === "deleted" ? result.deleted : result.missing).push(s.id);
      } catch (err) {
        result.failed.push({ id: s.id, message: err instanceof Error ? err.message : String(err) });
      }
    });
    return result;
  }

  /** Deletes one session. Throws `session_running` (409) while it runs, `session_not_found` (404) when unknown or
   *  another app's, `backend_unavailable` when OpenCode fails. */
  async deleteOne(app: string, sessionId: string): Promise<void> {
    const r = await this.delete(app, [sessionId]);
    if (r.running.length) {
      throw new PatchbayError(
        "session_running",
        `Session ${sessionId} is still running, so it was not deleted. Wait for its request to finish (or cancel it), then delete it.`,
      );
    }
    if (r.missing.length) throw new PatchbayError("session_not_found", `App '${app}' has no session ${sessionId}.`);
    const failure = r.failed[0];
    if (failure) throw new PatchbayError("backend_unavailable", `OpenCode could not delete session ${sessionId}: ${failure.message}`);
  }

  /** What a prune with `limits` would delete now (count, oldest/newest activity, up to 10 samples newest first).
   *  Cost: one full scan of the app's sessions (≈ one OpenCode list call per 1,000 sessions per directory). */
  async previewPrune(app: string, limits: HistoryLimits): Promise<PrunePreview> {
    this.requireApp(app);
    const scan = await this.scan(app);
    const plan = planPrune(scan.sessions, limits, this.now(), scan.running);
    const newestFirst = [...plan.toDelete].reverse();
    return {
      limits: { maxSessions: limits.maxSessions, maxAgeDays: limits.maxAgeDays },
      scanned: scan.sessions.length,
      count: plan.toDelete.length,
      skippedRunning: plan.skippedRunning.length,
      oldest: plan.toDelete.reduce<number | null>((m, s) => (m === null || s.updatedAt < m ? s.updatedAt : m), null),
      newest: plan.toDelete.reduce<number | null>((m, s) => (m === null || s.updatedAt > m ? s.updatedAt : m), null),
      sample: spreadSample(newestFirst, 10).map((s) => toSummary(s, scan.running)),
    };
  }

  /**
   * One bounded sweep, oldest first. Its cost is bounded too: it never lists the whole app, only the newest
   * `maxSessions` (to find the boundary) and, per directory, the oldest sessions up to the first one neither rule can
   * match or `budget + 1` candidates. Deletes with small concurrency until the budget or the deadline, skipping sessions
   * that are (or become) running, yielding to requests in flight (`activeRequests`). `scanned` counts the sessions
   * looked at; `remaining` is a lower bound (0: nothing left). Throws `backend_unavailable` when listing fails;
   * deletion failures are counted, and the sweep stops after 5 in a row (`error` says why).
   */
  async prune(app: string, opts: PruneOptions): Promise<SweepResult> {
    this.requireApp(app);
    const startedAt = this.now();
    const deadline = performance.now() + (opts.deadlineMs ?? DEFAULT_SWEEP_DEADLINE_MS);
    const budget = Math.max(0, Math.trunc(opts.budget ?? DEFAULT_SWEEP_BUDGET));
    const pauseMs = opts.pauseMs ?? DEFAULT_SWEEP_PAUSE_MS;
    const gate: YieldGate = { nextSlot: 0, intervalMs: opts.busyIntervalMs ?? DEFAULT_BUSY_INTERVAL_MS };
    const result: SweepResult = {
      app,
      trigger: opts.trigger ?? "manual",
      startedAt,
      finishedAt: startedAt,
      scanned: 0,
      removed: 0,
      alreadyMissing: 0,
      failed: 0,
      skippedRunning: 0,
      remaining: 0,
      dryRun: opts.dryRun === true,
      error: null,
    };
    const done = () => ({ ...result, finishedAt: this.now() });
    if (!hasLimits(opts.limits)) return done();

    const directories = await this.dirs.list(app);
    let boundary: PruneRule["boundary"] = null;
    if (opts.limits.maxSessions !== null) {
      const nth = await this.nthNewest(directories, opts.limits.maxSessions, gate);
      result.scanned += nth.seen;
      boundary = nth.key;
    }
    const rule = pruneRule(opts.limits, this.now(), boundary);
    const walks = await Promise.all(directories.map((d) => this.oldestOverLimits(d, rule, budget + 1, gate)));
    result.scanned += walks.reduce((n, w) => n + w.seen, 0);
    const candidates = walks.flatMap((w) => w.candidates).sort((x, y) => compareNewestFirst(y, x));
    const running = await this.runningAmong(candidates);
    const queue = candidates.filter((c) => !running.has(c.id));
    result.skippedRunning = candidates.length - queue.length;
    result.remaining = queue.length;
    if (opts.dryRun || queue.length === 0) return done();

    const work = queue.slice(0, budget);
    const statusAt = new Map<string, { at: number; busy: Set<string> }>();
    const isRunning = async (s: RawSession): Promise<boolean> => {
      if (this.isRecent(s) && (await this.looksRunning(s))) return true;
      if (!this.isLive(s.directory)) return false;
      const cached = statusAt.get(s.directory);
      if (!cached || performance.now() - cached.at > STATUS_REFRESH_MS) {
        statusAt.set(s.directory, { at: performance.now(), busy: await this.port.busySessions(s.directory) });
      }
      return statusAt.get(s.directory)?.busy.has(s.id) ?? false;
    };
    let next = 0;
    let handled = 0;
    let consecutiveFailures = 0;
    const worker = async () => {
      while (next < work.length && consecutiveFailures < MAX_CONSECUTIVE_FAILURES) {
        if (!(await this.yieldToRequests(gate, deadline)) || next >= work.length) break;
        const s = work[next++] as RawSession;
        try {
          if (await isRunning(s)) {
            result.skippedRunning++;
          } else if ((await this.port.deleteSession(s.id, this.scope(s.directory))) === "deleted") {
            result.removed++;
          } else {
            result.alreadyMissing++;
          }
          handled++;
          consecutiveFailures = 0;
        } catch (err) {
          result.failed++;
          consecutiveFailures++;
          result.error = `Deleting session ${s.id} failed: ${err instanceof Error ? err.message : String(err)}`;
        }
        if (pauseMs > 0) await sleep(pauseMs);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? DEFAULT_SWEEP_CONCURRENCY) }, worker));
    result.remaining = queue.length - handled;
    return done();
  }

  // ---- internals -------------------------------------------------------------------------------------------------

  private requireApp(app: string): void {
    if (!this.hasApp(app)) throw new PatchbayError("app_not_found", `There is no app named '${app}'.`, { param: "name" });
  }

  /** The session when it exists and is filed under the app's folder; else 404 (another app's looks unknown). */
  private async ownedSession(app: string, sessionId: string): Promise<RawSession> {
    this.requireApp(app);
    const s = await this.port.getSession(sessionId);
    if (!s || !this.dirs.owns(app, s.directory)) throw new PatchbayError("session_not_found", `App '${app}' has no session ${sessionId}.`);
    return s;
  }

  /** True when `directory`'s instance may be live (sessions can only run there). */
  private isLive(directory: string): boolean {
    return this.liveDirectories === null || this.liveDirectories().includes(directory);
  }

  /** The directory to address a session's calls to: its own instance when live, else the default one (no boot). */
  private scope(directory: string): string | undefined {
    return this.liveDirectories === null || this.isLive(directory) ? directory : undefined;
  }

  private isRecent(s: RawSession): boolean {
    return this.recentMs > 0 && this.now() - s.updatedAt < this.recentMs;
  }

  /**
   * Whether a recently active session seems to run in another process, from its last message: an assistant message
   * not completed and without error, or a user message not answered yet. No message: only in its first 5 s (a request
   * prompts its new session at once). When in doubt (unreadable), it counts as running.
   */
  private async looksRunning(s: RawSession): Promise<boolean> {
    let last: RawMessage | undefined;
    try {
      last = (await this.port.messages(s.id, undefined, { limit: 1 })).items.at(-1);
    } catch (err) {
      if (err instanceof PatchbayError && err.code === "session_not_found") return false;
      return true;
    }
    if (!last) return this.now() - s.createdAt < NO_MESSAGE_GRACE_MS;
    if (last.info.role === "user") return true;
    return last.info.time.completed === undefined && last.info.error === undefined;
  }

  /** Ids among `sessions` that are running: busy in their live instance (one status call per live directory), or,
   *  with {@link HistoryServiceOptions.externalRunsWithinMs}, recently active and seemingly running elsewhere. */
  private async runningAmong(sessions: readonly RawSession[]): Promise<Set<string>> {
    const dirs = [...new Set(sessions.map((s) => s.directory))].filter((d) => this.isLive(d));
    const sets = await Promise.all(dirs.map((d) => this.port.busySessions(d)));
    const running = new Set(sets.flatMap((x) => [...x]));
    const recent = sessions.filter((s) => !running.has(s.id) && this.isRecent(s));
    const external = await mapLimit(recent, 4, (s) => this.looksRunning(s));
    recent.forEach((s, i) => external[i] && running.add(s.id));
    return running;
  }

  /** The key of the `n`-th newest session of the app in list order (null when it has fewer), and how many sessions
   *  that took to read. Pages of at most 500 through the same merge as {@link list}. */
  private async nthNewest(directories: readonly string[], n: number, gate: YieldGate): Promise<{ key: SessionKey | null; seen: number }> {
    let cursor: ListCursor | null = null;
    let seen = 0;
    for (;;) {
      const want = Math.min(500, n - seen);
      const done: string[] = cursor?.done ?? [];
      const active = directories.filter((d) => !done.includes(path.basename(d)));
      const fetches = await Promise.all(active.map((d) => this.fetchForPage(d, cursor, want, null, gate)));
      const merged: MergedPage<RawSession> = mergePage(fetches, cursor?.last ?? null, want, null, done);
      seen += merged.page.length;
      const last = merged.page.at(-1);
      if (seen >= n && last) return { key: { createdAt: last.createdAt, id: last.id }, seen };
      if (!merged.next) return { key: null, seen };
      cursor = merged.next;
    }
  }

  /** One directory's sessions over the limits, oldest first, stopping at the first session no rule can match (see
   *  `walkEnd`) or after `max` candidates. */
  private async oldestOverLimits(directory: string, rule: PruneRule, max: number, gate: YieldGate): Promise<{ candidates: RawSession[]; seen: number }> {
    const end = walkEnd(rule);
    const candidates: RawSession[] = [];
    let seen = 0;
    let cursor: string | null = null;
    const window = Math.max(1, Math.min(max, SCAN_WINDOW));
    do {
      await this.yieldToRequests(gate, Infinity);
      const w = await this.port.listSessions(directory, { limit: window, order: "asc", ...(cursor ? { cursor } : {}) });
      for (const s of w.items) {
        seen++;
        if (s.createdAt > end) return { candidates, seen };
        if (isOverLimits(s, rule)) candidates.push(s);
        if (candidates.length >= max) return { candidates, seen };
      }
      cursor = w.next;
    } while (cursor);
    return { candidates, seen };
  }

  /** Fetches windows from one directory until a page of `limit` can be merged (see `needsMore`). */
  private async fetchForPage(
    directory: string,
    cursor: ListCursor | null,
    limit: number,
    search: string | null,
    gate?: YieldGate,
  ): Promise<DirFetch<RawSession>> {
    const name = path.basename(directory);
    const after: SessionKey | null = cursor?.last ?? null;
    let start = cursor?.dirs[name] ?? null;
    const fetch: DirFetch<RawSession> = { name, windows: [] };
    while (needsMore(fetch, after, limit)) {
      const from = fetch.windows.length ? (fetch.windows.at(-1)?.next ?? null) : start;
      if (gate) await this.yieldToRequests(gate, Infinity);
      try {
        const w = await this.port.listSessions(directory, { limit, ...(from ? { cursor: from } : {}), ...(search ? { search } : {}) });
        fetch.windows.push({ cursorUsed: from, items: w.items, next: w.next });
      } catch (err) {
        // OpenCode no longer accepts its own cursor (e.g. after an upgrade): restart this directory from its newest
        // session; the `after` filter keeps the page exact, only slower.
        if (err instanceof InvalidOpenCodeCursorError && fetch.windows.length === 0 && start !== null) {
          start = null;
          continue;
        }
        throw err;
      }
    }
    return fetch;
  }

  /**
   * Waits while Patchbay serves requests until this sweep's next slot (one OpenCode call per `gate.intervalMs`,
   * shared by all workers); returns at once when no request is in flight. False when `deadline` passed.
   */
  private async yieldToRequests(gate: YieldGate, deadline: number): Promise<boolean> {
    for (;;) {
      const now = performance.now();
      if (now >= deadline) return false;
      if (this.activeRequests() <= 0) return true;
      if (now >= gate.nextSlot) {
        gate.nextSlot = now + gate.intervalMs;
        return true;
      }
      // Re-check often: when the requests end, the sweep continues at full speed.
      await sleep(Math.min(25, gate.nextSlot - now));
    }
  }

  /** Every session of the app (all directories, windows of {@link SCAN_WINDOW}) and the running ones. Yields to
   *  requests between windows. */
  private async scan(app: string, gate: YieldGate = { nextSlot: 0, intervalMs: DEFAULT_BUSY_INTERVAL_MS }): Promise<AppScan> {
    const directories = await this.dirs.list(app);
    const perDir = await Promise.all(
      directories.map(async (d) => {
        const sessions: RawSession[] = [];
        let cursor: string | null = null;
        do {
          await this.yieldToRequests(gate, Infinity);
          const w = await this.port.listSessions(d, { limit: SCAN_WINDOW, ...(cursor ? { cursor } : {}) });
          sessions.push(...w.items);
          cursor = w.next;
        } while (cursor);
        return sessions;
      }),
    );
    const seen = new Set<string>();
    const sessions = perDir.flat().filter((s) => !seen.has(s.id) && seen.add(s.id) && this.dirs.owns(app, s.directory));
    return { sessions, running: await this.runningAmong(sessions) };
  }

  /** Fallback when a page cannot be encoded: walk back one message at a time; placeholders for unreadable ones. */
  private async readOneByOne(
    session: RawSession,
    limit: number,
    before: string | undefined,
  ): Promise<{ messages: SessionMessage[]; nextCursor: string | null; incomplete: string | null }> {
    const newestFirst: RawMessage[] = [];
    let cursor = before;
    let nextCursor: string | null = null;
    let blocked = false;
    while (newestFirst.length < limit) {
      try {
        const r = await this.port.messages(session.id, this.scope(session.directory), { limit: 1, ...(cursor ? { before: cursor } : {}) });
        const m = r.items[0];
        nextCursor = r.next;
        if (!m) break;
        newestFirst.push(m);
        if (!r.next) break;
        cursor = r.next;
      } catch (err) {
        if (!(err instanceof UnreadableMessagesError)) throw err;
        blocked = true;
        nextCursor = null;
        break;
      }
    }
    const chronological = newestFirst.reverse();
    const messages = mapMessages(chronological, this.viewLimits);
    if (!blocked) return { messages, nextCursor, incomplete: null };

    // The blocking message is older than everything read; assistants name their user message (parentID), so try those
    // one by one (`session.message`) and show a placeholder where OpenCode cannot encode them either.
    const known = new Set(chronological.map((m) => m.info.id));
    const parents = [...new Set(chronological.map((m) => m.info.parentID).filter((p): p is string => !!p && !known.has(p)))];
    const recovered: SessionMessage[] = [];
    for (const id of parents) {
      try {
        const m = await this.port.message(session.id, this.scope(session.directory), id);
        if (m) recovered.push(...mapMessages([m], this.viewLimits));
      } catch (err) {
        if (!(err instanceof UnreadableMessagesError)) throw err;
        recovered.push(unreadableMessage(id, "user", UNREADABLE_REASON));
      }
    }
    if (parents.length === 0) recovered.push(unreadableMessage(`unreadable-${session.id}`, "user", UNREADABLE_REASON));
    return {
      messages: [...recovered, ...messages],
      nextCursor: null,
      incomplete: "OpenCode could not return every message of this session (structured-output messages cannot be read in OpenCode 1.18.33); older messages, if any, are not shown.",
    };
  }
}

function toSummary(s: RawSession, running: ReadonlySet<string>): SessionSummary {
  return {
    id: s.id,
    title: s.title,
    directory: s.directory,
    toolSet: path.basename(s.directory),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    model: s.model,
    tokens: s.tokens,
    cost: s.cost,
    running: running.has(s.id),
  };
}
