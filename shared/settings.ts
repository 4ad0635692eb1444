// Zod schema for Patchbay's global settings.
import { z } from "zod";

export const DEFAULT_PORT = 4747;
export const DEFAULT_HOST = "127.0.0.1";

/** Global settings as stored in settings.json and edited in the dashboard. */
export const Settings = z.object({
  /** Host the OpenAI listener binds when LAN exposure is off. */
  host: z.string().min(1).default(DEFAULT_HOST),
  port: z.number().int().min(0).max(65535).default(DEFAULT_PORT),
  /** Bind 0.0.0.0 and require a key on every route (including /healthz). */
  lanExposure: z.boolean().default(false),
  /** Keep request and response bodies in the request log. */
  logBodies: z.boolean().default(false),
  /** Start the OpenAI listener when Patchbay launches. */
  startOnLaunch: z.boolean().default(true),
  /** Desktop only: launch at login, hidden in the tray. */
  launchAtLogin: z.boolean().default(false),
});
export type Settings = z.infer<typeof Settings>;
/** A settings change: only the named fields (no defaults, so unnamed fields are never reset). */
export const SettingsPatch = z
  .object({
    host: z.string().min(1),
    port: z.number().int().min(0).max(65535),
    lanExposure: z.boolean(),
    logBodies: z.boolean(),
    startOnLaunch: z.boolean(),
    launchAtLogin: z.boolean(),
  })
  .partial();
export type SettingsPatch = z.infer<typeof SettingsPatch>;
