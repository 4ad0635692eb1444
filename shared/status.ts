// Zod schema of Patchbay's runtime status: what the tray, the Overview page and `GET /admin/api/status` show.
import { z } from "zod";
import { LimitsGlance } from "./limits";

/** State of the supervised `opencode serve` child. `sleeping`: stopped on purpose after the keep-alive period without
 *  a model request (issue 26); the next request, model list or dashboard visit starts it again. */
export const OpenCodeState = z.enum(["stopped", "starting", "ready", "restarting", "failed", "sleeping"]);
export type OpenCodeState = z.infer<typeof OpenCodeState>;

export const OpenCodeStatus = z.object({
  state: OpenCodeState,
  /** Human-readable reason for `failed` / `restarting`, else null. */
  reason: z.string().nullable(),
  version: z.string().nullable(),
  /** Loopback URL of the child (no credentials), null when not running. */
  url: z.string().nullable(),
  pid: z.number().int().nullable(),
  restarts: z.number().int(),
  /** While `failed`: when the next start is tried by itself (epoch ms; backoff 5 s doubling to 5 min), else null.
   *  Absent from older servers. */
  nextRetryAt: z.number().nullable().optional(),
});
export type OpenCodeStatus = z.infer<typeof OpenCodeStatus>;

/** A planned restart of OpenCode (memory limit or long idle). */
export const RecycleInfo = z.object({
  /** When it finished, epoch ms. */
  at: z.number(),
  /** Why, e.g. "memory 1210 MB over the 1024 MB limit". */
  reason: z.string(),
  /** How long new requests were held (drain + restart), ms. */
  pauseMs: z.number(),
});
export type RecycleInfo = z.infer<typeof RecycleInfo>;

/** Memory and instances of the runtime (issue 15). Sizes in bytes. */
export const RuntimeStatus = z.object({
  /** Patchbay's own RSS. */
  patchbayRssBytes: z.number().nullable(),
  /** OpenCode's RSS at the last check, null when unknown (not running, or not measurable on this OS). */
  opencodeRssBytes: z.number().nullable(),
  /** OpenCode's memory limit in effect (0 = recycling off). */
  memoryLimitBytes: z.number(),
  /** Live OpenCode instances (tool-set directories). */
  liveInstances: z.number().int(),
  /** Planned restarts since Patchbay started. */
  recycles: z.number().int(),
  lastRecycle: RecycleInfo.nullable(),
  /** OpenCode keep-alive (issue 26): the period without a model request after which OpenCode sleeps (ms; null =
   *  forever), when it will sleep if nothing comes (epoch ms; null when it will not, e.g. busy or asleep), and how
   *  often it slept. Absent from older servers. */
  keepAlive: z
    .object({ ms: z.number().nullable(), sleepsAt: z.number().nullable(), sleeps: z.number().int() })
    .optional(),
});
export type RuntimeStatus = z.infer<typeof RuntimeStatus>;

export const ApiStatus = z.object({
  running: z.boolean(),
  host: z.string(),
  port: z.number().int(),
  /** `http://host:port/v1` when running, else null. */
  baseUrl: z.string().nullable(),
  /** Why the listener is not running (e.g. "port 4747 is in use"), else null. */
  error: z.string().nullable(),
  lanExposure: z.boolean(),
  /** Host/port were fixed for this run by the command line (`serve --host/--port`); saved settings apply next launch. */
  pinned: z.boolean().default(false),
  /** The port was picked free for this run (`serve --port 0`, or port 0 in Settings): the next start gets another. */
  portPicked: z.boolean().default(false),
});
export type ApiStatus = z.infer<typeof ApiStatus>;

/** Which search backend serves web search now, and where that choice came from: the command line (`serve
 *  --search-url`), the environment (PATCHBAY_SEARCH_URL) or Settings. `url` null: none configured. */
export const SearchStatus = z.object({
  url: z.string().nullable(),
  from: z.enum(["--search-url", "PATCHBAY_SEARCH_URL", "settings"]),
});
export type SearchStatus = z.infer<typeof SearchStatus>;

export const PatchbayStatus = z.object({
  version: z.string(),
  startedAt: z.number().int(),
  uptimeMs: z.number(),
  api: ApiStatus,
  opencode: OpenCodeStatus,
  /** Memory, live instances and recycles (absent from older servers). */
  runtime: RuntimeStatus.optional(),
  dataDir: z.string(),
  /** How to run this Patchbay's CLI on its machine, its data folder included (`patchbay`, `node /x/bin/patchbay.mjs
   *  --data-dir '/y'`): the dashboard's hints put their command after it. Absent from older servers. */
  cli: z.string().optional(),
  demo: z.boolean(),
  /** Notices the UI should show (e.g. a corrupt settings file was set aside). */
  notices: z.array(z.string()),
  totals: z.object({
    requests: z.number().int(),
    errors: z.number().int(),
    requestsToday: z.number().int(),
    errorsToday: z.number().int(),
  }),
  apps: z.array(z.object({ name: z.string() })),
  /** Models the connected providers offer (the demo model included), counted each time OpenCode becomes ready;
   *  null while unknown (OpenCode not ready yet). 0 means nothing can be served: see {@link NO_MODELS}. Absent from
   *  older servers. */
  modelCount: z.number().int().nullable().optional(),
  /** Provider models rate-limited now and the tightest budget of the apps in use (absent from older servers). */
  limits: LimitsGlance.optional(),
  /** The search backend in use (absent from older servers). */
  search: SearchStatus.optional(),
});
export type PatchbayStatus = z.infer<typeof PatchbayStatus>;

/** What every surface says when there are no models (issue 16 item 12): the serve output, the Overview, the Connect
 *  page and `patchbay models`. OpenCode reads logins when it starts, so a login needs a restart of Patchbay. */
export const NO_MODELS = {
  /** The login command for an installed OpenCode. */
  loginCommand: "opencode auth login",
  /** The same with the OpenCode that Patchbay ships (run in the Patchbay folder). */
  bundledLoginCommand: "npx --no-install opencode auth login",
  /** One plain-text paragraph for terminals. */
  text:
    "No models are available: no provider is logged in. Log in with `opencode auth login` (or `npx --no-install opencode auth login` " +
    "in the Patchbay folder), then restart Patchbay (OpenCode reads logins when it starts). To try Patchbay without " +
    "a login, start it with `--demo`.",
} as const;
