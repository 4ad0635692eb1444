// Zod schemas and types for apps: one client program each, with its allowlist, aliases and limits.
// Shared by the server stores, the admin API and the renderer. No Node, no DOM.
import { z } from "zod";
import { BudgetList, FallbackMap, RouteMap } from "./routing";

/** App names: lowercase letters, digits and `-`, 1–40 chars, starting with a letter or digit. */
export const AppName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "App names use lowercase letters, digits and '-' (max 40 characters)");

/**
 * Allowlist pattern language (README, "Model allowlists"): `provider/model` (exact), `provider/prefix*` (every model
 * of the provider whose id starts with `prefix`), `provider/*` (every model of the provider), `*` (every model).
 * A `*` anywhere but at the end is refused when set ({@link ModelPatternInput}); stored lists are read leniently.
 */
export const ModelPattern = z
  .string()
  .regex(
    /^(\*|[A-Za-z0-9._-]+\/[^\s]+)$/,
    "Use provider/model, provider/prefix*, provider/* or * (e.g. openai/gpt-5, openai/gpt*, openai/*)",
  );

/** Control characters (C0, DEL, C1): never part of a model id; in a terminal they are escape sequences. */
const CONTROL = /\p{Cc}/u;
const NO_CONTROL = "Control characters are not allowed in a model id";

/** A pattern as a user sets it: {@link ModelPattern} with `*` only as the last character and no control character. */
export const ModelPatternInput = ModelPattern.refine(
  (p) => !p.slice(0, -1).includes("*"),
  "Only a trailing * is supported: provider/prefix*, provider/* or * alone (e.g. openai/gpt*)",
).refine((p) => !CONTROL.test(p), NO_CONTROL);

/** Alias target: `provider/model` with an optional `#variant` (an OpenCode model variant such as `high`). */
export const AliasTarget = z
  .string()
  .regex(/^[A-Za-z0-9._-]+\/[^\s#]+(#[A-Za-z0-9._-]+)?$/, "Use provider/model or provider/model#variant");

/** Names an alias map cannot hold safely as a plain JavaScript object key. */
export const RESERVED_ALIAS_NAMES: readonly string[] = ["__proto__", "constructor", "prototype"];

function reservedAliasMessage(name: string): string {
  return `The alias name "${name}" is reserved (as are ${RESERVED_ALIAS_NAMES.filter((n) => n !== name)
    .map((n) => `"${n}"`)
    .join(" and ")}); choose another name`;
}

/** Alias name as a client sends it in `model`; must not contain `/` so it never shadows a real id, and must not be
 *  one of {@link RESERVED_ALIAS_NAMES}. */
export const AliasName = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,80}$/, "Alias names are 1–80 characters: letters, digits, '.', '_', ':' and '-'")
  .superRefine((name, ctx) => {
    if (RESERVED_ALIAS_NAMES.includes(name)) ctx.addIssue({ code: "custom", message: reservedAliasMessage(name) });
  });

/**
 * An app's aliases: alias name → target. Reserved names are refused on the raw input, before the record is parsed:
 * zod drops a `__proto__` key silently and reports other bad keys only as "Invalid key in record".
 */
export const AliasMap = z.preprocess(
  (value, ctx) => {
    if (typeof value === "object" && value !== null) {
      for (const name of RESERVED_ALIAS_NAMES) {
        if (Object.hasOwn(value, name))
          ctx.issues.push({ code: "custom", message: reservedAliasMessage(name), path: [name], input: value });
      }
      // zod reports any other bad key only as "Invalid key in record": say the rule (and keep the path short).
      for (const name of Object.keys(value)) {
        if (RESERVED_ALIAS_NAMES.includes(name)) continue;
        const bad = AliasName.safeParse(name);
        if (!bad.success)
          ctx.issues.push({
            code: "custom",
            message: bad.error.issues[0]?.message ?? "Invalid alias name",
            path: [name.length > 80 ? `${name.slice(0, 80)}…` : name],
            input: value,
          });
      }
    }
    return value;
  },
  z.record(AliasName, AliasTarget),
);

/** Per-app request limits, without defaults (the base of both the stored shape and the patch shape: zod 4 applies
 *  `.default()` even inside `.partial()`, which would reset fields a patch did not name). Times in ms, sizes in bytes. */
export const AppLimitsFields = z.object({
  /** Max simultaneous requests; over it the API answers 429 with Retry-After. */
  concurrency: z.number().int().min(1).max(64),
  /** Max tools a request may declare. */
  maxTools: z.number().int().min(0).max(512),
  /** Deadline until the first token (ms). */
  firstTokenTimeoutMs: z.number().int().min(1000).max(3_600_000),
  /** Deadline for the whole request (ms); at least 10 minutes by default for long reasoning. */
  totalTimeoutMs: z.number().int().min(1000).max(7_200_000),
  /** Max request body (bytes). */
  maxBodyBytes: z
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024),
  /** Fetch http(s) image URLs (SSRF-guarded); data URLs always work. */
  remoteImages: z.boolean(),
  /** Browser origins allowed by CORS (exact origins, or `*`). Empty: no CORS headers. */
  corsOrigins: z.array(z.string().min(1).max(200)).max(50),
});

/** Default per-app limits. */
export const DEFAULT_APP_LIMITS: z.infer<typeof AppLimitsFields> = {
  concurrency: 4,
  maxTools: 128,
  firstTokenTimeoutMs: 600_000,
  totalTimeoutMs: 1_800_000,
  maxBodyBytes: 32 * 1024 * 1024,
  remoteImages: false,
  corsOrigins: [],
};

/** Per-app request limits as stored (missing fields take {@link DEFAULT_APP_LIMITS}). Enforced by the request runner. */
export const AppLimits = AppLimitsFields.partial().transform((v) => ({ ...DEFAULT_APP_LIMITS, ...stripUndefined(v) }));
export type AppLimits = z.infer<typeof AppLimitsFields>;

export const HistoryLimitsFields = z.object({
  maxSessions: z.number().int().min(1).max(1_000_000).nullable(),
  maxAgeDays: z.number().int().min(1).max(36_500).nullable(),
});

/** History limits; unset (null) means keep forever, the default. With both, the stricter wins. */
export const HistoryLimits = HistoryLimitsFields.partial().transform((v) => ({
  maxSessions: null,
  maxAgeDays: null,
  ...stripUndefined(v),
}));
export type HistoryLimits = z.infer<typeof HistoryLimitsFields>;

function stripUndefined<T extends object>(v: T): Partial<T> {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as Partial<T>;
}

/** An app's data key: its name, optionally with `_` and 12 hex digits (see App.dataKey). */
export const AppDataKey = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}(_[0-9a-f]{12})?$/, "Invalid data key");

/** One app as stored and as returned by the admin API. */
export const App = z.object({
  id: z.string().min(1),
  name: AppName,
  createdAt: z.number().int(),
  /** Empty list: every model is allowed. */
  models: z.array(ModelPattern).default([]),
  aliases: AliasMap.default({}),
  limits: AppLimits.default(DEFAULT_APP_LIMITS),
  history: HistoryLimits.default({ maxSessions: null, maxAgeDays: null }),
  /** Keep Responses API responses for `previous_response_id`, `item_reference` and GET /v1/responses/{id} (default
   *  on). Off: every request is treated as `store: false`, and the response says so. */
  storeResponses: z.boolean().default(true),
  /** Request role → alias or model (shared/routing.ts); roles without an entry keep the model asked for. */
  routes: RouteMap.default({}),
  /** Alias → models tried in order when the alias's target refuses before its first byte. */
  fallbacks: FallbackMap.default({}),
  /** Rolling request/token budgets; over one, requests are refused with 429 until it resets. */
  budgets: BudgetList.default([]),
  /** Folder name of this app's data (OpenCode sessions, stored responses): `<name>_<12 hex of id>`, so a later app of
   *  the same name never sees a deleted one's data. Absent on apps made before it existed: their data is under the
   *  bare name, which no newer app uses (names cannot contain `_`). See {@link appDataKey}. */
  dataKey: AppDataKey.optional(),
  /** Run the web search / web fetch server tools clients offer (Claude Code's WebSearch/WebFetch, Codex's
   *  web_search) with Patchbay's search backend (default on: the backend is the user's own SearXNG). Off: the client
   *  gets its wire's native "unavailable" result. */
  webSearch: z.boolean().default(true),
});
export type App = z.infer<typeof App>;

/** Where an app's data lives (see App.dataKey): its own key, else (apps made before keys existed) its name. */
export function appDataKey(app: Pick<App, "name" | "dataKey">): string {
  return app.dataKey ?? app.name;
}

/** The data key a new app gets: its name plus the first 12 hex digits of its id. */
export function newAppDataKey(name: string, id: string): string {
  const hex = id.replace(/[^0-9a-f]/gi, "").toLowerCase();
  return `${name}_${hex.padEnd(12, "0").slice(0, 12)}`;
}

/** Fields a user may change on an app. */
export const AppPatch = z
  .object({
    models: z.array(ModelPatternInput).max(200),
    aliases: AliasMap,
    limits: AppLimitsFields.partial(),
    history: HistoryLimitsFields.partial(),
    storeResponses: z.boolean(),
    routes: RouteMap,
    fallbacks: FallbackMap,
    budgets: BudgetList,
    webSearch: z.boolean(),
  })
  .partial()
  // Stored records are read leniently (one odd value must not make apps.json unreadable); what a user sets now is
  // held to the stricter rule: no control character in an alias, route or fallback target.
  .superRefine((patch, ctx) => {
    const check = (value: string, path: (string | number)[]) => {
      if (CONTROL.test(value)) ctx.addIssue({ code: "custom", message: NO_CONTROL, path });
    };
    for (const [alias, target] of Object.entries(patch.aliases ?? {})) check(target, ["aliases", alias]);
    for (const [role, target] of Object.entries(patch.routes ?? {})) if (target) check(target, ["routes", role]);
    for (const [alias, list] of Object.entries(patch.fallbacks ?? {}))
      list.forEach((target, i) => check(target, ["fallbacks", alias, i]));
  });
export type AppPatch = z.infer<typeof AppPatch>;

/** True when `modelId` (`provider/model`) matches one pattern of {@link ModelPattern}'s language. */
export function matchesModelPattern(pattern: string, modelId: string): boolean {
  if (pattern === "*" || pattern === modelId) return true;
  // `provider/prefix*` and `provider/*`: a prefix that includes the provider's slash, so `open*` never matches.
  if (!pattern.endsWith("*") || !pattern.includes("/")) return false;
  return modelId.startsWith(pattern.slice(0, -1));
}

/** Returns true when `modelId` (`provider/model`) matches an allowlist; an empty list allows all. */
export function isModelAllowed(patterns: readonly string[], modelId: string): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((p) => matchesModelPattern(p, modelId));
}
