// One request through OpenCode, as its steps: enter (the request gate) → prepare (OpenCode ready, the plan, the event
// stream) → open a session (lease the instance, take a pooled session or create one, check the plugin, register the
// spec, subscribe) → prompt → events (queue → mapper) → close. Owns the request's state: session id, settled,
// prompting, a deferred abort, the subscription, the session's name. A new per-request step goes here.
import crypto from "node:crypto";
import type { OpencodeClient } from "@opencode-ai/sdk/v2";
import type { BackendRequest, ModelEvent } from "../../core/contract";
import { PatchbayError } from "../../core/errors";
import type { InstanceLease, InstancePool } from "../process/instance-pool";
import { BRIDGE_AGENT } from "../process/home/opencode-config";
import type { OpenCodeSupervisor } from "../process/supervisor";
import type { SideChannel } from "../protocol/side-channel";
import { AsyncQueue } from "./async-queue";
import { abortAfterSetUp, showsModelReached } from "./deferred-abort";
import type { HubMessage, OpenCodeEventHub } from "./event-hub";
import { createMapperState, mapOpenCodeEvent } from "./event-mapper";
import { ABORT_TIMEOUT_MS, CALL_TIMEOUT_MS, callOpenCode, describe } from "./opencode-call";
import type { OpenCodeCatalog } from "./opencode-catalog";
import { planBridgeRequest, type BridgePlan } from "./plan/bridge-plan";
import { promptToolsMap } from "./plan/tools";
import type { GateTicket, RequestGate } from "./request-gate";
import type { SessionPool } from "./session-pool";
import { requestTitle } from "../../conversations/session-title";

/** What every run shares (built once by createOpenCodeBackend). */
export interface RunContext {
  supervisor: OpenCodeSupervisor;
  sideChannel: SideChannel;
  hub: OpenCodeEventHub;
  gate: RequestGate;
  instances: InstancePool;
  sessionPool: SessionPool;
  catalog: OpenCodeCatalog;
  /** How long a request waits for OpenCode (and its event stream) to be ready, ms. */
  readyTimeoutMs: number;
  log: (line: string) => void;
  now: () => number;
}

/** Title of a session whose request carries no words of the user's own (only tool results or injected context). */
const UNTITLED_SESSION = "(no user text)";
/** The plugin announces itself within milliseconds on an idle machine; a busy 2-core one (three OpenCodes booting)
 *  was seen past 2 s. Only the failure path waits this long. */
const PLUGIN_ANNOUNCE_GRACE_MS = 10_000;
/** A request on an OpenCode that became ready less than this ago is "fresh" (cold caches and instances), ms. */
const FRESH_WINDOW_MS = 30_000;

/** One request → one OpenCode session. Use once: `yield* new OpenCodeRun(ctx, req, signal).events()`. */
export class OpenCodeRun {
  private plan!: BridgePlan;
  private builtinIds: string[] = [];
  private lease!: InstanceLease;
  private client!: OpencodeClient;
  private readonly queue = new AsyncQueue<HubMessage>();
  private sessionID: string | null = null;
  /** A pre-created session taken from the pool (it still has the pool's title until named). */
  private pooled: string | null = null;
  /** The session ended idle, or OpenCode was already asked to abort it. */
  private settled = false;
  /** The prompt was sent: OpenCode's loop (and the instance's set-up) may run. */
  private prompting = false;
  /** An abort waiting for the instance's set-up (deferred-abort.ts). */
  private deferredAbort: Promise<void> | null = null;
  private named = false;
  private unsubscribe = () => {};

  constructor(
    private readonly ctx: RunContext,
    private readonly req: BackendRequest,
    private readonly signal: AbortSignal,
  ) {}

  /** The request's ModelEvents. Throws PatchbayError before `start` (not ready, plan refused, plugin missing);
   *  after it, failures are events (ModelBackend contract). */
  async *events(): AsyncGenerator<ModelEvent> {
    const ticket = await this.enter();
    if (!ticket) return;
    try {
      const fresh = this.isFresh(ticket);
      await this.prepare();
      if (this.signal.aborted) return;
      await this.leaseInstance();
      this.signal.addEventListener("abort", this.abortSession);
      try {
        if (!(await this.openSession())) return;
        // The planner's warnings only: the runner already has the decoder's, and the mapper's come with `finish`.
        yield {
          type: "start",
          sessionId: this.sessionID!,
          warnings: this.plan.warnings,
          ...(fresh ? { freshOpenCode: true } : {}),
        };
        const refused = await this.prompt();
        if (refused) return void (yield refused);
        yield* this.relay();
      } finally {
        this.close();
      }
    } finally {
      ticket.leave();
    }
  }

  /** Admission: counted in flight, held while a recycle swaps processes. Null when the client left first. */
  private async enter(): Promise<GateTicket | null> {
    if (this.signal.aborted) return null;
    try {
      return await this.ctx.gate.enter(this.signal);
    } catch (err) {
      if (this.signal.aborted) return null;
      throw err;
    }
  }

  /** "Fresh" (the log entry says so): this request waited for OpenCode to start, restart or be recycled, or runs on
   *  one that became ready less than FRESH_WINDOW_MS ago (its caches and instances are still cold). A request held
   *  by a recycle in its model lookup reaches this point with the gate open again: the window covers it. */
  private isFresh(ticket: GateTicket): boolean {
    const { supervisor, now } = this.ctx;
    const readyAt = supervisor.readyAt();
    return (
      ticket.held || supervisor.status().state !== "ready" || (readyAt !== null && now() - readyAt < FRESH_WINDOW_MS)
    );
  }

  /** OpenCode ready, the plan made, the built-in tool ids known, the event stream connected. */
  private async prepare(): Promise<void> {
    const { supervisor, catalog, hub, readyTimeoutMs, now } = this.ctx;
    await supervisor.whenReady(readyTimeoutMs);
    this.plan = planBridgeRequest(this.req, { now: now(), idPrefix: crypto.randomBytes(4).toString("hex") });
    this.builtinIds = await catalog.builtinToolIds();
    await hub.ready(readyTimeoutMs); // after a (re)start on a busy machine the stream can take seconds to connect
  }

  /** The instance of the app's tool set, and a pooled session in it if one is ready. */
  private async leaseInstance(): Promise<void> {
    const { instances, supervisor, sideChannel, sessionPool } = this.ctx;
    this.lease = await instances.acquire(this.req.app, this.plan.toolset, this.plan.toolsetHash);
    this.client = supervisor.client(this.lease.directory);
    // Only where this OpenCode already booted the instance (plugin announced): `session.create` is what boots it,
    // so a pooled session (kept across recycles) in a not-yet-booted instance would fail the plugin check.
    const pid = supervisor.status().pid;
    const booted = pid !== null && sideChannel.pluginLoaded(this.lease.directory, pid);
    this.pooled = sessionPool.begin(this.lease.directory, this.plan.permission, this.metadata(), booted);
  }

  /** The session (pooled or new), checked for the plugin, its spec registered, its events subscribed. False when
   *  the client left meanwhile. */
  private async openSession(): Promise<boolean> {
    const { sideChannel, hub } = this.ctx;
    const id = this.pooled ?? (await this.createSession());
    this.sessionID = id;
    await this.requirePlugin().catch((err: unknown) => {
      this.settled = true; // nothing runs in it; drop the empty session
      this.deleteSession(id);
      throw err;
    });
    sideChannel.register(id, this.plan.spec);
    this.unsubscribe = hub.subscribe(id, (m) => {
      if (m.kind === "event" && showsModelReached(m.event)) this.lease.markPrimed();
      this.queue.push(m);
    });
    if (!this.signal.aborted) return true;
    this.abortSession();
    return false;
  }

  private async createSession(): Promise<string> {
    const created = await callOpenCode("create a session", () =>
      this.client.session.create(
        { title: this.title(), permission: this.plan.permission, metadata: this.metadata() },
        { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) },
      ),
    );
    return created.id;
  }

  /** Never prompt in an instance whose companion plugin did not announce itself (it would run OpenCode's own
   *  prompt and history). The instance loads its plugins before it answers its first request. */
  private async requirePlugin(): Promise<void> {
    const { supervisor, sideChannel, now, log } = this.ctx;
    const directory = this.lease.directory;
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

  /** Sends the prompt. Returns the error event when OpenCode refused it (no loop runs then), else null. */
  private async prompt(): Promise<ModelEvent | null> {
    const { plan, req } = this;
    this.prompting = true; // before the call: OpenCode may start the loop before it answers
    const prompted = await this.client.session
      .promptAsync(
        {
          sessionID: this.sessionID!,
          agent: BRIDGE_AGENT,
          model: { providerID: req.model.providerID, modelID: req.model.modelID },
          parts: [{ type: "text", text: plan.triggerText }],
          tools: promptToolsMap(plan, this.builtinIds),
          ...(plan.format ? { format: plan.format } : {}),
          ...(plan.variant ? { variant: plan.variant } : {}),
        },
        { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) },
      )
      .catch((err: unknown) => ({ error: err }));
    if (!("error" in prompted) || prompted.error === undefined) return null;
    this.prompting = false; // refused: no loop runs that an abort could interrupt
    const message = `OpenCode did not accept the prompt: ${describe(prompted.error)}`;
    return { type: "error", error: { code: "backend_unavailable", status: 503, message } };
  }

  /** The session's events, through the mapper, until it finishes, fails, the stream drops or the client leaves. */
  private async *relay(): AsyncGenerator<ModelEvent> {
    const { plan } = this;
    const state = createMapperState({
      sessionID: this.sessionID!,
      toolNames: plan.toolNames,
      structured: plan.structured,
    });
    for (;;) {
      const next = await this.queue.next(this.signal);
      if ("aborted" in next) return this.abortSession();
      const m = next.item;
      if (m.kind === "down") {
        const message = `Lost the connection to OpenCode mid-request (${m.reason}).`;
        return void (yield { type: "error", error: { code: "backend_unavailable", status: 503, message } });
      }
      for (const ev of mapOpenCodeEvent(m.event, state, this.ctx.now())) {
        if (ev.type === "finish") this.settled = true; // session.idle: nothing left to stop
        yield ev;
        this.nameSession();
        if (this.signal.aborted) return this.abortSession();
      }
      if (state.done) return; // an error leaves `settled` false: close() stops OpenCode's retries/loop
    }
  }

  /** Stops the session's work in OpenCode, at most once; waits for the instance's set-up if the prompt may be
   *  setting it up (aborting then would break the instance, deferred-abort.ts). */
  private readonly abortSession = (): void => {
    const id = this.sessionID;
    if (!id || this.settled) return;
    this.settled = true;
    if (!this.prompting || this.lease.primed) return void this.sendAbort(id);
    this.deferredAbort = abortAfterSetUp({
      hub: this.ctx.hub,
      sessionID: id,
      abort: () => this.sendAbort(id),
      isSetUp: () => this.lease.primed,
      onModelReached: () => this.lease.markPrimed(),
    });
  };

  /** Sends `session.abort`; resolves when answered, never rejects (a failure is logged). */
  private sendAbort(id: string): Promise<void> {
    return this.client.session
      .abort({ sessionID: id }, { signal: AbortSignal.timeout(ABORT_TIMEOUT_MS) })
      .then(() => {})
      .catch((err: unknown) => this.ctx.log(`[opencode] abort of ${id} failed: ${String(err)}`));
  }

  /** A pooled session still has its placeholder title: it is named after the request once the first event is out
   *  (a write in OpenCode while it starts the model call would delay the first token). Once. */
  private nameSession(): void {
    const id = this.pooled;
    if (!id || this.named) return;
    this.named = true;
    void this.client.session
      .update({ sessionID: id, title: this.title() }, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) })
      .catch((err: unknown) => this.ctx.log(`[opencode] naming session ${id} failed: ${String(err)}`));
  }

  private deleteSession(id: string): void {
    void this.client.session
      .delete({ sessionID: id }, { signal: AbortSignal.timeout(ABORT_TIMEOUT_MS) })
      .catch(() => {});
  }

  /** Ends the run: names or drops a pooled session, unsubscribes, stops OpenCode's work, then releases the spec and
   *  the lease (after a deferred abort: the prompt still runs, the plugin reads the spec, and the instance must not
   *  be disposed under it). */
  private close(): void {
    if (this.prompting) this.nameSession();
    // Taken from the pool but never prompted (client gone first, prompt refused): nobody owns it now.
    else if (this.pooled) this.deleteSession(this.pooled);
    this.signal.removeEventListener("abort", this.abortSession);
    this.unsubscribe();
    this.abortSession();
    const release = () => this.release();
    if (this.deferredAbort) void this.deferredAbort.then(release);
    else release();
  }

  private release(): void {
    const { sideChannel, supervisor, gate, sessionPool } = this.ctx;
    if (this.sessionID) sideChannel.unregister(this.sessionID);
    // Top the pool up for this tool set's next request while still holding the lease (so the instance is not
    // disposed under the new sessions), off this request's path: its answer is complete. Not while a recycle holds
    // requests: the old process is about to go, and a session created in its last moments could be stored with its
    // answer lost (a pooled session nobody owns).
    const refill = supervisor.status().state === "ready" && !supervisor.stopRequested && !gate.isHolding;
    void sessionPool.end(this.lease.directory, this.plan.permission, refill).finally(() => this.lease.release());
  }

  private title(): string {
    return requestTitle(this.req.request.messages) ?? UNTITLED_SESSION;
  }

  private metadata(): Record<string, unknown> {
    return { patchbay: { app: this.req.app } };
  }
}
