// One service call per JSON row of the admin endpoint table (STYLE §4: parse → service → encode happens in mount.ts).
// Policy that spans stores lives here (e.g. deleting an app revokes its keys); no HTTP details.
import type { AdminStatus, JsonEndpointName } from "../../../../shared/admin-api";
import type { App } from "../../../../shared/apps";
import type { ModelInfo } from "../../../core/contract";
import { PatchbayError } from "../../../core/errors";
import { aliasTargetAvailable } from "../../../core/model-resolver";
import type { AdminServices } from "../services";
import { deleteAppWithSessions } from "./app-delete";
import { groupCatalog } from "./catalog";
import type { Handler } from "./handler";
import { connectHandlers } from "./connect-handlers";
import { conversationHandlers } from "./conversation-handlers";
import { doctorHandlers } from "./doctor-handlers";
import { historyHandlers } from "./history-handlers";
import { sessionHandlers } from "./session-handlers";
import { storedResponseHandlers } from "./stored-responses-handlers";
import { checkRoutingModels } from "./routing-check";

/** Status as the admin API shows it. */
export function adminStatus(s: AdminServices): AdminStatus {
  return { ...s.status(), desktop: s.desktop !== undefined, logError: s.requestLog.lastError() };
}

/** The app or 404 `app_not_found`. */
function requireApp(s: AdminServices, name: string): App {
  const app = s.apps.get(name);
  if (!app) throw new PatchbayError("app_not_found", `There is no app named '${name}'.`, { param: "name" });
  return app;
}

/** DesktopHost or 404 (the mount checks `desktopOnly` first; this narrows the type). */
function requireDesktop(s: AdminServices) {
  if (!s.desktop)
    throw new PatchbayError("not_found", "Desktop actions are only available in the Patchbay desktop app.");
  return s.desktop;
}

export const handlers: { [K in JsonEndpointName]: Handler<K> } = {
  getStatus: (_i, s) => adminStatus(s),
  startApi: async (_i, s) => {
    await s.startApi();
    return adminStatus(s);
  },
  stopApi: async (_i, s) => {
    await s.stopApi();
    return adminStatus(s);
  },
  restartOpenCode: (_i, s) => {
    if (!s.restartOpenCode) throw new PatchbayError("not_found", "This Patchbay cannot restart OpenCode.");
    s.restartOpenCode();
    return adminStatus(s);
  },

  listApps: (_i, s) => ({ apps: s.apps.list().map((a) => ({ ...a, keyCount: s.keys.list(a.name).length })) }),
  createApp: async ({ body }, s) => {
    const { name, ...init } = body;
    const warnings = await checkRoutingModels(body, undefined, s);
    const app = await s.apps.create(name, init);
    return warnings.length ? { ...app, warnings } : app;
  },
  getApp: ({ params }, s) => requireApp(s, params.name),
  updateApp: async ({ params, body }, s) => {
    const previous = requireApp(s, params.name);
    const warnings = await checkRoutingModels(body, previous, s);
    const app = await s.apps.update(params.name, body);
    if (body.aliases !== undefined) warnings.push(...(await unavailableAliasWarnings(app, s)));
    return warnings.length ? { ...app, warnings } : app;
  },
  deleteApp: ({ params, query }, s) => deleteAppWithSessions(s, requireApp(s, params.name), query.sessions !== "keep"),

  listKeys: ({ params }, s) => {
    requireApp(s, params.name);
    return { keys: s.keys.list(params.name) };
  },
  createKey: ({ params, body }, s) => {
    requireApp(s, params.name);
    return s.keys.create(params.name, body.label || undefined);
  },
  revokeKey: async ({ params }, s) => {
    requireApp(s, params.name);
    await s.keys.revoke(params.name, params.prefix);
    return { ok: true as const };
  },

  getUsage: ({ params, query }, s) => {
    const app = requireApp(s, params.name);
    return {
      app: params.name,
      days: s.requestLog.usage(app, query.days ?? 30),
      budgets: s.budgetStatuses?.(app) ?? [],
    };
  },

  ...historyHandlers,
  ...conversationHandlers,
  ...connectHandlers,
  ...doctorHandlers,
  ...storedResponseHandlers,
  ...sessionHandlers,

  getModels: async (_i, s) => groupCatalog(await s.listModels()),

  getSettings: (_i, s) => s.settings.get(),
  updateSettings: ({ body }, s) => s.settings.update(body),

  queryLogs: ({ query }, s) => s.requestLog.query(query, (name) => s.apps.get(name)),

  getDesktop: async (_i, s) => ({
    launchAtLogin: await requireDesktop(s).getLaunchAtLogin(),
    dataDir: s.status().dataDir,
  }),
  openDataFolder: async (_i, s) => {
    await requireDesktop(s).openDataFolder();
    return { ok: true as const };
  },
  setLaunchAtLogin: async ({ body }, s) => {
    const desktop = requireDesktop(s);
    await desktop.setLaunchAtLogin(body.enabled);
    await s.settings.update({ launchAtLogin: body.enabled });
    return { launchAtLogin: await desktop.getLaunchAtLogin(), dataDir: s.status().dataDir };
  },
};

/** One warning per alias whose target no connected provider offers, saying where its requests go meanwhile (its
 *  fallbacks, or nowhere); none when the catalog cannot be read now. */
async function unavailableAliasWarnings(app: App, s: AdminServices): Promise<string[]> {
  let catalog: ModelInfo[];
  try {
    catalog = await s.listModels();
  } catch {
    return [];
  }
  return Object.entries(app.aliases)
    .filter(([, target]) => !aliasTargetAvailable(target, catalog))
    .map(
      ([alias, target]) =>
        `Alias "${alias}" points to ${target}, which no connected provider offers; ${meanwhile(app, alias, catalog)}`,
    );
}

/** Where an alias's requests go while its target is unavailable: its first available fallback, else nowhere. */
function meanwhile(app: App, alias: string, catalog: ModelInfo[]): string {
  const fallbacks = Object.hasOwn(app.fallbacks, alias) ? (app.fallbacks[alias] ?? []) : [];
  const serving = fallbacks.find((m) => aliasTargetAvailable(m, catalog));
  return serving
    ? `it is saved, and until that model is available its requests go to its fallback ${serving}.`
    : "it is saved, but until that model is available its requests are refused and /v1/models leaves it out.";
}
