// Composition root: createPatchbay(deps) builds every part of Patchbay and wires them together.
// main/ (Electron), the CLI and the tests are its only callers; nothing else constructs these parts.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { appDataKey } from "../shared/apps";
import type { PatchbayStatus } from "../shared/status";
import { watchApps } from "./compose/app-watch";
import { RunRegistry } from "./http/model-run/run-registry";
import { ConcurrencyGate } from "./core/concurrency";
import { ModelListCache } from "./core/model-list-cache";
import { startDemoUpstream, demoProviderConfig } from "./demo/upstream";
import { createAdminApp } from "./http/admin/admin-app";
import { rendererNotice } from "./http/admin/static";
import { ApiListener } from "./http/api-listener";
import { Listener } from "./http/listener";
import { createApiApp } from "./http/api-app";
import { WIRES } from "./wires/table";
import { createOpenCodeBackend } from "./opencode/session/backend";
import { createHistory } from "./history";
import { withConversations } from "./history/with-conversations";
import { createRequestRecorder } from "./conversations/record-request";
import { conversationsDir, RequestIndex } from "./conversations/request-index";
import { stopLeftoverOpenCode } from "./opencode/process/leftover";
import { createOpenCodeHistoryPort } from "./history/opencode-port";
import { createOpenCodeRuntime } from "./opencode/runtime/opencode-runtime";
import { setUpKeepAlive } from "./opencode/runtime/keep-alive-setup";
import { memoryLimitNotice } from "./opencode/runtime/memory-limit";
import { RequestGate } from "./opencode/session/request-gate";
import { SideChannel } from "./opencode/protocol/side-channel";
import { OpenCodeSupervisor } from "./opencode/process/supervisor";
import { defaultUserOpenCodePaths } from "./opencode-user-paths";
import type { Patchbay, PatchbayDeps, PatchbayUrls } from "./patchbay-types";
import { inlineRemoteImages } from "./security/inline-images";
import { providerSecrets } from "./opencode/process/home/provider-secrets";
import { trackModelCount } from "./compose/model-count";
import { createLogSecrets } from "./compose/log-secrets";
import { openStores } from "./compose/stores";
import { removeStaleTemps } from "./stores/stale-temps";
import { tightenDataDir } from "./stores/store-paths";
import { acquireInstanceLock } from "./instance-lock";
import { removeRuntimeFile, writeRuntimeFile } from "./runtime-file";
import { limitsGlance, watchLimits } from "./compose/limits-glance";
import { wireDoctor } from "./compose/doctor";
import { wireServerTools } from "./compose/server-tools";
import { PATCHBAY_VERSION } from "./version";
import { cliCommandFor } from "./connect/patchbay-command";
import { bareCli } from "./core/cli-command";

export type { Patchbay, PatchbayDeps, PatchbayUrls, DesktopHost, UserOpenCodePaths } from "./patchbay-types";
export { defaultUserOpenCodePaths } from "./opencode-user-paths";

/** No request for this long (ms) counts as idle: OpenCode's health probe then slows down (see supervisor.ts). */
const IDLE_AFTER_MS = 60_000;

/** Builds a Patchbay for `deps.dataDir` (created with mode 0700 if missing). Nothing listens until `start()`.
 *  Throws PatchbayError `storage_error` if the data dir cannot be created. */
export async function createPatchbay(deps: PatchbayDeps): Promise<Patchbay> {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? ((line: string) => process.stderr.write(`[patchbay] ${line}\n`));
  const dataDir = path.resolve(deps.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (tightenDataDir(dataDir)) log(`made the data folder ${dataDir} private (mode 0700)`);
  const startedAt = now();
  // Temp files of writes killed midway (kill -9) by an earlier run or a CLI command.
  const staleTemps = await removeStaleTemps(dataDir);
  if (staleTemps.length) log(`removed ${staleTemps.length} unfinished temp file(s) of writes killed midway`);

  // A store notice (e.g. apps.json hand-edited into an invalid state) goes to the log and the dashboard at once.
  let emitLater = (): void => undefined;
  const onNotice = (message: string): void => {
    log(`notice: ${message}`);
    emitLater();
  };
  // Secrets known by value are removed from every log entry wherever they appear (bodies may echo them).
  let knownSecrets = (): string[] => [];
  const cli = cliCommandFor(dataDir);
  const stores = await openStores({ dataDir, now, log, onNotice, secrets: () => knownSecrets(), cli });
  const { settings, apps, keys, requestLog, responses, budgets, cooldowns } = stores;

  const demo = deps.demo ? await startDemoUpstream() : null;
  const sideChannel = new SideChannel();
  const gate = new RequestGate({ now });
  const supervisor = new OpenCodeSupervisor({
    dataDir,
    user: deps.userOpenCode ?? defaultUserOpenCodePaths(),
    extraProviders: demo ? { demo: demoProviderConfig(demo.url) } : {},
    sideChannel,
    ...(deps.opencodeBinary ? { binaryPath: deps.opencodeBinary } : {}),
    isIdle: () => gate.inFlight === 0 && now() - gate.lastActivityAt > IDLE_AFTER_MS,
    log,
  });
  const backend = createOpenCodeBackend({
    supervisor,
    dataDir,
    sideChannel,
    log,
    gate,
    ...(deps.runtime?.sessionPoolSize !== undefined ? { sessionPoolSize: deps.runtime.sessionPoolSize } : {}),
  });
  const { keepAlive, automaticSweeps, restart } = setUpKeepAlive({
    process: supervisor,
    gate,
    settings,
    override: deps.opencodeKeepAliveMs,
    quiet: () => runtime.prewarmed(),
    log,
    now,
    onChange: () => emit(),
  });
  // History calls count as uses of OpenCode: the keep-alive never stops it under one (and they wake it).
  const historyPort = keepAlive.around(createOpenCodeHistoryPort(supervisor));
  const runtime = createOpenCodeRuntime({
    process: supervisor,
    backend,
    gate,
    dataDir,
    memoryLimitMB: () => settings.get().opencodeMemoryLimitMB,
    sideChannel,
    hasSessions: async (dir) => (await historyPort.listSessions(dir, { limit: 1 })).items.length > 0,
    ...(deps.runtime?.timings ? { timings: deps.runtime.timings } : {}),
    log,
    now,
    onChange: () => emit(),
  });
  const catalog = new ModelListCache(backend, now);
  /** Models offered (status().modelCount), counted when OpenCode becomes ready. */
  const modelCount = trackModelCount({
    listModels: () => catalog.list(),
    state: () => supervisor.status().state,
    now,
    changed: () => emit(),
  });
  const requestIndex = new RequestIndex({ dir: conversationsDir(dataDir) });
  const concurrency = new ConcurrencyGate();
  /** An app's data key (its folders); an unknown app's name is never the key of a later app (see App.dataKey). */
  const dataKeyOf = (name: string): string => {
    const app = apps.get(name);
    return app ? appDataKey(app) : name;
  };
  const runs = new RunRegistry();
  const history = createHistory({
    opencode: supervisor,
    port: historyPort,
    automaticSweeps,
    dataDir,
    limitsOf: (app) => apps.get(app)?.history ?? null,
    apps: () => apps.list().map((a) => a.name),
    // Sweeps yield to requests in flight so they never slow them down.
    activeRequests: () => apps.list().reduce((n, a) => n + concurrency.count(a.name), 0),
    liveDirectories: () => backend.liveInstances(),
    dataKeyOf,
    // Stored responses are kept by data key too.
    responses: {
      overLimits: (app, limits, at) => responses.overLimits(dataKeyOf(app), limits, at),
      prune: (app, limits, at, budget) => responses.prune(dataKeyOf(app), limits, at, budget),
    },
    log,
    now,
  });

  const serverToolBackend = wireServerTools(backend, {
    apps: () => apps.list(),
    searchUrl: () => deps.searchUrl ?? settings.get().searchUrl,
    deps,
    log,
  });
  const apiApp = createApiApp(
    {
      apps,
      keys,
      responses,
      backend: serverToolBackend,
      catalog: () => catalog.list(),
      gate: concurrency,
      requestLog,
      logBodies: () => settings.get().logBodies,
      inlineImages: (request, allowed, signal) =>
        inlineRemoteImages(request, { allowed, ...(signal ? { signal } : {}) }),
      // API clients (maybe over the LAN) are told commands by name: never this machine's paths or data folder.
      cli: bareCli,
      afterRequest: (app) => history.sweeper.notifyRequest(app),
      budgets,
      cooldowns,
      runs,
      recordRequest: createRequestRecorder(requestIndex, log),
      now,
      lanExposure: () => settings.get().lanExposure,
      ...(deps.commitAfterMs !== undefined ? { commitAfterMs: deps.commitAfterMs } : {}),
      onClientProbe: () => keepAlive.wakeEarly("a client's first probe"),
      health: () => {
        const s = supervisor.status();
        return { ok: s.state === "ready", opencode: s.state };
      },
      log,
    },
    WIRES,
  );
  const api = new ApiListener({
    handler: apiApp,
    errorBody: WIRES.unmatchedErrorBody,
    settings,
    pinned: {
      ...(deps.host !== undefined ? { host: deps.host } : {}),
      ...(deps.port !== undefined ? { port: deps.port } : {}),
    },
    // During start() the caller reports a failure itself (serve exits with it, the desktop shows the status);
    // later starts (dashboard, tray, settings changed) have no other voice in the log.
    logFailures: () => urls !== null,
    log,
    onChange: () => emit(),
  });

  const listeners = new Set<(s: PatchbayStatus) => void>();
  /** Per-launch admin token: scripts and the CLI send it as Bearer (runtime.json). */
  const adminToken = randomBytes(32).toString("base64url");
  const secrets = createLogSecrets({
    adminToken,
    adminSessions: () => adminApp.secrets(),
    openCodeAuthorization: () => supervisor.connection()?.authorization ?? null,
    sideChannelToken: sideChannel.token,
    upstream: providerSecrets({ user: deps.userOpenCode ?? defaultUserOpenCodePaths() }),
  });
  knownSecrets = () => secrets.all();
  const createLoginUrl = (): string => secrets.rememberLoginUrl(adminApp.createLoginUrl());
  let admin: Listener | null = null;
  let adminOrigin = "";
  let urls: PatchbayUrls | null = null;
  let stopped = false;
  let releaseLock: (() => Promise<void>) | null = null;
  let wroteRuntime = false;

  const rendererDir = deps.rendererDir ?? path.resolve(import.meta.dirname, "../dist/renderer");
  const status = (): PatchbayStatus => ({
    version: PATCHBAY_VERSION,
    startedAt,
    uptimeMs: now() - startedAt,
    api: api.status(),
    opencode: supervisor.status(),
    runtime: { ...runtime.status(), keepAlive: keepAlive.status() },
    dataDir,
    cli: cli("").trimEnd(),
    demo: Boolean(demo),
    notices: [
      ...settings.notices(),
      ...apps.notices(),
      ...keys.notices(),
      ...[memoryLimitNotice(settings.get().opencodeMemoryLimitMB)].filter((n): n is string => n !== null),
      ...(requestLog.lastError() ? [`Request log: ${requestLog.lastError()}`] : []),
      ...[rendererNotice(rendererDir)].filter((n): n is string => n !== null),
    ],
    totals: requestLog.totals(),
    apps: apps.list().map((x) => ({ name: x.name })),
    modelCount: modelCount.value(),
    limits: limitsGlance(apps.list(), budgets, cooldowns, now()),
    search: deps.searchUrl
      ? { url: deps.searchUrl, from: deps.searchUrlFrom ?? "--search-url" }
      : { url: settings.get().searchUrl, from: "settings" },
  });
  const emit = (): void => {
    const s = status();
    for (const l of listeners) l(s);
  };
  emitLater = emit;
  // Limits change without a status event of their own: a provider's 429, a counted request, a window moving on.
  const stopWatchingLimits = watchLimits({
    cooldowns,
    glance: () => limitsGlance(apps.list(), budgets, cooldowns, now()),
    onRequest: (l) => requestLog.subscribe((e) => l(e.appId)),
    appHasBudgets: (id) => apps.list().some((a) => a.id === id && a.budgets.length > 0),
    emit,
    now,
  });
  // A memory limit below a fresh OpenCode's use is allowed (soaks force recycles) but said at once, here and in status.
  let lastMemoryLimit = settings.get().opencodeMemoryLimitMB;
  settings.onChange((next) => {
    if (next.opencodeMemoryLimitMB === lastMemoryLimit) return;
    lastMemoryLimit = next.opencodeMemoryLimitMB;
    const notice = memoryLimitNotice(lastMemoryLimit);
    if (notice) log(`notice: ${notice}`);
    emit();
  });
  supervisor.onStatus((st) => {
    catalog.invalidate();
    modelCount.stateChanged(st.state);
    emit();
  });
  // A deleted app's runs end and its data goes; a revoked key's runs end; a new app boots (whoever made the change).
  const retirement = watchApps({
    apps,
    keys,
    runs,
    responses,
    backend,
    openCodeReady: () => supervisor.status().state === "ready",
    sweeper: history.sweeper,
    requestIndex,
    changed: () => emit(),
    log,
  });
  const onStatus = (l: (s: PatchbayStatus) => void): (() => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  const doctor = wireDoctor({ createPatchbay, deps, dataDir });
  const startApi = (): Promise<void> => api.start();
  const stopApi = (): Promise<void> => api.stop();

  const adminApp = createAdminApp({
    settings,
    apps,
    keys,
    requestLog,
    listModels: () => catalog.list(),
    status,
    onStatus,
    startApi,
    stopApi,
    restartOpenCode: () => void restart(),
    onVisit: () => keepAlive.wakeEarly("dashboard visit"),
    ...(deps.desktop ? { desktop: deps.desktop } : {}),
    history: withConversations(history.admin, requestIndex),
    ...(deps.clientEnv ? { clientEnv: deps.clientEnv } : {}),
    responses,
    doctor,
    budgetStatuses: (app) => budgets.statuses(app, now()),
    cli,
    adminToken,
    adminOrigin: () => adminOrigin,
    staticDir: rendererDir,
  });

  const pb: Patchbay = {
    async start() {
      if (urls) return urls;
      // One Patchbay per data folder; only the lock holder may stop a leftover OpenCode or write runtime.json.
      releaseLock ??= await acquireInstanceLock(dataDir, { onCompromised: log });
      await stopLeftoverOpenCode(dataDir, log);
      void supervisor.start();
      runtime.start();
      keepAlive.start();
      history.sweeper.start();
      admin = new Listener(adminApp.handler, "127.0.0.1", 0, WIRES.unmatchedErrorBody);
      const a = await admin.start();
      if (!a.running) throw new Error(`Could not start the dashboard listener: ${a.error}`);
      adminOrigin = `http://127.0.0.1:${a.port}`;
      if (settings.get().startOnLaunch || deps.port !== undefined) await startApi();
      const st = status();
      urls = {
        openaiUrl: st.api.baseUrl,
        adminUrl: adminOrigin,
        dashboardUrl: `${adminOrigin}/`,
        loginUrl: createLoginUrl(),
        adminToken,
      };
      wroteRuntime = true;
      await writeRuntimeFile(dataDir, {
        pid: process.pid,
        adminUrl: adminOrigin,
        adminToken,
        openaiUrl: st.api.baseUrl,
        startedAt,
      }).catch((err: unknown) => log(`could not write runtime.json: ${String(err)}`));
      return urls;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      retirement.stop();
      stopWatchingLimits();
      adminApp.close();
      await doctor.stop();
      // runtime.json belongs to the Patchbay that wrote it (a refused second start must not remove the first's).
      if (wroteRuntime) removeRuntimeFile(dataDir);
      await Promise.allSettled([api.close(500), admin?.stop(500)]);
      await history.sweeper.stop();
      keepAlive.stop();
      await runtime.stop();
      await backend.close();
      await supervisor.stop();
      await sideChannel.stop();
      await demo?.stop();
      await stores.close();
      await releaseLock?.().catch(() => undefined);
    },
    startApi,
    stopApi,
    status,
    onStatus,
    get urls() {
      return urls;
    },
    createLoginUrl,
    restartOpenCode: restart,
    onRequest: (listener) => requestLog.subscribe(listener),
  };
  return pb;
}
