// The mark of a pre-created (pooled, not yet used) session: its title. History listings hide such sessions, and the
// session pool deletes them on stop. Shared by the pool and the history port; no logic beyond the title.

/** Title of a pooled session until a request takes it (then it gets the request's title). */
export const POOLED_SESSION_TITLE = "patchbay-pool: reserved";

/** True for a session that the session pool created and no request has used yet. */
export function isPooledSessionTitle(title: string): boolean {
  return title.startsWith("patchbay-pool:");
}
