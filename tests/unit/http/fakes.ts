// In-memory fakes for the OpenAI listener's unit tests: one app store with adjustable limits, a key store with one
// key, a request log that records entries, and a scripted ModelBackend that records how each stream ended.
// Also starts createApiApp in a Listener on 127.0.0.1:0. Test-only.
import { modelInfo } from "../../harness/builders";
import { App, type AppLimits } from "../../../shared/apps";
import type { RequestLogEntry } from "../../../shared/log-entry";
import { ConcurrencyGate } from "../../../server/core/concurrency";
import type {
  BackendRequest,
  ModelBackend,
  ModelEvent,
  ModelInfo,
  NeutralRequest,
} from "../../../server/core/contract";
import type { PatchbayError } from "../../../server/core/errors";
import { Listener } from "../../../server/http/listener";
import type { StreamBufferLimits } from "../../../server/http/sse-writer";
import { createApiApp } from "../../../server/http/api-app";
import { WIRES } from "../../../server/wires/table";
import { ResponseStore, type RecordWriter } from "../../../server/responses-store/response-store";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppsStore, KeysStore, LogPage, RequestLog } from "../../../server/stores/types";
import { bareCli } from "../../../server/core/cli-command";

export const KEY = "pb-unitTestKeyUnitTestKeyUnitTestKey000000000";
export const MODEL = "mock/mock-model";

export const MODELS: ModelInfo[] = [
  modelInfo({
    name: "Mock",
    providerName: "Mock",
    variants: ["high"],
    capabilities: { toolCall: true, attachment: false, reasoning: false, temperature: true },
    limit: { context: 1000, output: 100 },
  }),
];

/** One app `unit` whose limits tests change freely (no schema minimums, so timeouts can be a few ms). */
export class OneApp implements AppsStore {
  app: App = App.parse({ id: "app_1", name: "unit", createdAt: 0 });
  setLimits(limits: Partial<AppLimits>): void {
    this.app = { ...this.app, limits: { ...this.app.limits, ...limits } };
  }
  list(): App[] {
    return [this.app];
  }
  get(name: string): App | undefined {
    return name === this.app.name ? this.app : undefined;
  }
  async create(): Promise<App> {
    throw new Error("not in unit tests");
  }
  async update(): Promise<App> {
    throw new Error("not in unit tests");
  }
  async delete(): Promise<void> {}
  onChange(): () => void {
    return () => {};
  }
}

export class OneKey implements KeysStore {
  async create(): Promise<never> {
    throw new Error("not in unit tests");
  }
  list() {
    return [];
  }
  async revoke(): Promise<void> {}
  async revokeAll(): Promise<void> {}
  verify(presented: string) {
    return presented === KEY ? { app: "unit", prefix: "unitTest" } : null;
  }
}

export class MemoryLog implements RequestLog {
  entries: RequestLogEntry[] = [];
  append(entry: RequestLogEntry): void {
    this.entries.push(entry);
  }
  query(): LogPage {
    return { entries: this.entries, nextCursor: null };
  }
  recent(): RequestLogEntry[] {
    return this.entries;
  }
  subscribe(): () => void {
    return () => {};
  }
  usage() {
    return [];
  }
  totals() {
    return { requests: 0, errors: 0, requestsToday: 0, errorsToday: 0 };
  }
  lastError(): string | null {
    return null;
  }
  async close(): Promise<void> {}
}

/** A step of a scripted stream: an event, a pause (ms), or "hang" (wait until aborted). */
/** One step of a scripted stream: an event, a pause, a hang until aborted, or a throw (a backend bug). */
export type Step = ModelEvent | { wait: number } | "hang" | { throws: Error };

/** How one backend stream ended. */
export interface StreamRecord {
  request: BackendRequest;
  signal: AbortSignal;
  /** The generator's `finally` ran (the runner closed the iterator or it completed). */
  closed: boolean;
  abortedAt: number | null;
}

/** A ModelBackend that plays `script(request, backendRequest)` and records each stream. */
export class ScriptedBackend implements ModelBackend {
  streams: StreamRecord[] = [];
  /** The steps of one stream; `backendRequest` (model, variant) lets a script run the real planner. */
  script: (req: NeutralRequest, backendRequest: BackendRequest) => Step[] = () => textAnswer("hi");
  listError: PatchbayError | null = null;
  /** Delay of listModels (ms), e.g. OpenCode slow to answer. */
  listDelayMs = 0;
  /** How many times the model list was asked for. */
  listCalls = 0;

  async listModels(): Promise<ModelInfo[]> {
    this.listCalls++;
    if (this.listDelayMs) await new Promise((r) => setTimeout(r, this.listDelayMs));
    if (this.listError) throw this.listError;
    return MODELS;
  }

  async *stream(request: BackendRequest, signal: AbortSignal): AsyncGenerator<ModelEvent> {
    const rec: StreamRecord = { request, signal, closed: false, abortedAt: null };
    this.streams.push(rec);
    signal.addEventListener("abort", () => (rec.abortedAt = Date.now()), { once: true });
    try {
      for (const step of this.script(request.request, request)) {
        if (signal.aborted) return;
        if (step === "hang") await untilAborted(signal);
        else if ("wait" in step) await sleepOrAbort(step.wait, signal);
        else if ("throws" in step) throw step.throws;
        else yield step;
      }
    } finally {
      rec.closed = true;
    }
  }
}

/** `start`, the text in one delta, `finish stop`. */
export function textAnswer(text: string): Step[] {
  return [
    { type: "start", sessionId: "ses_unit", warnings: [] },
    { type: "text-delta", delta: text },
    {
      type: "finish",
      reason: "stop",
      usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 },
    },
  ];
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

function sleepOrAbort(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
}

/** A started OpenAI listener over the fakes. */
export interface UnitServer {
  base: string;
  port: number;
  apps: OneApp;
  backend: ScriptedBackend;
  log: MemoryLog;
  gate: ConcurrencyGate;
  lan: { on: boolean };
  diagnostics: string[];
  /** The data folder of the stored responses (its `responses/` subfolder holds the records). */
  responsesDir: string;
  /** fetch with the unit key (unless `key: null`) and JSON content type. */
  call(pathname: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/** Starts createApiApp with the fakes in a Listener on 127.0.0.1:0. `commitAfterMs` defaults to 1000 like production. */
export async function startUnitServer(
  opts: {
    commitAfterMs?: number;
    keepaliveMs?: number;
    bodyDeadlines?: { idleMs?: number; totalMs?: number };
    /** Replaces the stored-responses writer (fault tests: a disk that fails). */
    responseWriter?: RecordWriter;
    /** Stream buffer limits (a client that stops reading). */
    streamBuffer?: Partial<StreamBufferLimits>;
  } = {},
): Promise<UnitServer> {
  const apps = new OneApp();
  const backend = new ScriptedBackend();
  const log = new MemoryLog();
  const gate = new ConcurrencyGate();
  const lan = { on: false };
  const diagnostics: string[] = [];
  const responsesDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-unit-responses-"));
  const app = createApiApp(
    {
      apps,
      cli: bareCli,
      keys: new OneKey(),
      responses: new ResponseStore({
        dataDir: responsesDir,
        ...(opts.responseWriter ? { writeFile: opts.responseWriter } : {}),
      }),
      backend,
      catalog: () => backend.listModels(),
      gate,
      requestLog: log,
      logBodies: () => false,
      inlineImages: async (request) => request,
      now: Date.now,
      lanExposure: () => lan.on,
      health: () => ({ ok: true, opencode: "ready" }),
      log: (line) => diagnostics.push(line),
      ...(opts.commitAfterMs !== undefined ? { commitAfterMs: opts.commitAfterMs } : {}),
      ...(opts.keepaliveMs !== undefined ? { keepaliveMs: opts.keepaliveMs } : {}),
      ...(opts.bodyDeadlines ? { bodyDeadlines: opts.bodyDeadlines } : {}),
      ...(opts.streamBuffer ? { streamBuffer: opts.streamBuffer } : {}),
    },
    WIRES,
  );
  const listener = new Listener(app, "127.0.0.1", 0, WIRES.unmatchedErrorBody);
  const st = await listener.start();
  const base = `http://127.0.0.1:${st.port}`;
  return {
    base,
    apps,
    backend,
    log,
    gate,
    lan,
    diagnostics,
    responsesDir,
    call(pathname, init = {}) {
      const { key = KEY, ...rest } = init;
      const headers: Record<string, string> = { ...(rest.headers as Record<string, string>) };
      if (key) headers.authorization = `Bearer ${key}`;
      if (rest.body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
      return fetch(base + pathname, { ...rest, headers });
    },
    port: st.port,
    async close() {
      await listener.stop(0);
      fs.rmSync(responsesDir, { recursive: true, force: true });
    },
  };
}

/** A chat body with one user message. */
export function chat(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hello" }], ...extra });
}
