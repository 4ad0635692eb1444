// An app's session history for a CLI command when no Patchbay serves the data folder: the command starts its own
// OpenCode on it for a few seconds (`sessions list|prune`, `app delete`).
import { appDataKey } from "../../shared/apps";
import type { HistoryService, HistoryServiceOptions } from "../history/history-service";
import type { CliContext } from "./context";

/** Max wait for the command's own OpenCode (ms). */
const OPENCODE_READY_MS = 60_000;

/**
 * Starts this command's own OpenCode on the data folder, gives `fn` a history service over it (no instance is live
 * there, so nothing boots per directory and nothing counts as running but what `extra` says), and always stops it.
 * Loaded on demand: the other commands should not pay for OpenCode and the history modules.
 */
export async function withHistory<R>(
  ctx: CliContext,
  extra: Pick<HistoryServiceOptions, "externalRunsWithinMs">,
  fn: (history: HistoryService) => Promise<R>,
  /** This app's folders by the data key given, whatever apps.json says by then (`app delete`: the app it looked up). */
  pinned?: { app: string; dataKey: string },
): Promise<R> {
  const [
    { HistoryService },
    { appDirectory },
    { SideChannel },
    { OpenCodeSupervisor },
    { defaultUserOpenCodePaths },
    { createAppsStore },
  ] = await Promise.all([
    import("../history/history-service"),
    import("../opencode/process/instance-pool"),
    import("../opencode/protocol/side-channel"),
    import("../opencode/process/supervisor"),
    import("../opencode-user-paths"),
    import("../stores/apps-store"),
  ]);
  const dataDir = ctx.dataDir();
  // Sessions are filed under each app's data key (a deleted app's sessions stay out of a later app of its name).
  const apps = await createAppsStore({ dataDir, watch: false, onInvalid: "keep" });
  const dataKeyOf = (name: string): string => {
    if (pinned?.app === name) return pinned.dataKey;
    const app = apps.get(name);
    return app ? appDataKey(app) : name;
  };
  const debug = ctx.io.env.PATCHBAY_DEBUG === "1";
  const sideChannel = new SideChannel();
  const supervisor = new OpenCodeSupervisor({
    dataDir,
    user: defaultUserOpenCodePaths(ctx.io.env as NodeJS.ProcessEnv),
    sideChannel,
    env: ctx.io.env as NodeJS.ProcessEnv,
    maxStartupFailures: 1,
    log: (line) => {
      if (debug) ctx.io.err(`${line}\n`);
    },
  });
  try {
    await supervisor.start();
    await supervisor.whenReady(OPENCODE_READY_MS);
    return await fn(
      new HistoryService({
        opencode: supervisor,
        appsDir: (app) => appDirectory(dataDir, dataKeyOf(app)),
        liveDirectories: () => [],
        ...extra,
      }),
    );
  } finally {
    await supervisor.stop();
    await sideChannel.stop();
    await apps.close();
  }
}
