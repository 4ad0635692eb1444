// Zod schemas of the admin API's inputs and outputs that are not plain shared records (apps, keys, settings, log
// entries, status). Used by the endpoint table in shared/admin-api.ts. No Node, no DOM.
import { BudgetList, BudgetStatus, FallbackMap, RouteMap } from "../routing";
import { z } from "zod";
import { AliasMap, App, AppLimitsFields, AppName, HistoryLimitsFields, ModelPatternInput } from "../apps";
import { KeyInfo } from "../keys";
import { RequestLogEntry } from "../log-entry";
import { Settings } from "../settings";
import { PatchbayStatus } from "../status";

/** Body of an action that returns nothing else. */
export const Ok = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof Ok>;

/** `GET /admin/api/status`: the runtime status plus what only the admin listener knows. */
export const AdminStatus = PatchbayStatus.extend({
  /** A DesktopHost is present: the UI shows native actions (open data folder, launch at login). */
  desktop: z.boolean(),
  /** Last request-log write error (e.g. disk full), else null. */
  logError: z.string().nullable(),
});
export type AdminStatus = z.infer<typeof AdminStatus>;

/** `:name` path parameter of per-app routes. */
export const AppParams = z.strictObject({ name: AppName });
/** `:name/:prefix` path parameters of per-key routes. */
export const KeyParams = z.strictObject({
  name: AppName,
  prefix: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, "Key prefixes use letters, digits, '_' and '-'"),
});

/** Limits patch: every field optional, no defaults filled in (a patch of one field must not reset the others). */
export const AppLimitsPatch = AppLimitsFields.strict().partial();

/** History-limits patch without defaults; `null` clears a limit (keep forever). */
export const HistoryLimitsPatch = HistoryLimitsFields.strict().partial();

/** Fields of an app a user may change (allowlist, aliases, limits, history limits). Aliases replace the whole map. */
export const AppUpdate = z
  .strictObject({
    models: z.array(ModelPatternInput).max(200),
    aliases: AliasMap.refine((a) => Object.keys(a).length <= 200, "At most 200 aliases per app"),
    limits: AppLimitsPatch,
    history: HistoryLimitsPatch,
    /** Keep Responses API responses (default on; see App.storeResponses). */
    storeResponses: z.boolean(),
    /** Run clients' web search / fetch server tools (default on; see App.webSearch). */
    webSearch: z.boolean(),
    /** Request role → alias or model; fallbacks per alias; rolling budgets (shared/routing.ts). */
    routes: RouteMap,
    fallbacks: FallbackMap,
    budgets: BudgetList,
  })
  .partial();
export type AppUpdate = z.infer<typeof AppUpdate>;

/** An app as a change returns it, with notes such as an alias whose target no connected provider offers. */
export const AppWithWarnings = App.extend({ warnings: z.array(z.string()).optional() });

/** `POST /admin/api/apps`: a name plus optional initial fields. */
export const AppCreate = AppUpdate.extend({ name: AppName });
export type AppCreate = z.infer<typeof AppCreate>;

/** An app as listed, with its number of live keys. */
export const AppSummary = App.extend({ keyCount: z.number().int().min(0) });
export type AppSummary = z.infer<typeof AppSummary>;

export const AppList = z.object({ apps: z.array(AppSummary) });
export const KeyList = z.object({ keys: z.array(KeyInfo) });
export const KeyCreate = z.strictObject({ label: z.string().trim().max(80).optional() });

/** One model of the catalog (mirrors `ModelInfo` in server/core/contract.ts). */
export const CatalogModel = z.object({
  /** `provider/model`. */
  id: z.string(),
  providerID: z.string(),
  modelID: z.string(),
  name: z.string(),
  providerName: z.string(),
  /** Selectable as `provider/model#variant` in aliases. */
  variants: z.array(z.string()),
  capabilities: z.object({
    toolCall: z.boolean(),
    attachment: z.boolean(),
    reasoning: z.boolean(),
    temperature: z.boolean(),
  }),
  /** Tokens. */
  limit: z.object({ context: z.number(), output: z.number() }),
  npm: z.string().nullable(),
  /** Epoch seconds, 0 when unknown. */
  created: z.number(),
});
export type CatalogModel = z.infer<typeof CatalogModel>;

/** `GET /admin/api/models`: connected providers, each with its models, sorted by name. */
export const ModelCatalog = z.object({
  providers: z.array(
    z.object({ id: z.string(), name: z.string(), npm: z.string().nullable(), models: z.array(CatalogModel) }),
  ),
});
export type ModelCatalog = z.infer<typeof ModelCatalog>;

/** Settings patch without defaults. `launchAtLogin` is changed through the desktop endpoint only. */
export const SettingsUpdate = z
  .strictObject({
    host: Settings.shape.host.unwrap(),
    port: Settings.shape.port.unwrap(),
    lanExposure: Settings.shape.lanExposure.unwrap(),
    logBodies: Settings.shape.logBodies.unwrap(),
    startOnLaunch: Settings.shape.startOnLaunch.unwrap(),
    opencodeMemoryLimitMB: Settings.shape.opencodeMemoryLimitMB.unwrap(),
    searchUrl: Settings.shape.searchUrl.unwrap(),
    opencodeKeepAlive: Settings.shape.opencodeKeepAlive.unwrap(),
  })
  .partial();
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

/** Status filter of the log query: an exact status or a class. */
export const LogStatusFilter = z
  .string()
  .regex(/^([1-5][0-9][0-9]|[1-5]xx|error)$/, "Use a status (e.g. 429), a class (2xx, 4xx, 5xx) or 'error'");

const epochMs = z.coerce.number().int().min(0);

/** `GET /admin/api/logs` query. Times are epoch ms; `cursor` comes from the previous page's `nextCursor`. */
export const LogQueryInput = z.strictObject({
  /** The app that carries this name now: its entries only (by its id), none of a deleted app of the same name. */
  app: z.string().min(1).max(40).optional(),
  status: LogStatusFilter.optional(),
  model: z.string().min(1).max(200).optional(),
  since: epochMs.optional(),
  until: epochMs.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().min(1).max(200).optional(),
});
export type LogQueryInput = z.infer<typeof LogQueryInput>;

export const LogPage = z.object({ entries: z.array(RequestLogEntry), nextCursor: z.string().nullable() });
export type LogPage = z.infer<typeof LogPage>;

/** Usage of one app on one local day (`YYYY-MM-DD`); tokens in OpenAI semantics. */
export const DailyUsage = z.object({
  day: z.string(),
  requests: z.number().int(),
  errors: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cachedTokens: z.number().int(),
  reasoningTokens: z.number().int(),
});
export type DailyUsage = z.infer<typeof DailyUsage>;

/** `DELETE /admin/api/apps/:name?sessions=keep`: leave the app's sessions in OpenCode's database (e.g. OpenCode
 *  cannot start); by default they are deleted with the app. */
export const AppDeleteQuery = z.strictObject({ sessions: z.enum(["delete", "keep"]).optional() });
/** What deleting an app removed: its sessions (`sessionsLeft`: still running or failed; absent when kept). */
export const AppDeleted = z.object({
  ok: z.literal(true),
  sessionsDeleted: z.number().int().optional(),
  sessionsLeft: z.number().int().optional(),
});
export type AppDeleted = z.infer<typeof AppDeleted>;

export const UsageQuery = z.strictObject({ days: z.coerce.number().int().min(1).max(366).optional() });
export const UsageReport = z.object({
  app: z.string(),
  days: z.array(DailyUsage),
  /** Where each budget of the app stands now (used/limit, reset time); empty without budgets. */
  budgets: z.array(BudgetStatus).default([]),
});
export type UsageReport = z.infer<typeof UsageReport>;

/** `GET /admin/api/desktop`: native state, only when a DesktopHost is present. */
export const DesktopState = z.object({ launchAtLogin: z.boolean(), dataDir: z.string() });
export type DesktopState = z.infer<typeof DesktopState>;
export const LaunchAtLoginInput = z.strictObject({ enabled: z.boolean() });

/** Live log stream query: replay size (0–500 recent entries; default 100). */
export const LogStreamQuery = z.strictObject({ replay: z.coerce.number().int().min(0).max(500).optional() });

/** Trades a one-time login nonce for a dashboard session token. */
export const SessionCreate = z.strictObject({ loginToken: z.string().min(1).max(200) });
export type SessionCreate = z.infer<typeof SessionCreate>;
/** A dashboard session: send `Authorization: Bearer <sessionToken>` on every admin request. */
export const SessionCreated = z.object({ sessionToken: z.string().min(1) });
export type SessionCreated = z.infer<typeof SessionCreated>;
/** A fresh one-time login URL. */
export const LoginLink = z.object({ url: z.string().url() });
export type LoginLink = z.infer<typeof LoginLink>;
