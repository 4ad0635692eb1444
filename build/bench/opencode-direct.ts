// Benchmark target (b): OpenCode's own session API without Patchbay's HTTP layer. A supervised `opencode serve`
// (same generated config, bridge agent and companion plugin as Patchbay's) driven the way the backend drives it:
// session.create → spec on the side channel → promptAsync, with one process-wide `/global/event` stream; first token
// = first text delta of the session, completion = `session.idle`. Used only by bench.ts.
import crypto from "node:crypto";
import http from "node:http";
import { createParser } from "eventsource-parser";
import type { BackendRequest, NeutralRequest } from "../../server/core/contract";
import { InstancePool } from "../../server/opencode/process/instance-pool";
import { mapProviders } from "../../server/opencode/session/models";
import { BRIDGE_AGENT } from "../../server/opencode/process/home/opencode-config";
import { SideChannel } from "../../server/opencode/protocol/side-channel";
import { planBridgeRequest } from "../../server/opencode/session/plan/bridge-plan";
import { promptToolsMap } from "../../server/opencode/session/plan/tools";
import { OpenCodeSupervisor } from "../../server/opencode/process/supervisor";
import type { Sample } from "./measure";

interface Waiter {
  t0: number;
  ttft: number;
  tokens: number;
  resolve: (s: Sample) => void;
  reject: (e: Error) => void;
}

/** A started (b) target. */
export interface OpenCodeDirect {
  pid: number | null;
  /** One request: `text` is what the client sends; the mock decides the answer. */
  request(text: string): Promise<Sample>;
  stop(): Promise<void>;
}

/** Starts OpenCode for `dataDir` with the user config at `configFile`; resolves once the event stream is connected. */
export async function startOpenCodeDirect(
  dataDir: string,
  configFile: string,
  modelId: string,
): Promise<OpenCodeDirect> {
  const sideChannel = new SideChannel();
  const supervisor = new OpenCodeSupervisor({
    dataDir,
    user: { authFile: null, configFile },
    sideChannel,
    log: () => {},
  });
  await supervisor.start();
  if (supervisor.status().state !== "ready")
    throw new Error(`OpenCode (b) did not start: ${supervisor.status().reason}`);
  const pool = new InstancePool({ dataDir, maxLive: 6, dispose: async () => {} });
  const defaultClient = supervisor.client(supervisor.defaultDirectory() ?? undefined);
  const providers = await defaultClient.config.providers({});
  const model = mapProviders(providers.data?.providers ?? []).find((m) => m.id === modelId);
  if (!model) throw new Error(`OpenCode (b) has no model ${modelId}`);
  const builtinIds = (await defaultClient.tool.ids({})).data ?? [];

  // One event stream for the process, demultiplexed by session id (as Patchbay's event hub does).
  const waiters = new Map<string, Waiter>();
  const conn = supervisor.connection()!;
  const agent = new http.Agent({ keepAlive: true });
  const stream = await new Promise<http.ClientRequest>((resolve, reject) => {
    const req = http.request(new URL("/global/event", conn.url), {
      headers: { authorization: conn.authorization, accept: "text/event-stream" },
      agent,
    });
    req.on("response", (res) => {
      if (res.statusCode !== 200) return reject(new Error(`event stream: HTTP ${res.statusCode}`));
      res.setEncoding("utf8");
      const parser = createParser({ onEvent: (ev) => dispatch(ev.data) });
      res.on("data", (c: string) => parser.feed(c));
      resolve(req);
    });
    req.on("error", reject);
    req.end();
  });

  function dispatch(data: string): void {
    let payload: { type?: string; properties?: Record<string, unknown> } | undefined;
    try {
      payload = (JSON.parse(data) as { payload?: typeof payload }).payload;
    } catch {
      return;
    }
    const p = payload?.properties ?? {};
    const sid = typeof p.sessionID === "string" ? p.sessionID : undefined;
    const w = sid ? waiters.get(sid) : undefined;
    if (!w) return;
    if (payload?.type === "message.part.delta" && p.field === "text") {
      w.tokens++;
      if (w.ttft < 0) w.ttft = performance.now() - w.t0;
    } else if (payload?.type === "session.idle") {
      const total = performance.now() - w.t0;
      waiters.delete(sid!);
      w.resolve({ ttftMs: w.ttft < 0 ? total : w.ttft, totalMs: total, tokens: w.tokens });
    } else if (payload?.type === "session.error") {
      waiters.delete(sid!);
      w.reject(new Error(`OpenCode (b) session error: ${JSON.stringify(p.error).slice(0, 300)}`));
    }
  }

  return {
    pid: supervisor.status().pid,
    async request(text) {
      const neutral: NeutralRequest = {
        model: modelId,
        system: [],
        messages: [{ role: "user", content: [{ type: "text", text }] }],
        tools: [],
        toolChoice: "auto",
        generation: {},
        responseFormat: { type: "text" },
        stream: true,
        includeUsage: false,
        warnings: [],
      };
      const req: BackendRequest = { app: "bench", model, request: neutral };
      const plan = planBridgeRequest(req, { now: Date.now(), idPrefix: crypto.randomBytes(4).toString("hex") });
      const lease = await pool.acquire("bench", plan.toolset, plan.toolsetHash);
      const client = supervisor.client(lease.directory);
      const t0 = performance.now();
      try {
        const created = await client.session.create({
          title: `bench: ${text.slice(0, 40)}`,
          permission: plan.permission,
        });
        const id = created.data?.id;
        if (!id) throw new Error(`OpenCode (b) could not create a session: ${JSON.stringify(created.error)}`);
        sideChannel.register(id, plan.spec);
        const done = new Promise<Sample>((resolve, reject) =>
          waiters.set(id, { t0, ttft: -1, tokens: 0, resolve, reject }),
        );
        const prompted = await client.session.promptAsync({
          sessionID: id,
          agent: BRIDGE_AGENT,
          model: { providerID: model.providerID, modelID: model.modelID },
          parts: [{ type: "text", text: plan.triggerText }],
          tools: promptToolsMap(plan, builtinIds),
        });
        if (prompted.error) throw new Error(`OpenCode (b) refused the prompt: ${JSON.stringify(prompted.error)}`);
        try {
          return await done;
        } finally {
          sideChannel.unregister(id);
        }
      } finally {
        lease.release();
      }
    },
    async stop() {
      stream.destroy();
      agent.destroy();
      await supervisor.stop();
      await sideChannel.stop();
    },
  };
}
