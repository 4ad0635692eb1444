// A moment relative to now, in both directions: "just now", "5 min ago", "in 7 min". Pure (the clock is an input),
// shared so the rule is tested in plain Node and read the same on every page.

/**
 * `at` relative to `now` (both ms since the epoch): within 45 s either way "just now" (past) or "in under a minute"
 * (future); then minutes, then hours ("3 h ago", "in 2 h"). Returns null beyond a day either way, where the caller
 * shows a date instead.
 */
export function relativeTime(at: number, now: number): string | null {
  const s = Math.round((now - at) / 1000);
  const future = s < 0;
  const abs = Math.abs(s);
  if (abs < 45) return future ? "in under a minute" : "just now";
  if (abs >= 86_400) return null;
  const amount = abs < 3600 ? `${Math.max(1, Math.round(abs / 60))} min` : `${Math.round(abs / 3600)} h`;
  return future ? `in ${amount}` : `${amount} ago`;
}
