// The main thread's side of the tokenizer worker (token-count-worker.ts): started on the first count, stopped after
// a while without one (the worker and its table take ≈ 50 MB of RSS), and never in the way of other requests: loading the tables and
// counting run off the event loop (issue 26 item 4: the first count used to block the server for ~3 s).
import type { Worker } from "node:worker_threads";
import { startWorker } from "./worker-thread";
import { DEFAULT_TOKENS_PER_CHAR, withinBudget, type TextToCount } from "./token-counter";

/** Idle time after which the worker is stopped (ms): Claude Code counts in bursts around its prompts. */
const IDLE_STOP_MS = 5 * 60_000;
/** The worker's young generation (MB; V8's default lets it grow to 48): building the rank table makes ~100 MB of
 *  short-lived garbage, and a large young generation keeps tens of MB of it resident for the worker's lifetime.
 *  Measured by `npm run bench -- --footprint`: the first count_tokens costs ≈ +50 MB of RSS with 4, ≈ +60 with 48. */
const WORKER_YOUNG_GENERATION_MB = 4;

/** Where the worker is: not started, loading its tables, ready, or unusable (then counts are estimated by length). */
export type TokenCounterState = "cold" | "loading" | "ready" | "unavailable";

interface Pending {
  resolve(tokens: number): void;
  texts: TextToCount[];
}

/** How a count was made: with the tokenizer, or from lengths alone when the worker could not run. */
export interface TokenCount {
  tokens: number;
  method: "js-tiktoken o200k_base" | "characters / 4";
}

/** One tokenizer worker, shared by every request of the process. */
class TokenCountPool {
  private worker: Worker | null = null;
  private stateValue: TokenCounterState = "cold";
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly readyWaiters = new Set<() => void>();

  get state(): TokenCounterState {
    return this.stateValue;
  }

  /** Tokens of `texts` (see countTexts). Never rejects: without a worker, `characters / 4`. */
  count(texts: TextToCount[]): Promise<TokenCount> {
    if (this.stateValue === "unavailable") return Promise.resolve(byLength(texts));
    const worker = this.ensureWorker();
    this.touch();
    const id = this.nextId++;
    worker.ref(); // unref'd while idle only, so an awaited count keeps the process alive
    return new Promise<number>((resolve) => {
      this.pending.set(id, { resolve, texts });
      worker.postMessage({ id, texts });
    }).then((tokens) => (tokens < 0 ? byLength(texts) : { tokens, method: "js-tiktoken o200k_base" as const }));
  }

  /** Resolves once the worker has loaded its tables, or could not (tests, the benchmark's warm-up). */
  whenSettled(): Promise<void> {
    if (this.stateValue === "ready" || this.stateValue === "unavailable") return Promise.resolve();
    return new Promise((r) => this.readyWaiters.add(r));
  }

  /** Stops the worker (pending counts fall back to lengths); the next count starts a new one. */
  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.stateValue !== "unavailable") this.stateValue = "cold";
    this.failPending();
    await w?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    this.stateValue = "loading";
    const w = startWorker("token-count-worker", new URL("./token-count-worker.ts", import.meta.url), {
      maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
    });
    // An idle worker must not keep a CLI command (or a test) alive.
    w.unref();
    w.on("message", (m: { type?: string; id?: number; tokens?: number; error?: string }) => {
      if (m.type === "ready") {
        if (this.worker === w) this.stateValue = "ready";
        return this.settleWaiters();
      }
      const p = m.id === undefined ? undefined : this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id!);
      p.resolve(typeof m.tokens === "number" ? m.tokens : -1);
      if (this.pending.size === 0) w.unref();
    });
    w.on("error", (err) => {
      // A worker that cannot run (a packaging that cannot load it): counts fall back to lengths for good.
      process.stderr.write(`[patchbay] the tokenizer worker failed (${String(err)}); counting by length\n`);
      if (this.worker === w) {
        this.worker = null;
        this.stateValue = "unavailable";
      }
      this.failPending();
      this.settleWaiters();
    });
    w.on("exit", () => {
      if (this.worker === w) {
        this.worker = null;
        if (this.stateValue !== "unavailable") this.stateValue = "cold";
      }
      this.failPending();
    });
    this.worker = w;
    return w;
  }

  private touch(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.pending.size === 0) void this.stop();
      else this.touch();
    }, IDLE_STOP_MS);
    this.idleTimer.unref();
  }

  private failPending(): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.resolve(-1);
    }
  }

  private settleWaiters(): void {
    for (const r of [...this.readyWaiters]) r();
    this.readyWaiters.clear();
  }
}

function byLength(texts: TextToCount[]): TokenCount {
  const chars = texts.reduce((n, t) => n + t.length, 0);
  return { tokens: Math.ceil(chars * DEFAULT_TOKENS_PER_CHAR), method: "characters / 4" };
}

/** The process's tokenizer worker. */
export const tokenCountPool = new TokenCountPool();

/** Estimated tokens of `texts` plus `fixedTokens` (framing, media), counted in the process's tokenizer worker (only
 *  what countTexts encodes exactly is sent to it). Never rejects. */
export async function countInputTokens(input: { texts: string[]; fixedTokens: number }): Promise<TokenCount> {
  const counted = await tokenCountPool.count(withinBudget(input.texts));
  return { ...counted, tokens: counted.tokens + input.fixedTokens };
}
