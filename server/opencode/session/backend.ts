// The OpenCode ModelBackend: runs one NeutralRequest through a fresh session of the supervised `opencode serve`
// (instance directory per app and tool set, spec over the side channel, one prompt, events mapped to ModelEvents).
// Owns session lifecycle per request; never decodes wire formats and never starts/stops OpenCode itself.
//
// Usage (composition root):
//   const sideChannel = new SideChannel();
//   const supervisor = new OpenCodeSupervisor({ dataDir, user: { authFile, configFile }, sideChannel, extraProviders });
//   void supervisor.start();                                   // in the background; requests wait for ready
//   const backend = createOpenCodeBackend({ supervisor, dataDir, sideChannel });
//   for await (const ev of backend.stream({ app, model, request }, signal)) { … }
//   // shutdown: await backend.close(); await supervisor.stop(); await sideChannel.stop();
import crypto from "node:crypto";
import type { OpencodeClient } from "@opencode-ai/sdk/v2";
import type { OpenCodeStatus } from "../../../shared/status";
import type { BackendRequest, ModelBackend, ModelEvent, ModelInfo } from "../../core/contract";
import { PatchbayError } from "../../core/errors";
import { AsyncQueue } from "./async-queue";
import { abortAfterSetUp, showsModelReached } from "./deferred-abort";
import { createMapperState, mapOpenCodeEvent } from "./event-mapper";
import { OpenCodeEventHub, type HubMessage, type OpenCodeEvent } from "./event-hub";
import { InstancePool } from "../process/instance-pool";
import { mapProviders } from "./models";
import { BRIDGE_AGENT } from "../process/home/opencode-config";
import type { SideChannel } from "../protocol/side-channel";
import { RequestGate, type GateTicket } from "./request-gate";
import { primeInstance } from "../process/prime-instance";
import { POOLED_SESSION_TITLE, SessionPool } from "./session-pool";
import { planBridgeRequest, promptToolsMap, toolsetHash, type PermissionRule } from "./plan/bridge-plan";
import type { OpenCodeSupervisor } from "../process/supervisor";

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
  /** Boots and primes the instance of an existing tool-set directory (pre-warming; runtime/prime-instance.ts).
   *  Throws PatchbayError when OpenCode fails. */
  bootDirectory(directory: string): Promise<void>;
  /** Boots `app`'s default instance (no client tools), e.g. right after the app is created. */
  bootApp(app: string): Promise<void>;
  /** Disposes instances unused for `maxIdleMs` with nothing running in them; returns their directories. */
  reapIdleInstances(maxIdleMs: number): string[];
  /** Ids of the pre-created sessions held now (diagnostics, tests). */
  pooledSessions(): string[];
}

const SESSION_TITLE_PREFIX = "patchbay";
const CALL_TIMEOUT_MS = 30_000; // first call into a new directory boots an instance (seconds on a busy machine)
const ABORT_TIMEOUT_MS = 5_000;
const PLUGIN_ANNOUNCE_GRACE_MS = 2_000;
const FRESH_WINDOW_MS = 30_000;

/** Creates the OpenCode backend. Cheap: nothing happens until the first call. */
export function createOpenCodeBackend(deps: OpenCodeBackendDeps): OpenCodeBackend {
  const log = deps.log ?? (() => {});
  const now = deps.now ?? Date.now;
  const { supervisor, sideChannel } = deps;
  const readyTimeoutMs = deps.readyTimeoutMs ?? 15_000;
  const hub = new OpenCodeEventHub(supervisor, log);
  const gate = deps.gate ?? new RequestGate({ now });
  const pool = new InstancePool({
    dataDir: deps.dataDir,
    maxLive: deps.maxLiveInstances ?? 6,
    log,
    now,
    dispose: async (directory) => {
      await supervisor.client(directory).instance.dispose({}, { signal: AbortSignal.timeout(ABORT_TIMEOUT_MS) });
    },
  });

  const sessionPool = new SessionPool({
    size: deps.sessionPoolSize ?? 2,
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
          defaultClient().session.delete({ sessionID }, { signal: AbortSignal.timeout(ABORT_TIMEOUT_MS) }),
        );
      },
    },
  });

  // Per OpenCode run (keyed by its URL): built-in tool ids, and the one in-flight provider list. (The model list is
  // cached once, by the core's ModelListCache; a request arrives here with its model already resolved.)
  let runUrl: string | null = null;
  let builtins: Promise<string[]> | null = null;
  let modelsLoading: Promise<ModelInfo[]> | null = null;
  const onSupervisorStatus = (s: OpenCodeStatus) => {
    if (s.url !== runUrl) {
      runUrl = s.url;
      builtins = null;
      modelsLoading = null;
      pool.reset(); // a new OpenCode process has no instances
      // Warm the default instance (model list, built-in tool ids) so the first request does not pay for it.
      if (s.state === "ready")
        void fetchModels()
          .then(builtinToolIds)
          .catch((err: unknown) => {
            // A stop or crash right after `ready` fails the warm-up too; only a live OpenCode's failure is news.
            if (supervisor.status().state === "ready" && !supervisor.stopRequested)
              log(`[opencode] warm-up failed: ${describe(err)}`);
          });
    }
  };
  const offStatus = supervisor.onStatus(onSupervisorStatus);
  onSupervisorStatus(supervisor.status());

  function defaultClient(): OpencodeClient {
    const dir = supervisor.defaultDirectory();
    return dir ? supervisor.client(dir) : supervisor.client();
  }

  function fetchModels(): Promise<ModelInfo[]> {
    // One call for everyone waiting: requests held during a recycle are let in together.
    modelsLoading ??= callOpenCode("list the providers", () =>
      defaultClient().config.providers({}, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) }),
    )
      .then((res) => mapProviders(res.providers))
      .finally(() => {
        modelsLoading = null;
      });
    return modelsLoading;
  }

  function builtinToolIds(): Promise<string[]> {
    // The default instance has no client tools: its tool ids are exactly OpenCode's built-ins.
    builtins ??= callOpenCode("list the built-in tools", () =>
      defaultClient().tool.ids({}, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) }),
    ).catch((err: unknown) => {
      builtins = null;
      throw err;
    });
    return builtins;
  }

  /** Never prompt in an instance whose companion plugin did not announce itself (it would run OpenCode's own
   *  prompt and history). The instance loads its plugins before it answers its first request. */
  async function requirePlugin(directory: string): Promise<void> {
    const deadline = now() + PLUGIN_ANNOUNCE_GRACE_MS;
    for (;;) {
      const pid = supervisor.status().pid;
      if (pid !== null && sideChannel.pluginLoaded(directory, pid)) return;
      if (now() >= deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    log(`[opencode] the companion plugin did not announce itself for ${directory}`);
    throw new PatchbayError(
      "backend_unavailable",
      "Patchbay's companion plugin is not loaded in OpenCode, so the request was not sent (see the Patchbay log).",
    );
  }

  async function* stream(req: BackendRequest, signal: AbortSignal): AsyncGenerator<ModelEvent> {
    if (signal.aborted) return;
    let ticket: GateTicket;
    try {
      ticket = await gate.enter(signal);
    } catch (err) {
      if (signal.aborted) return;
      throw err;
    }
    try {
      // "Fresh" (the log entry says so): this request waited for OpenCode to start, restart or be recycled, or runs on
      // one that became ready less than FRESH_WINDOW_MS ago (its caches and instances are still cold). A request held
      // by a recycle in its model lookup reaches this point with the gate open again: the window covers it.
      const readyAt = supervisor.readyAt();
      const fresh =
        ticket.held || supervisor.status().state !== "ready" || (readyAt !== null && now() - readyAt < FRESH_WINDOW_MS);
      yield* run(req, signal, fresh);
    } finally {
      ticket.leave();
    }
  }

  async function* run(req: BackendRequest, signal: AbortSignal, fresh: boolean): AsyncGenerator<ModelEvent> {
    await supervisor.whenReady(readyTimeoutMs);
    const plan = planBridgeRequest(req, { now: now(), idPrefix: crypto.randomBytes(4).toString("hex") });
    const builtinIds = await builtinToolIds();
    await hub.ready(readyTimeoutMs); // after a (re)start on a busy machine the stream can take seconds to connect
    if (signal.aborted) return;

    const lease = await pool.acquire(req.app, plan.toolset, plan.toolsetHash);
    const client = supervisor.client(lease.directory);
    const queue = new AsyncQueue<HubMessage>();
    let sessionID: string | null = null;
    let settled = false; // the session ended idle, or we already asked OpenCode to abort it
    let prompting = false; // the prompt was sent: OpenCode's loop (and the instance's set-up) may run
    let deferredAbort: Promise<void> | null = null; // an abort waiting for the instance's set-up (deferred-abort.ts)
    let unsubscribe = () => {};
    const title = `${SESSION_TITLE_PREFIX}: ${plan.triggerText.replace(/\s+/g, " ").slice(0, 60)}`;
    const metadata = { patchbay: { app: req.app } };
    // Only where this OpenCode already booted the instance (plugin announced): `session.create` is what boots it,
    // so a pooled session (kept across recycles) in a not-yet-booted instance would fail the plugin check.
    const ocPid = supervisor.status().pid;
    const pooled = sessionPool.begin(
      lease.directory,
      plan.permission,
      metadata,
      ocPid !== null && sideChannel.pluginLoaded(lease.directory, ocPid),
    );
    const sendAbort = (id: string) =>
      client.session
        .abort({ sessionID: id }, { signal: AbortSignal.timeout(ABORT_TIMEOUT_MS) })
        .then(() => {})
        .catch((err: unknown) => log(`[opencode] abort of ${id} failed: ${String(err)}`));
    const abortSession = () => {
      if (!sessionID || settled) return;
      settled = true;
      const id = sessionID;
      if (!prompting || lease.primed) return void sendAbort(id);
      // The prompt may be setting the instance up: aborting now would break the instance (deferred-abort.ts).
      deferredAbort = abortAfterSetUp({
        hub,
        sessionID: id,
        abort: () => sendAbort(id),
        isSetUp: () => lease.primed,
        onModelReached: () => lease.markPrimed(),
      });
    };
    // A pooled session still has its placeholder title: it is named after the request once the first event is out
    // (a write in OpenCode while it starts the model call would delay the first token).
    let nameSession = () => {};
    if (pooled) {
      nameSession = () => {
        nameSession = () => {};
        void client.session
          .update({ sessionID: pooled, title }, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) })
          .catch((err: unknown) => log(`[opencode] naming session ${pooled} failed: ${String(err)}`));
      };
    }
    signal.addEventListener("abort", abortSession);
    try {
      const created = pooled
        ? { id: pooled }
        : await callOpenCode("create a session", () =>
            client.session.create(
              { title, permission: plan.permission, metadata },
              { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) },
            ),
          );
      sessionID = created.id;
      await requirePlugin(lease.directory).catch((err: unknown) => {
        settled = true; // nothing runs in it; drop the empty session
        void client.session
          .delete({ sessionID: created.id }, { signal: AbortSignal.timeout(ABORT_TIMEOUT_MS) })
          .catch(() => {});
        throw err;
      });
      sideChannel.register(sessionID, plan.spec);
      unsubscribe = hub.subscribe(sessionID, (m) => {
        if (m.kind === "event" && showsModelReached(m.event)) lease.markPrimed();
        queue.push(m);
      });
      if (signal.aborted) {
        abortSession();
        return;
      }
      // The planner's warnings only: the runner already has the decoder's, and the mapper's come with `finish`.
      yield { type: "start", sessionId: sessionID, warnings: plan.warnings, ...(fresh ? { freshOpenCode: true } : {}) };

      // From here on failures are events, never throws (ModelBackend contract).
      prompting = true; // before the call: OpenCode may start the loop before it answers
      const prompted = await client.session
        .promptAsync(
          {
            sessionID,
            agent: BRIDGE_AGENT,
            model: { providerID: req.model.providerID, modelID: req.model.modelID },
            parts: [{ type: "text", text: plan.triggerText }],
            tools: promptToolsMap(plan, builtinIds),
            ...(plan.format ? { format: plan.format } : {}),
            ...(plan.variant ? { variant: plan.variant } : {}),
          },
          { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) },
        )
        .catch((err: unknown) => ({ error: err }));
      if ("error" in prompted && prompted.error !== undefined) {
        prompting = false; // refused: no loop runs that an abort could interrupt
        yield {
          type: "error",
          error: {
            code: "backend_unavailable",
            status: 503,
            message: `OpenCode did not accept the prompt: ${describe(prompted.error)}`,
          },
        };
        return;
      }

      const state = createMapperState({ sessionID, toolNames: plan.toolNames, structured: plan.structured });
      for (;;) {
        const next = await queue.next(signal);
        if ("aborted" in next) {
          abortSession();
          return;
        }
        const m = next.item;
        if (m.kind === "down") {
          yield {
            type: "error",
            error: {
              code: "backend_unavailable",
              status: 503,
              message: `Lost the connection to OpenCode mid-request (${m.reason}).`,
            },
          };
          return;
        }
        for (const ev of mapOpenCodeEvent(m.event, state, now())) {
          if (ev.type === "finish") settled = true; // session.idle: nothing left to stop
          yield ev;
          nameSession();
          if (signal.aborted) {
            abortSession();
            return;
          }
        }
        if (state.done) return; // an error leaves `settled` false: finally stops OpenCode's retries/loop
      }
    } finally {
      if (prompting) nameSession();
      else if (pooled)
        // Taken from the pool but never prompted (client gone first, prompt refused): nobody owns it now.
        void client.session
          .delete({ sessionID: pooled }, { signal: AbortSignal.timeout(ABORT_TIMEOUT_MS) })
          .catch(() => {});
      signal.removeEventListener("abort", abortSession);
      unsubscribe();
      abortSession();
      // A deferred abort keeps the session's spec and the lease until it is done: the prompt still runs (the plugin
      // reads the spec) and the instance must not be disposed under it.
      const id = sessionID;
      const cleanUp = () => {
        if (id) sideChannel.unregister(id);
        // Top the pool up for this tool set's next request while still holding the lease (so the instance is not
        // disposed under the new sessions), off this request's path: its answer is complete.
        // Not while a recycle holds requests: the old process is about to go, and a session created in its last
        // moments could be stored with its answer lost (a pooled session nobody owns).
        const refill = supervisor.status().state === "ready" && !supervisor.stopRequested && !gate.isHolding;
        void sessionPool.end(lease.directory, plan.permission, refill).finally(() => lease.release());
      };
      if (deferredAbort) void deferredAbort.then(cleanUp);
      else cleanUp();
    }
  }

  async function bootDirectory(directory: string): Promise<void> {
    await supervisor.whenReady(readyTimeoutMs);
    const lease = await pool.lease(directory);
    try {
      await primeInstance(supervisor.client(directory)).catch((err: unknown) => {
        throw new PatchbayError("backend_unavailable", `OpenCode could not boot an instance: ${describe(err)}`, {
          cause: err,
        });
      });
    } finally {
      lease.release();
    }
  }

  return {
    listModels: async () => {
      // Counted like a request: a recycle waits for it, and it waits for a recycle in progress.
      const ticket = await gate.enter();
      try {
        await supervisor.whenReady(readyTimeoutMs);
        return await fetchModels();
      } finally {
        ticket.leave();
      }
    },
    stream,
    close: async () => {
      offStatus();
      // Pooled sessions are deleted while OpenCode still runs, so nothing is left behind in the user's history.
      await sessionPool.close();
      hub.close();
      pool.reset();
    },
    liveInstances: () => pool.liveDirectories(),
    tapEvents: (listener) => hub.tap(listener),
    bootDirectory,
    bootApp: async (app) => {
      const lease = await pool.acquire(app, [], toolsetHash([]));
      try {
        // Boot only, no priming prompt: an app's first request usually follows its creation within seconds, and a
        // priming prompt running beside it in the same new instance slowed it down (CI rehearsal).
        await callOpenCode("boot an instance", () =>
          supervisor.client(lease.directory).tool.ids({}, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) }),
        );
      } finally {
        lease.release();
      }
    },
    reapIdleInstances: (maxIdleMs) => pool.reapIdle(maxIdleMs),
    pooledSessions: () => sessionPool.ids(),
  };
}

/** Runs an SDK call; returns its data or throws PatchbayError `backend_unavailable` naming what failed. */
async function callOpenCode<T>(what: string, call: () => Promise<{ data?: T; error?: unknown }>): Promise<T> {
  let res: { data?: T; error?: unknown };
  try {
    res = await call();
  } catch (err) {
    throw new PatchbayError("backend_unavailable", `OpenCode could not ${what}: ${describe(err)}`, { cause: err });
  }
  if (res.error !== undefined || res.data === undefined) {
    throw new PatchbayError("backend_unavailable", `OpenCode could not ${what}: ${describe(res.error)}`);
  }
  return res.data;
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.name === "TimeoutError" ? "timed out" : err.message;
  if (typeof err === "object" && err !== null) {
    const e = err as { data?: { message?: unknown }; message?: unknown; name?: unknown };
    if (typeof e.data?.message === "string") return e.data.message;
    if (typeof e.message === "string") return e.message;
    if (typeof e.name === "string") return e.name;
  }
  return String(err);
}
