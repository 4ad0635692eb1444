// Plain-text output helpers of the CLI: aligned tables, local times, history limits in words. Must not print.
import type { HistoryLimits } from "../../shared/apps";

/** Columns padded to the widest cell, two spaces apart; `rows[0]` is the header. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return (
    rows
      .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "))
      .join("\n") + "\n"
  );
}

/** Epoch ms as local `YYYY-MM-DD HH:MM`; `never` for null. */
export function localTime(ms: number | null): string {
  if (ms === null) return "never";
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** `keep the newest 100, delete after 30 days`, or `keep forever`. */
export function describeHistoryLimits(l: HistoryLimits): string {
  const parts = [
    l.maxSessions === null ? null : `keep the newest ${l.maxSessions}`,
    l.maxAgeDays === null ? null : `delete after ${l.maxAgeDays} day${l.maxAgeDays === 1 ? "" : "s"}`,
  ];
  return parts.filter(Boolean).join(", ") || "keep forever";
}

/**
 * `text` safe to print on a terminal: control characters other than newline and tab (an escape sequence in a name a
 * user typed or pasted) and format characters (bidi overrides, zero-width) are shown as `\u001b` / `\u202e`, never
 * sent raw.
 */
export function terminalText(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}]/gu, (c) =>
    c === "\n" || c === "\t" ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
