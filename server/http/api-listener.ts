// The OpenAI/Anthropic API listener's lifecycle: where it binds (settings, command-line pins, LAN exposure), start,
// stop, rebinding when those settings change, and its status row. Must not know what the app behind it serves.
import type { RequestListener } from "node:http";
import type { PatchbayError } from "../core/errors";
import type { ApiStatus } from "../../shared/status";
import type { Settings } from "../../shared/settings";
import { Listener } from "./listener";

/** The settings the API listener binds by (a narrow view of the settings store). */
export type ApiBindSettings = Pick<Settings, "host" | "port" | "lanExposure">;

/** Dependencies of {@link ApiListener}. */
export interface ApiListenerDeps {
  /** The app to serve (the OpenAI/Anthropic wire app). */
  handler: RequestListener;
  /** The JSON body of an error met before the app saw the request (a malformed request line or header). */
  errorBody: (err: PatchbayError) => unknown;
  /** Current bind settings and change notifications (the settings store fits). */
  settings: { get(): ApiBindSettings; onChange(listener: (s: ApiBindSettings) => void): unknown };
  /** Host/port fixed for this run by the command line (`serve --host/--port`); `port: 0` picks a free port once. */
  pinned?: { host?: string; port?: number };
  /** Whether a failed start is logged: not while Patchbay itself starts, because its caller reports that failure. */
  logFailures: () => boolean;
  log: (line: string) => void;
  /** Called after every start, stop or rebind (the status changed). */
  onChange: () => void;
}

/**
 * The API listener. Binds to the stored host/port unless the command line pinned them; LAN exposure binds all
 * interfaces. A busy port is not an exception: `status().error` says why it is not running. Operations run one at a
 * time, so a burst of settings changes cannot start two servers.
 */
export class ApiListener {
  private readonly listener: Listener;
  /** `--port 0` picks a free port once; later restarts in this run reuse it so the printed URL stays valid. */
  private pinnedPort: number | undefined;
  /** The settings the listener was last bound by, to tell a relevant change from any other settings change. */
  private bound: ApiBindSettings;
  /** Tail of the operation queue (start/stop/rebind never interleave). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ApiListenerDeps) {
    const s = deps.settings.get();
    this.listener = new Listener(deps.handler, s.host, s.port, deps.errorBody);
    this.pinnedPort = deps.pinned?.port;
    this.bound = { host: s.host, port: s.port, lanExposure: s.lanExposure };
    deps.settings.onChange((next) => this.settingsChanged(next));
  }

  /** True when the command line fixed host or port; saved host/port then apply only at the next launch. */
  get pinned(): boolean {
    return this.deps.pinned?.port !== undefined || this.deps.pinned?.host !== undefined;
  }

  /** Starts listening (no-op if running). Resolves once bound or failed; never throws for a busy port. */
  start(): Promise<void> {
    return this.enqueue(() => this.startNow());
  }

  /** Stops listening, giving in-flight requests `graceMs` (default 2 s) before their connections are closed. */
  stop(graceMs?: number): Promise<void> {
    return this.enqueue(async () => {
      await this.listener.stop(graceMs);
      this.deps.onChange();
    });
  }

  /** Stops for shutdown: like {@link stop} but announces nothing (the status listeners are going away too). */
  close(graceMs?: number): Promise<void> {
    return this.enqueue(() => this.listener.stop(graceMs));
  }

  /** The status row shown by the tray, the Overview page and `GET /admin/api/status`. */
  status(): ApiStatus {
    const a = this.listener.current;
    // 0.0.0.0 is where it listens, not an address a client can use; loopback reaches it from this machine.
    const displayHost = a.host === "0.0.0.0" ? "127.0.0.1" : a.host;
    return {
      running: a.running,
      host: a.host,
      port: a.port,
      baseUrl: a.running ? `http://${displayHost}:${a.port}/v1` : null,
      error: a.error,
      lanExposure: this.deps.settings.get().lanExposure,
      pinned: this.pinned,
      portPicked: (this.deps.pinned?.port ?? this.deps.settings.get().port) === 0,
    };
  }

  private host(): string {
    const s = this.deps.settings.get();
    return s.lanExposure ? "0.0.0.0" : (this.deps.pinned?.host ?? s.host);
  }

  private port(): number {
    return this.pinnedPort ?? this.deps.settings.get().port;
  }

  private async startNow(): Promise<void> {
    const st = await this.listener.start(this.host(), this.port());
    if (st.error && this.deps.logFailures()) this.deps.log(`OpenAI API not started: ${st.error}`);
    else if (this.pinnedPort === 0) this.pinnedPort = st.port;
    this.deps.onChange();
  }

  /** Host, port or LAN exposure changed while the API runs: rebind so the change takes effect at once. */
  private settingsChanged(s: ApiBindSettings): void {
    const next = { host: s.host, port: s.port, lanExposure: s.lanExposure };
    // With --host/--port pinned, only LAN exposure can change where the API listens.
    const changed =
      next.lanExposure !== this.bound.lanExposure ||
      (!this.pinned && (next.host !== this.bound.host || next.port !== this.bound.port));
    this.bound = next;
    if (!changed) return;
    void this.enqueue(async () => {
      if (!this.listener.current.running) return;
      await this.listener.stop();
      await this.startNow();
    });
  }

  private enqueue(op: () => Promise<void>): Promise<void> {
    const run = this.queue.then(op);
    // The queue continues after a failed operation; the caller still sees the failure.
    this.queue = run.catch(() => undefined);
    return run;
  }
}
