// The OpenCode ModelBackend: wiring. Builds what every request shares (event hub, request gate, instance pool,
// session pool, the process's catalog) and runs each request as an OpenCodeRun (opencode-run.ts, one request → one
// session). Never decodes wire formats and never starts/stops OpenCode itself.
//
// Usage (composition root):
//   const sideChannel = new SideChannel();
//   const supervisor = new OpenCodeSupervisor({ dataDir, user: { authFile, configFile }, sideChannel, extraProviders });
//   void supervisor.start();                                   // in the background; requests wait for ready
//   const backend = createOpenCodeBackend({ supervisor, dataDir, sideChannel });
//   for await (const ev of backend.stream({ app, model, request }, signal)) { … }
//   // shutdown: await backend.close(); await supervisor.stop(); await sideChannel.stop();
import type { ModelBackend } from "../../core/contract";
import { PatchbayError } from "../../core/errors";
import { appDirectory, InstancePool } from "../process/instance-pool";
import { primeInstance } from "../process/prime-instance";
import type { OpenCodeSupervisor } from "../process/supervisor";
import type { SideChannel } from "../protocol/side-channel";
import { OpenCodeEventHub, type OpenCodeEvent } from "./event-hub";
import { ABORT_TIMEOUT_MS, CALL_TIMEOUT_MS, callOpenCode, describe } from "./opencode-call";
import { OpenCodeCatalog } from "./opencode-catalog";
import { OpenCodeRun, type RunContext } from "./opencode-run";
import type { PermissionRule } from "./plan/bridge-plan";
import { openCodeToolNames, toolsetHash } from "./plan/tools";
import { RequestGate } from "./request-gate";
import { POOLED_SESSION_TITLE, SessionPool } from "./session-pool";

/** Dependencies of {@link createOpenCodeBackend}. */
export interface OpenCodeBackendDeps {
  supervisor: OpenCodeSupervisor;
  /** Patchbay's data folder (instance directories go to `<dataDir>/apps/<app>/<toolsetHash>/`). */
  dataDir: string;
  sideChannel: SideChannel;
  /** Live OpenCode instances (tool-set directories) kept before the least recently used idle one is disposed. */
  maxLiveInstances?: number;
  /** How long a request waits for OpenCode to be ready before `backend_starting` (ms, default 15 000). */
  readyTimeoutMs?: number;
  log?: (line: string) => void;
  /** Clock (epoch ms). */
  now?: () => number;
  /** Admission of requests (counts in flight, holds them during a recycle); default: a private one. */
  gate?: RequestGate;
  /** Pre-created sessions per recently used tool set, at least (default 2, more after bursts of parallel requests;
   *  0 = off: every request creates its session). */
  sessionPoolSize?: number;
}

/** The backend plus what the composition root and diagnostics need. */
export interface OpenCodeBackend extends ModelBackend {
  /** Closes the event subscription and forgets instances. Does not stop OpenCode (the supervisor does). */
  close(): Promise<void>;
  /** Live instance directories, least recently used first. */
  liveInstances(): string[];
  /** Sees every raw OpenCode event (fixture recording, diagnostics). Returns the unsubscribe function. */
  tapEvents(listener: (event: OpenCodeEvent, directory: string | undefined) => void): () => void;
  /** Boots and primes the instance of an existing tool-set directory (pre-warming; process/prime-instance.ts).
   *  Throws PatchbayError when OpenCode fails. */
  bootDirectory(directory: string): Promise<void>;
  /** Boots `app`'s default instance (no client tools), e.g. right after the app is created. */
  bootApp(app: string): Promise<void>;
  /** Disposes instances unused for `maxIdleMs` with nothing running in them; returns their directories. */
  reapIdleInstances(maxIdleMs: number): string[];
  /** Ids of the pre-created sessions held now (diagnostics, tests). */
  pooledSessions(): string[];
  /** A deleted app's pooled sessions go (by its data key); resolves when deleted, never throws. */
  forgetApp(dataKey: string): Promise<void>;
}

/** Creates the OpenCode backend. Cheap: nothing happens until the first call. */
export function createOpenCodeBackend(deps: OpenCodeBackendDeps): OpenCodeBackend {
  const log = deps.log ?? (() => {});
  const now = deps.now ?? Date.now;
  const { supervisor, sideChannel } = deps;
  const readyTimeoutMs = deps.readyTimeoutMs ?? 15_000;
  const hub = new OpenCodeEventHub(supervisor, log);
  const gate = deps.gate ?? new RequestGate({ now });
  const instances = new InstancePool({
    dataDir: deps.dataDir,
    maxLive: deps.maxLiveInstances ?? 6,
    log,
    now,
    dispose: async (directory) => {
      await supervisor.client(directory).instance.dispose({}, { signal: AbortSignal.timeout(ABORT_TIMEOUT_MS) });
    },
  });
  const catalog = new OpenCodeCatalog(supervisor, instances, log);
  const sessionPool = createSessionPool(supervisor, catalog, deps.sessionPoolSize ?? 2, log);
  const ctx: RunContext = {
    supervisor,
    sideChannel,
    hub,
    gate,
    instances,
    sessionPool,
    catalog,
    readyTimeoutMs,
    log,
    now,
  };

  return {
    listModels: async () => {
      // Asleep (keep-alive): the last list at once, and OpenCode starts in the background — a client's model list
      // usually comes seconds before its first prompt. Logins are read at start, so the list cannot have changed.
      const last = supervisor.status().state === "sleeping" ? catalog.lastKnownModels() : null;
      if (last) {
        void supervisor.wake();
        return last;
      }
      // Counted like a request: a recycle waits for it, and it waits for a recycle in progress.
      const ticket = await gate.enter();
      try {
        await supervisor.whenReady(readyTimeoutMs);
        return await catalog.models();
      } finally {
        ticket.leave();
      }
    },
    stream: (req, signal) => new OpenCodeRun(ctx, req, signal).events(),
    check: (request) => void openCodeToolNames(request.tools),
    close: async () => {
      catalog.close();
      // Pooled sessions are deleted while OpenCode still runs, so nothing is left behind in the user's history.
      await sessionPool.close();
      hub.close();
      instances.reset();
    },
    liveInstances: () => instances.liveDirectories(),
    tapEvents: (listener) => hub.tap(listener),
    bootDirectory: (directory) => bootDirectory(ctx, directory),
    bootApp: (app) => bootApp(ctx, app),
    reapIdleInstances: (maxIdleMs) => instances.reapIdle(maxIdleMs),
    pooledSessions: () => sessionPool.ids(),
    forgetApp: (dataKey) => sessionPool.dropUnder(appDirectory(deps.dataDir, dataKey)),
  };
}

/** The session pool, creating sessions in their tool set's instance and deleting them through the default one. */
function createSessionPool(
  supervisor: OpenCodeSupervisor,
  catalog: OpenCodeCatalog,
  size: number,
  log: (line: string) => void,
): SessionPool {
  return new SessionPool({
    size,
    log,
    port: {
      create: async (directory, permission, metadata) => {
        const created = await callOpenCode("pre-create a session", () =>
          supervisor
            .client(directory)
            .session.create(
              { title: POOLED_SESSION_TITLE, permission: permission as PermissionRule[], metadata },
              { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) },
            ),
        );
        return created.id;
      },
      // By id in the default instance: deleting through the tool set's own instance would boot it again if it was
      // disposed meanwhile (seconds), and stop() waits for these.
      delete: async (_directory, sessionID) => {
        await callOpenCode("delete a pre-created session", () =>
          catalog.defaultClient().session.delete({ sessionID }, { signal: AbortSignal.timeout(ABORT_TIMEOUT_MS) }),
        );
      },
    },
  });
}

/** Boots and primes the instance of an existing tool-set directory. Throws PatchbayError when OpenCode fails. */
async function bootDirectory(ctx: RunContext, directory: string): Promise<void> {
  await ctx.supervisor.whenReady(ctx.readyTimeoutMs);
  const lease = await ctx.instances.lease(directory);
  try {
    await primeInstance(ctx.supervisor.client(directory), ctx.sideChannel).catch((err: unknown) => {
      throw new PatchbayError("backend_unavailable", `OpenCode could not boot an instance: ${describe(err)}`, {
        cause: err,
      });
    });
  } finally {
    lease.release();
  }
}

/** Boots `app`'s default instance (no client tools). */
async function bootApp(ctx: RunContext, app: string): Promise<void> {
  const lease = await ctx.instances.acquire(app, [], toolsetHash([]));
  try {
    // Boot only, no priming prompt: an app's first request usually follows its creation within seconds, and a
    // priming prompt running beside it in the same new instance slowed it down (CI rehearsal).
    await callOpenCode("boot an instance", () =>
      ctx.supervisor.client(lease.directory).tool.ids({}, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) }),
    );
  } finally {
    lease.release();
  }
}
