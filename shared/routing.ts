// Zod schemas of an app's request routing: routes by request role, fallback chains of aliases, and budgets.
// Shared by the server stores, the admin API, the CLI and the renderer. No Node, no DOM.
import { z } from "zod";

/**
 * Request roles a client can name. Claude Code (CLAUDE_CODE_GATEWAY_HINT_HEADERS=1) sends them as
 * `x-claude-code-request-class` (main, subagent, workflow, compaction, auxiliary, side_reply; its bundled cli,
 * constant list next to "x-claude-code-agent-type"); Codex sends `x-openai-subagent: review|compact`, read here as
 * `review` and `compaction`.
 */
export const REQUEST_ROLES = [
  "main",
  "subagent",
  "workflow",
  "compaction",
  "auxiliary",
  "side_reply",
  "review",
] as const;

/** One of {@link REQUEST_ROLES}. */
export const RequestRole = z.enum(REQUEST_ROLES, {
  error: (issue) => `Unknown role ${JSON.stringify(issue.input)}; use one of: ${REQUEST_ROLES.join(", ")}`,
});
export type RequestRole = z.infer<typeof RequestRole>;

/** Where a role goes: an alias of the app or `provider/model[#variant]`. */
export const RouteTarget = z
  .string()
  .regex(
    /^([A-Za-z0-9._:-]{1,80}|[A-Za-z0-9._-]+\/[^\s#]+(#[A-Za-z0-9._-]+)?)$/,
    "Use an alias of the app or provider/model[#variant]",
  );

/** zod's records skip a `__proto__` key without a word (JSON.parse makes it an own key); this names it instead. */
function refusingProtoKey<T extends z.ZodType>(schema: T, message: string) {
  return z.preprocess((value, ctx) => {
    if (typeof value === "object" && value !== null && Object.hasOwn(value, "__proto__"))
      ctx.issues.push({ code: "custom", message, path: ["__proto__"], input: value });
    return value;
  }, schema);
}

/** Role → target. A role without an entry keeps the model the client asked for. */
export const RouteMap = refusingProtoKey(
  z.partialRecord(RequestRole, RouteTarget),
  `Unknown role "__proto__"; use one of: ${REQUEST_ROLES.join(", ")}`,
);
export type RouteMap = z.infer<typeof RouteMap>;

/** One fallback of an alias: `provider/model[#variant]` (never another alias). */
export const FallbackTarget = z
  .string()
  .regex(/^[A-Za-z0-9._-]+\/[^\s#]+(#[A-Za-z0-9._-]+)?$/, "Use provider/model or provider/model#variant");

/** Most fallbacks one alias may have. */
export const MAX_FALLBACKS = 8;

/** Fallback targets of one alias, tried in order after the alias's own target (`provider/model[#variant]`). */
export const FallbackList = z.array(FallbackTarget).min(1).max(MAX_FALLBACKS);

/** Alias name → its fallbacks. Keys are checked against the app's aliases when saved. */
export const FallbackMap = refusingProtoKey(
  z.record(z.string().regex(/^[A-Za-z0-9._:-]{1,80}$/), FallbackList),
  'Invalid alias name "__proto__": fallbacks belong to an alias of the app',
);
export type FallbackMap = z.infer<typeof FallbackMap>;

/** Rolling budget windows: 5 hours, one day, one week. */
export const BUDGET_WINDOWS = { "5h": 5 * 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;
export type BudgetWindow = keyof typeof BUDGET_WINDOWS;

/** Largest budget limit (a trillion requests or tokens: more is no limit at all). */
export const MAX_BUDGET_LIMIT = 1_000_000_000_000;

/** One budget: at most `limit` requests (or tokens, input + output) per rolling `window`. */
export const Budget = z.object({
  metric: z.enum(["requests", "tokens"]),
  limit: z.number().int().min(1).max(MAX_BUDGET_LIMIT),
  window: z.enum(Object.keys(BUDGET_WINDOWS) as [BudgetWindow, ...BudgetWindow[]]),
});
export type Budget = z.infer<typeof Budget>;

/** An app's budgets: at most one per metric and window. */
export const BudgetList = z
  .array(Budget)
  .max(6)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const b of list) {
      const key = `${b.metric}/${b.window}`;
      if (seen.has(key)) ctx.addIssue({ code: "custom", message: `Two budgets for ${b.metric} per ${b.window}` });
      seen.add(key);
    }
  });

/**
 * Parses `N/<window>` (e.g. `500/5h`, `2000000/week`) for `metric`. Returns a budget or an error message naming the
 * accepted windows.
 */
export function parseBudgetSpec(metric: Budget["metric"], spec: string): Budget | { error: string } {
  const m = /^\s*(\d+)\s*\/\s*([A-Za-z0-9]+)\s*$/.exec(spec);
  const windows = Object.keys(BUDGET_WINDOWS).join(", ");
  if (!m)
    return { error: `Invalid ${metric} budget "${spec}": use N/<window> with a window of ${windows} (e.g. 500/5h).` };
  const window = m[2]!.toLowerCase();
  if (!Object.hasOwn(BUDGET_WINDOWS, window))
    return { error: `Invalid ${metric} budget "${spec}": unknown window "${m[2]}"; use ${windows}.` };
  const limit = Number(m[1]);
  if (limit < 1) return { error: `Invalid ${metric} budget "${spec}": the limit must be at least 1.` };
  if (limit > MAX_BUDGET_LIMIT)
    return {
      error: `Invalid ${metric} budget "${spec}": the limit may be at most ${MAX_BUDGET_LIMIT.toLocaleString("en")}.`,
    };
  return { metric, limit, window: window as BudgetWindow };
}

/** `500 requests per 5 hours`, `1 request per day`. */
export function describeBudget(b: Budget): string {
  const unit = b.limit === 1 ? b.metric.replace(/s$/, "") : b.metric;
  return `${b.limit} ${unit} per ${b.window === "5h" ? "5 hours" : b.window}`;
}

/** Where one budget stands now (admin API, CLI, dashboard). Times are epoch ms. */
export const BudgetStatus = Budget.extend({
  used: z.number(),
  /** When the oldest counted use leaves the window (the next time `used` drops); null when nothing is counted. */
  resetAt: z.number().nullable(),
  /** Spent: new requests are refused until `retryAt`. */
  spent: z.boolean(),
  retryAt: z.number().nullable(),
});
export type BudgetStatus = z.infer<typeof BudgetStatus>;
