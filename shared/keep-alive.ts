// OpenCode keep-alive (issue 26): how long OpenCode stays up after the last model request before Patchbay stops it
// ("sleeping") until the next one. One grammar for Settings, `serve --opencode-keep-alive` and
// PATCHBAY_OPENCODE_KEEP_ALIVE, shared with the dashboard's form.
import { z } from "zod";

/**
 * The default: 10 minutes. A coding agent's turns come seconds to a few minutes apart while someone works (reading,
 * thinking, editing between prompts), so 10 min keeps a working session warm; a lunch break, a meeting or the night
 * is longer, and that is where a sleeping OpenCode saves its 0.3–0.6 GB. Ollama unloads after 5 min; a wake costs one
 * OpenCode start (1–3 s, `npm run bench -- --idle`), mostly hidden by the early wake on a client's first probe.
 */
export const DEFAULT_KEEP_ALIVE = "10m";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** Longest finite keep-alive: 30 days (beyond that, say `forever`). */
const MAX_MS = 30 * UNIT_MS.d;

/** What is wrong with a keep-alive value, for CLI errors and the Settings form. */
export const KEEP_ALIVE_HELP =
  "Use a duration such as 90s, 10m or 2h (units ms, s, m, h, d; a bare number is seconds), 0 to stop OpenCode as soon as it is idle, or forever to keep it running.";

/**
 * Parses a keep-alive: `forever` → null (never sleep), `0` → 0 (sleep as soon as nothing uses OpenCode), `90s`,
 * `10m`, `1.5h`, `2d`, `500ms`, a bare number = seconds. Case and surrounding spaces are ignored. Returns undefined
 * for anything else (negative, unknown unit, over 30 days, empty).
 */
export function parseKeepAlive(text: string): number | null | undefined {
  const t = text.trim().toLowerCase();
  if (t === "forever" || t === "never") return null;
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(t);
  if (!m) return undefined;
  const ms = Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? "s") as keyof typeof UNIT_MS]);
  return Number.isFinite(ms) && ms <= MAX_MS ? ms : undefined;
}

/** A keep-alive as stored in settings.json and sent by the dashboard: the text the user typed, checked. */
export const KeepAliveText = z
  .string()
  .max(40)
  .refine((v) => parseKeepAlive(v) !== undefined, `Invalid OpenCode keep-alive. ${KEEP_ALIVE_HELP}`);

/** A keep-alive for people: "forever", "at once", "10 min", "90 s", "2 h". */
export function describeKeepAlive(ms: number | null): string {
  if (ms === null) return "forever";
  if (ms === 0) return "at once";
  if (ms % UNIT_MS.h === 0) return `${ms / UNIT_MS.h} h`;
  if (ms % UNIT_MS.m === 0) return `${ms / UNIT_MS.m} min`;
  if (ms % UNIT_MS.s === 0) return `${ms / UNIT_MS.s} s`;
  return `${ms} ms`;
}
