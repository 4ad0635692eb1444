// Display formatting for times, durations, numbers and sizes. Pure; no React.
import { relativeTime } from "../../../shared/relative-time";

const timeFmt = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});
const dateTimeFmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const numFmt = new Intl.NumberFormat();
const compactFmt = new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 });

/** What every page shows for an empty or unknown value: one em dash, never "–", "-" or "n/a". */
export const EMPTY = "—";

/** `14:03:22` for today, else date and time. */
export function formatTime(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  return new Date(now).toDateString() === d.toDateString() ? timeFmt.format(d) : dateTimeFmt.format(d);
}

export function formatDateTime(ms: number): string {
  return dateTimeFmt.format(new Date(ms));
}

export function formatDate(ms: number): string {
  return dateFmt.format(new Date(ms));
}

/** "just now", "5 min ago", "3 h ago", "in 7 min" (shared/relative-time.ts), else the date. */
export function formatRelative(ms: number, now = Date.now()): string {
  return relativeTime(ms, now) ?? formatDate(ms);
}

/** Milliseconds as `840 ms`, `1.2 s`, `3 min 4 s`. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return EMPTY;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Uptime as `2 d 3 h`, `3 h 4 min`, `5 min`. */
export function formatUptime(ms: number): string {
  const min = Math.floor(ms / 60_000);
  // Short: it is a stat card's big number, and a phrase wraps onto 2-3 lines there.
  if (min < 1) return "< 1 min";
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

export function formatNumber(n: number): string {
  return numFmt.format(n);
}

export function formatCompact(n: number): string {
  return compactFmt.format(n);
}

/** Status class for colouring: ok (<400), warn (4xx), danger (5xx or 0). */
export function statusTone(status: number): "ok" | "warn" | "danger" {
  if (status > 0 && status < 400) return "ok";
  if (status >= 400 && status < 500) return "warn";
  return "danger";
}
