// What follows a change to the apps, whoever made it (dashboard, admin API, the CLI in another process): a deleted
// app's runs end and its data goes (app-retirement.ts; here: its history sweeps, pooled sessions and request
// records); a new app's OpenCode instance boots at once, so its first request does not pay for it.
import { appDataKey, type App } from "../../shared/apps";
import { watchAppRetirement, type AppRetirementDeps } from "../app-retirement";
import type { RequestIndex } from "../conversations/request-index";
import type { AppsStore } from "../stores/types";

/** What {@link watchApps} needs. */
export interface AppWatchDeps extends Omit<AppRetirementDeps, "onDeleted" | "apps"> {
  apps: Pick<AppsStore, "list" | "get" | "onChange">;
  /** The OpenCode backend: boots an app's instance, drops a deleted app's pooled sessions (by data key). */
  backend: { bootApp(dataKey: string): Promise<void>; forgetApp(dataKey: string): Promise<void> };
  /** True while OpenCode can take a boot (a sleeping or starting one boots apps itself when ready). */
  openCodeReady: () => boolean;
  /** The history sweeper: forgets a deleted app's pacing. */
  sweeper: { forget(app: string): void };
  requestIndex: Pick<RequestIndex, "drop">;
  /** Called after every apps change (status listeners). */
  changed: () => void;
}

/** Starts watching; `stop()` ends the retirement timer. */
export function watchApps(d: AppWatchDeps): { stop(): void } {
  const retirement = watchAppRetirement({
    ...d,
    onDeleted: (app: App) => {
      d.sweeper.forget(app.name);
      // Its pre-created sessions too (empty, but nobody could ever use them).
      void d.backend.forgetApp(appDataKey(app));
      // A new app of the same name must not see the old one's conversations.
      void d.requestIndex
        .drop(app.name)
        .catch((err: unknown) => d.log(`could not remove request records: ${String(err)}`));
    },
  });
  let knownApps = new Set(d.apps.list().map((a) => a.id));
  d.apps.onChange(() => {
    const current = d.apps.list();
    for (const app of current)
      if (!knownApps.has(app.id) && d.openCodeReady())
        void d.backend
          .bootApp(appDataKey(app))
          .catch((err: unknown) => d.log(`pre-warming app ${app.name} failed: ${String(err)}`));
    knownApps = new Set(current.map((a) => a.id));
    d.changed();
  });
  return { stop: () => retirement.stop() };
}
