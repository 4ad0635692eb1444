// App lifecycle decisions: quit = save UI state → stop Patchbay (listeners, then OpenCode) → exit; second launch
// focuses the first; the tray app outlives its windows and renderer crashes. Electron is reached only via AppPort.
import type { AppPort, PreventableEvent } from "./ports";

/** Renderer crash policy: reload, unless it crashed this often recently (then leave it to the user). */
export const RENDERER_CRASH_LIMIT = 3;
export const RENDERER_CRASH_WINDOW_MS = 60_000;
/** Longest wait for Patchbay to stop before exiting anyway (its OpenCode child also exits when its parent dies). */
export const STOP_TIMEOUT_MS = 15_000;

/** `reload-evicted`: Chromium discarded the renderer to free memory; reload it, and it is not a crash. */
export type RendererGoneDecision = "reload" | "reload-evicted" | "give-up" | "ignore";

/**
 * What to do when the dashboard's renderer process ended. `recentCrashes` are epoch ms of earlier crashes. A clean
 * exit is the window closing normally; a memory eviction (Electron 42+) reloads without counting as a crash; anything
 * else (crash, OOM, killed) reloads, up to {@link RENDERER_CRASH_LIMIT} times per {@link RENDERER_CRASH_WINDOW_MS}.
 */
export function decideRendererGone(
  reason: string,
  recentCrashes: readonly number[],
  now: number,
): RendererGoneDecision {
  if (reason === "clean-exit") return "ignore";
  if (reason === "memory-eviction") return "reload-evicted";
  const recent = recentCrashes.filter((t) => now - t < RENDERER_CRASH_WINDOW_MS).length;
  return recent + 1 > RENDERER_CRASH_LIMIT ? "give-up" : "reload";
}

export interface LifecycleDeps {
  app: AppPort;
  /** Stops listeners, OpenCode, flushes stores (Patchbay.stop). */
  stopPatchbay(): Promise<void>;
  /** Runs first on quit (e.g. save window geometry); failures are logged, never block the quit. */
  beforeStop?(): Promise<void>;
  /** Brings the dashboard to the front (second instance, macOS dock activation). */
  showDashboard(): void;
  reloadDashboard(): void;
  /** Tells the user something went wrong that Patchbay will not retry by itself. */
  notify(title: string, body: string): void;
  /** Registers an OS signal handler (process.on in production). */
  onSignal(signal: "SIGINT" | "SIGTERM" | "SIGHUP", handler: () => void): void;
  log(line: string): void;
  now?(): number;
  stopTimeoutMs?: number;
}

type Phase = "running" | "stopping" | "exiting";

/** Wires the lifecycle events and holds the quit state machine (running → stopping → exiting). */
export class Lifecycle {
  private phase: Phase = "running";
  private crashes: number[] = [];
  private stopped: Promise<void> | null = null;

  constructor(private readonly deps: LifecycleDeps) {}

  /** True from the first quit request on: windows then close instead of hiding. */
  get quitting(): boolean {
    return this.phase !== "running";
  }

  /** Resolves when the quit sequence finished (just before app.exit). For tests. */
  get done(): Promise<void> | null {
    return this.stopped;
  }

  install(): void {
    const { app } = this.deps;
    app.onBeforeQuit((event) => this.handleBeforeQuit(event));
    app.onSecondInstance(() => this.deps.showDashboard());
    app.onActivate(() => this.deps.showDashboard());
    // A tray app keeps running with no window; without a listener Electron would quit here.
    app.onWindowAllClosed(() => {});
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      this.deps.onSignal(signal, () => {
        this.deps.log(`received ${signal}, quitting`);
        this.deps.app.quit();
      });
    }
  }

  /** before-quit: cancel the first one, stop Patchbay, then exit; later ones are cancelled while stopping. */
  handleBeforeQuit(event: PreventableEvent): void {
    if (this.phase === "exiting") return;
    event.preventDefault();
    if (this.phase === "stopping") return;
    this.phase = "stopping";
    this.stopped = this.shutdown();
  }

  /** The renderer died: reload it (bounded), never quit the app. */
  handleRendererGone(reason: string): void {
    const now = (this.deps.now ?? Date.now)();
    const decision = decideRendererGone(reason, this.crashes, now);
    if (decision === "ignore") return;
    if (decision === "reload-evicted") {
      this.deps.log(`dashboard renderer evicted to free memory: reloading`);
      this.deps.reloadDashboard();
      return;
    }
    this.crashes = [...this.crashes.filter((t) => now - t < RENDERER_CRASH_WINDOW_MS), now];
    this.deps.log(`dashboard renderer gone (${reason}): ${decision}`);
    if (decision === "reload") {
      this.deps.reloadDashboard();
    } else {
      this.deps.notify(
        "The dashboard keeps crashing",
        "Patchbay's API keeps running. Reopen the dashboard from the tray icon, or quit and restart Patchbay.",
      );
    }
  }

  private async shutdown(): Promise<void> {
    let code = 0;
    try {
      await this.deps.beforeStop?.();
    } catch (err) {
      this.deps.log(`before stop: ${(err as Error).message}`);
    }
    try {
      await withTimeout(this.deps.stopPatchbay(), this.deps.stopTimeoutMs ?? STOP_TIMEOUT_MS);
    } catch (err) {
      code = 1;
      this.deps.log(`stop failed: ${(err as Error).message}`);
    }
    this.phase = "exiting";
    this.deps.app.exit(code);
  }
}

function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Patchbay did not stop within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
