// Zod schema for Patchbay's global settings.
import { z } from "zod";
import { DEFAULT_KEEP_ALIVE, KeepAliveText } from "./keep-alive";

export const DEFAULT_PORT = 4747;
export const DEFAULT_HOST = "127.0.0.1";

/** Why a host is refused: the OpenAI listener binds loopback only unless LAN exposure (which requires keys) is on. */
export const LOOPBACK_HOST_MESSAGE =
  "The OpenAI API host must be a loopback address (127.0.0.1, another 127.x.x.x, localhost or ::1). " +
  "To serve other machines, turn on LAN exposure instead (it listens on all interfaces and requires a key on every request).";

/** True for a host the OpenAI listener may bind without LAN exposure: `localhost`, `::1` or an IPv4 in 127.0.0.0/8. */
export function isLoopbackBindHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "localhost" || h === "::1") return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return octets !== null && octets.slice(1).every((o) => Number(o) <= 255);
}

/** The OpenAI listener's host when LAN exposure is off; see {@link isLoopbackBindHost}. */
export const LoopbackHost = z.string().refine(isLoopbackBindHost, LOOPBACK_HOST_MESSAGE);

/** OpenCode memory limit in MiB (0 = off). Small values are allowed on purpose (tests and soaks force recycles). */
export const OpenCodeMemoryLimitMB = z
  .number()
  .int()
  .min(0)
  .max(1024 * 1024);

/** A search endpoint's base URL: http(s), no credentials. */
export const SearchUrl = z
  .string()
  .max(2000)
  .refine(
    (v) => /^https?:\/\/[^/@\s?#]+(\/[^\s]*)?$/i.test(v),
    "The search URL must be an http(s) URL without credentials, e.g. http://127.0.0.1:8888",
  );

/** Global settings as stored in settings.json and edited in the dashboard. */
export const Settings = z.object({
  /** Host the OpenAI listener binds when LAN exposure is off: loopback only (LAN exposure is the way to listen wider). */
  host: LoopbackHost.default(DEFAULT_HOST),
  port: z.number().int().min(0).max(65535).default(DEFAULT_PORT),
  /** Bind 0.0.0.0 and require a key on every route (including /healthz). */
  lanExposure: z.boolean().default(false),
  /** Keep request and response bodies in the request log. */
  logBodies: z.boolean().default(false),
  /** Start the OpenAI listener when Patchbay launches. */
  startOnLaunch: z.boolean().default(true),
  /** Desktop only: launch at login, hidden in the tray. */
  launchAtLogin: z.boolean().default(false),
  /** OpenCode's memory limit in MiB: over it, OpenCode is restarted between requests. null = automatic
   *  (total RAM / 16, between 1 and 2 GiB), 0 = never recycle for memory. */
  opencodeMemoryLimitMB: OpenCodeMemoryLimitMB.nullable().default(null),
  /** The SearXNG-compatible search endpoint (`GET <url>/search?q=…&format=json`) that serves the web search server
   *  tools; null = none (searches get the wire's "unavailable" result). `--search-url`/PATCHBAY_SEARCH_URL win. */
  searchUrl: SearchUrl.nullable().default(null),
  /** OpenCode keep-alive: after this long without a model request OpenCode is stopped ("sleeping") and started again
   *  on demand (shared/keep-alive.ts: `10m`, `90s`, `0` = at once, `forever` = never). `--opencode-keep-alive` and
   *  PATCHBAY_OPENCODE_KEEP_ALIVE win. */
  opencodeKeepAlive: KeepAliveText.default(DEFAULT_KEEP_ALIVE),
});
export type Settings = z.infer<typeof Settings>;
/** A settings change: only the named fields (no defaults, so unnamed fields are never reset). */
export const SettingsPatch = z
  .object({
    host: LoopbackHost,
    port: z.number().int().min(0).max(65535),
    lanExposure: z.boolean(),
    logBodies: z.boolean(),
    startOnLaunch: z.boolean(),
    launchAtLogin: z.boolean(),
    opencodeMemoryLimitMB: OpenCodeMemoryLimitMB.nullable(),
    searchUrl: SearchUrl.nullable(),
    opencodeKeepAlive: KeepAliveText,
  })
  .partial();
export type SettingsPatch = z.infer<typeof SettingsPatch>;
