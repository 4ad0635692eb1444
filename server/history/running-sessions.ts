// Which sessions are running now: busy in their live OpenCode instance, or (for callers that cannot see every request)
// recently active and seemingly running elsewhere. Owns the rule "never delete a running session"'s evidence; it
// deletes nothing itself.
import { PatchbayError } from "../core/errors";
import { mapLimit } from "./map-limit";
import type { RawMessage, RawSession } from "./opencode-port";
import { isLive, type HistoryContext } from "./service-context";

/** A session without messages may be a request's brand-new session for this long (ms). */
const NO_MESSAGE_GRACE_MS = 5000;

/** True when `s` was active within {@link HistoryContext.recentMs} (always false when that is 0). */
export function isRecent(ctx: HistoryContext, s: RawSession): boolean {
  return ctx.recentMs > 0 && ctx.now() - s.updatedAt < ctx.recentMs;
}

/**
 * Whether a recently active session seems to run in another process, from its last message: an assistant message
 * not completed and without error, or a user message not answered yet. No message: only in its first 5 s (a request
 * prompts its new session at once). When in doubt (unreadable), it counts as running.
 */
export async function looksRunning(ctx: HistoryContext, s: RawSession): Promise<boolean> {
  let last: RawMessage | undefined;
  try {
    last = (await ctx.port.messages(s.id, undefined, { limit: 1 })).items.at(-1);
  } catch (err) {
    if (err instanceof PatchbayError && err.code === "session_not_found") return false;
    return true;
  }
  if (!last) return ctx.now() - s.createdAt < NO_MESSAGE_GRACE_MS;
  if (last.info.role === "user") return true;
  return last.info.time.completed === undefined && last.info.error === undefined;
}

/** Ids among `sessions` that are running: busy in their live instance (one status call per live directory), or,
 *  with `externalRunsWithinMs`, recently active and seemingly running elsewhere. */
export async function runningAmong(ctx: HistoryContext, sessions: readonly RawSession[]): Promise<Set<string>> {
  const dirs = [...new Set(sessions.map((s) => s.directory))].filter((d) => isLive(ctx, d));
  const sets = await Promise.all(dirs.map((d) => ctx.port.busySessions(d)));
  const running = new Set(sets.flatMap((x) => [...x]));
  const recent = sessions.filter((s) => !running.has(s.id) && isRecent(ctx, s));
  const external = await mapLimit(recent, 4, (s) => looksRunning(ctx, s));
  recent.forEach((s, i) => external[i] && running.add(s.id));
  return running;
}
