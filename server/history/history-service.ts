// Per-app session history over OpenCode: the public facade over listing, reading, deleting and pruning (one module
// each, sharing a HistoryContext). Holds no logic of its own; it never starts sweeps (see sweeper.ts) and never
// touches the request path.
import type { HistoryLimits } from "../../shared/apps";
import type {
  DeleteSessionsResult,
  MessagePage,
  PrunePreview,
  SessionPage,
  SweepResult,
} from "../../shared/admin/history";
import { previewPrune, pruneSessions, type PruneOptions } from "./prune-sweep";
import { createHistoryContext, type HistoryContext, type HistoryServiceOptions } from "./service-context";
import { deleteOneSession, deleteSessions } from "./session-delete";
import { listSessions } from "./session-list";
import { readMessages } from "./session-messages";

export type { HistoryServiceOptions } from "./service-context";
export type { PruneOptions } from "./prune-sweep";
export {
  DEFAULT_BUSY_INTERVAL_MS,
  DEFAULT_SWEEP_BUDGET,
  DEFAULT_SWEEP_CONCURRENCY,
  DEFAULT_SWEEP_DEADLINE_MS,
  DEFAULT_SWEEP_PAUSE_MS,
} from "./sweep-pacing";

/**
 * The history of each app's OpenCode sessions. Throws PatchbayError: `app_not_found` (unknown app),
 * `session_not_found` (unknown or another app's session), `session_running` (deleting a running session),
 * `invalid_request_error` (bad cursor), `backend_unavailable` (OpenCode down or failing).
 * Throws Error (a programming error) when constructed without `opencode` or `port`.
 */
export class HistoryService {
  private readonly ctx: HistoryContext;

  constructor(opts: HistoryServiceOptions) {
    this.ctx = createHistoryContext(opts);
  }

  /**
   * One page of the app's sessions, newest first by creation, merged across its tool-set directories. `cursor` is
   * `nextCursor` of the previous page (made for the same `search`); `limit` 1–200 (default 50). See
   * {@link listSessions} for paging exactness and cost.
   */
  list(app: string, q: { cursor?: string; limit?: number; search?: string } = {}): Promise<SessionPage> {
    return listSessions(this.ctx, app, q);
  }

  /**
   * A page of a session's messages: the newest `limit` (default 50, max 100) before `cursor`, oldest first;
   * `nextCursor` leads to older ones. Unreadable (structured-output) messages show as placeholders ({@link readMessages}).
   */
  messages(app: string, sessionId: string, q: { cursor?: string; limit?: number } = {}): Promise<MessagePage> {
    return readMessages(this.ctx, app, sessionId, q);
  }

  /**
   * Deletes sessions of `app`. Running sessions are never deleted (`running`); unknown ids and other apps' sessions
   * are `missing`; OpenCode errors per session are `failed`.
   */
  delete(app: string, ids: readonly string[]): Promise<DeleteSessionsResult> {
    return deleteSessions(this.ctx, app, ids);
  }

  /** Deletes one session. Throws `session_running` (409) while it runs, `session_not_found` (404) when unknown or
   *  another app's, `backend_unavailable` when OpenCode fails. */
  deleteOne(app: string, sessionId: string): Promise<void> {
    return deleteOneSession(this.ctx, app, sessionId);
  }

  /** What a prune with `limits` would delete now (count, oldest/newest activity, up to 10 samples newest first).
   *  Cost: one full scan of the app's sessions. */
  previewPrune(app: string, limits: HistoryLimits): Promise<PrunePreview> {
    return previewPrune(this.ctx, app, limits);
  }

  /**
   * One bounded sweep, oldest first, within `opts.budget` deletions and `opts.deadlineMs`, skipping running sessions
   * and yielding to requests in flight. Throws `backend_unavailable` when listing fails; see {@link pruneSessions}.
   */
  prune(app: string, opts: PruneOptions): Promise<SweepResult> {
    return pruneSessions(this.ctx, app, opts);
  }
}
