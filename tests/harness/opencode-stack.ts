// Starts the whole OpenCode bridge for an integration test file: mock upstream, isolated "user" OpenCode setup, temp
// data dir, side channel, supervised `opencode serve` and the backend; `stop()` tears everything down (no process left).
// Also small helpers to build neutral requests and drain a backend stream. Test-only.
import { modelInfo } from "./builders";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type {
  BackendRequest,
  ModelEvent,
  ModelInfo,
  NeutralRequest,
  ToolDefinition,
  Usage,
} from "../../server/core/contract";
import { formatWarning } from "../../server/core/warnings";
import { createOpenCodeBackend, type OpenCodeBackend } from "../../server/opencode/session/backend";
import { SideChannel } from "../../server/opencode/protocol/side-channel";
import { OpenCodeSupervisor, type OpenCodeSupervisorOptions } from "../../server/opencode/process/supervisor";
import { MockUpstream } from "./mock-upstream";
import { createOpenCodeUser, type OpenCodeUser } from "./opencode-user";

/** A running stack. */
export interface BridgeStack {
  mock: MockUpstream;
  user: OpenCodeUser;
  dataDir: string;
  sideChannel: SideChannel;
  supervisor: OpenCodeSupervisor;
  backend: OpenCodeBackend;
  /** Diagnostic lines (OpenCode output included); printed by `stop()` when PB_TEST_VERBOSE is set. */
  logs: string[];
  /** Milliseconds from `start()` to `ready`. */
  startupMs: number;
  stop(): Promise<void>;
}

/** Options of {@link startBridgeStack}. */
export interface BridgeStackOptions {
  supervisor?: Partial<OpenCodeSupervisorOptions>;
  maxLiveInstances?: number;
  /** Extra keys for the user's opencode.json (must not leak into requests). */
  userConfig?: Record<string, unknown>;
}

/** Starts the stack and waits until OpenCode is ready (throws if it fails). */
export async function startBridgeStack(opts: BridgeStackOptions = {}): Promise<BridgeStack> {
  const logs: string[] = [];
  const log = (line: string) => {
    logs.push(line);
    if (logs.length > 2000) logs.shift();
  };
  const mock = await new MockUpstream().start();
  const user = createOpenCodeUser({ mockBaseURL: mock.baseURL, extraConfig: opts.userConfig });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-data-"));
  const sideChannel = new SideChannel();
  const supervisor = new OpenCodeSupervisor({
    dataDir,
    user: { authFile: user.authFile, configFile: user.configFile },
    sideChannel,
    log,
    ...opts.supervisor,
  });
  const t0 = Date.now();
  await supervisor.start();
  const startupMs = Date.now() - t0;
  const backend = createOpenCodeBackend({
    supervisor,
    dataDir,
    sideChannel,
    log,
    ...(opts.maxLiveInstances ? { maxLiveInstances: opts.maxLiveInstances } : {}),
  });
  const stack: BridgeStack = {
    mock,
    user,
    dataDir,
    sideChannel,
    supervisor,
    backend,
    logs,
    startupMs,
    async stop() {
      await backend.close();
      await supervisor.stop();
      await sideChannel.stop();
      await mock.stop();
      user.cleanup();
      if (process.env.PB_TEST_VERBOSE) process.stderr.write(logs.join("\n") + "\n");
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (supervisor.status().state !== "ready") {
    const reason = supervisor.status().reason;
    await stack.stop();
    throw new Error(`OpenCode did not start: ${reason}\n${logs.slice(-30).join("\n")}`);
  }
  return stack;
}

/** `mock/<modelID>` as the backend lists it for the provider block of opencode-user.ts (the reasoner has variants,
 *  the vision model takes attachments). */
export function mockModel(modelID: string): ModelInfo {
  return modelInfo({
    modelID,
    variants: modelID === "mock-reasoner" ? ["high", "low", "medium"] : [],
    capabilities: {
      toolCall: true,
      attachment: modelID === "mock-vision",
      reasoning: modelID === "mock-reasoner",
      temperature: true,
    },
  });
}

/** A backend request for `mock/<modelID>` (the model as the mock provider lists it; resolution is the runner's job). */
export function backendRequest(
  request: NeutralRequest,
  modelID = "mock-model",
  app = "test-app",
  variant?: string,
): BackendRequest {
  return { app, model: mockModel(modelID), ...(variant ? { variant } : {}), request };
}

/** Everything one stream produced, plus arrival times (ms since the call). */
export interface StreamResult {
  events: ModelEvent[];
  times: number[];
  sessionId: string | null;
  /** The `start` event's warnings as text (formatWarning), as the header shows them. */
  warnings: string[];
  text: string;
  reasoning: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finish: { reason: string; usage: Usage } | null;
  error: { code: string; status: number; message: string; retryAfter?: number } | null;
  durationMs: number;
}

/** Drains `backend.stream(req)`; `onEvent` may abort via the controller. Throws what the backend throws before start. */
export async function runStream(
  backend: OpenCodeBackend,
  req: BackendRequest,
  opts: { controller?: AbortController; onEvent?: (e: ModelEvent, r: StreamResult) => void; timeoutMs?: number } = {},
): Promise<StreamResult> {
  const controller = opts.controller ?? new AbortController();
  // Generous: a first request after an OpenCode (re)start boots an instance, which takes over 30 s on 2 loaded cores.
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 90_000);
  const t0 = Date.now();
  const r: StreamResult = {
    events: [],
    times: [],
    sessionId: null,
    warnings: [],
    text: "",
    reasoning: "",
    toolCalls: [],
    finish: null,
    error: null,
    durationMs: 0,
  };
  try {
    for await (const e of backend.stream(req, controller.signal)) {
      r.events.push(e);
      r.times.push(Date.now() - t0);
      if (e.type === "start") {
        r.sessionId = e.sessionId;
        r.warnings = e.warnings.map(formatWarning);
      } else if (e.type === "text-delta") r.text += e.delta;
      else if (e.type === "reasoning-delta") r.reasoning += e.delta;
      else if (e.type === "tool-call") r.toolCalls.push({ id: e.id, name: e.name, arguments: e.arguments });
      else if (e.type === "finish") r.finish = { reason: e.reason, usage: e.usage };
      else if (e.type === "error") r.error = e.error;
      opts.onEvent?.(e, r);
    }
  } finally {
    clearTimeout(timer);
    r.durationMs = Date.now() - t0;
  }
  return r;
}

/** A JSON-schema tool definition. */
export function tool(
  name: string,
  properties: Record<string, unknown> = {},
  description = `The ${name} tool`,
): ToolDefinition {
  return { name, description, parameters: { type: "object", properties, required: Object.keys(properties) } };
}

/** True while a process with `pid` exists and is not a zombie (an unreaped zombie has already exited). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

export { neutralRequest } from "./neutral-fixtures";
export { waitFor } from "./wait-for";
