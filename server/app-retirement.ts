// What happens when an app is deleted or a key revoked, whoever did it (dashboard, admin API, or the CLI in another
// process): the runs it started end at once, and the deleted app's stored responses go and can never come back
// (its data key is retired). A later app of the same name has another data key, so it never sees any of it. Its
// request log entries, usage and budget counts are filed by its id and simply stay (the log rotates them away): no
// later app has that id (the Logs page marks them "(deleted)").
import { appDataKey, type App } from "../shared/apps";
import type { RunRegistry, RunOwner } from "./http/model-run/run-registry";
import type { AppsStore, KeysStore } from "./stores/types";

/** What {@link watchAppRetirement} needs. */
export interface AppRetirementDeps {
  apps: Pick<AppsStore, "list" | "get" | "onChange">;
  keys: Pick<KeysStore, "list" | "onChange">;
  runs: RunRegistry;
  /** Removes a deleted app's stored responses by data key and refuses later writes for it. */
  responses: { removeApp(dataKey: string): Promise<void> };
  /** Told each deleted app (after its runs were ended). */
  onDeleted?: (app: App) => void;
  log: (line: string) => void;
  /** Re-check interval (ms, default 1000): a change another process made is seen even where file watching fails. */
  recheckMs?: number;
}

/** A running watch; `check()` runs one pass now (also used after a known change), `stop()` ends the timer. */
export interface AppRetirement {
  check(): void;
  stop(): void;
}

/** Starts watching apps and keys; see the file comment. */
export function watchAppRetirement(d: AppRetirementDeps): AppRetirement {
  let known = new Map(d.apps.list().map((a) => [a.name, a]));
  let checking = false;
  let again = false;

  const stillValid = (o: RunOwner): boolean =>
    d.apps.get(o.appName)?.id === o.appId && d.keys.list(o.appName).some((k) => k.prefix === o.keyPrefix);

  const pass = (): void => {
    const current = new Map(d.apps.list().map((a) => [a.name, a]));
    const gone = [...known.values()].filter((a) => current.get(a.name)?.id !== a.id);
    known = current;
    if (d.runs.size > 0) {
      const ended = d.runs.endInvalid(stillValid);
      if (ended > 0) d.log(`ended ${ended} running request(s) whose key was revoked or app deleted`);
    }
    for (const app of gone) {
      void d.responses
        .removeApp(appDataKey(app))
        .catch((err: unknown) => d.log(`could not remove the stored responses of app ${app.name}: ${String(err)}`));
      d.onDeleted?.(app);
    }
  };

  const check = (): void => {
    // Reading the stores may pick up a change from disk and call us again: finish this pass, then run one more.
    if (checking) {
      again = true;
      return;
    }
    checking = true;
    try {
      do {
        again = false;
        pass();
      } while (again);
    } finally {
      checking = false;
    }
  };

  const offApps = d.apps.onChange(check);
  const offKeys = d.keys.onChange?.(check) ?? (() => undefined);
  const timer = setInterval(check, d.recheckMs ?? 1000);
  timer.unref();
  return {
    check,
    stop() {
      clearInterval(timer);
      offApps();
      offKeys();
    },
  };
}
