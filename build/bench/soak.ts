// `npm run bench -- --soak [--soak-minutes N]` (default 10): the bounded OpenCode runtime under churn (issue 15).
// One in-process Patchbay with its real OpenCode against the mock upstream; 3 apps × 10 tool sets, streamed requests
// from 2 workers with idle gaps, a memory limit forced low (OpenCode's RSS after warm-up + 150 MB) so recycles happen.
// Prints OpenCode's RSS per minute (max and time average), recycles, failed requests (must be 0), latency p50/p99 of
// requests that overlapped a recycle vs the rest, and the first request of a tool set cold vs pre-warmed.
// Figures, not a timed test: on a shared 2-core machine they move with the neighbours' load (printed).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPatchbay } from "../../server/index";
import { MockUpstream } from "../../tests/harness/mock-upstream";
import { createOpenCodeUser } from "../../tests/harness/opencode-user";
import { CHAT_STREAM, procRssBytes, sleep, timedStream } from "./measure";

const MODEL = "mock/mock-model";
const MB = 1024 * 1024;

interface Done {
  app: string;
  toolset: number;
  start: number;
  end: number;
  ttftMs: number;
  ok: boolean;
  error: string | null;
}

/** Runs the soak for `minutes` and prints its figures. */
export async function runSoak(minutes: number): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-soak-"));
  const mock = await new MockUpstream().start();
  const user = createOpenCodeUser({ mockBaseURL: mock.baseURL, parentDir: tmp });
  const text = Array.from({ length: 20 }, (_, i) => `tok${i} `).join("");
  mock.setResponder(() => ({ text, chunks: 20, paceMs: 15 }));
  const logs: string[] = [];
  const pb = await createPatchbay({
    dataDir: path.join(tmp, "data"),
    port: 0,
    host: "127.0.0.1",
    userOpenCode: { authFile: null, configFile: user.configFile },
    log: (l) => void logs.push(`${new Date().toISOString()} ${l}`),
    runtime: { timings: { memoryCheckMs: 2000, busyGraceMs: 5000, minUptimeMs: 30_000, reapEveryMs: 10_000 } },
  });
  const urls = await pb.start();
  const loadBefore = os.loadavg();
  try {
    while (pb.status().opencode.state !== "ready") {
      if (pb.status().opencode.state === "failed") throw new Error(pb.status().opencode.reason ?? "failed");
      await sleep(200);
    }
    const admin = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(urls.adminUrl + p, {
        method,
        headers: { authorization: `Bearer ${urls.adminToken}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (!res.ok) throw new Error(`admin ${method} ${p}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const apps = ["soak-a", "soak-b", "soak-c"];
    const keys: Record<string, string> = {};
    for (const app of apps) {
      await admin("POST", "/admin/api/apps", { name: app });
      await admin("PATCH", `/admin/api/apps/${app}`, { limits: { concurrency: 16 } });
      keys[app] = String((await admin("POST", `/admin/api/apps/${app}/keys`, { label: "soak" })).key);
    }
    const ask = async (app: string, toolset: number): Promise<Done> => {
      const start = Date.now();
      try {
        const s = await timedStream(
          `${urls.openaiUrl}/chat/completions`,
          {
            model: MODEL,
            stream: true,
            messages: [{ role: "user", content: "hi" }],
            tools: [
              {
                type: "function",
                function: { name: `${app.replace("-", "_")}_tool_${toolset}`, parameters: { type: "object" } },
              },
            ],
          },
          { authorization: `Bearer ${keys[app]}` },
          CHAT_STREAM,
        );
        return { app, toolset, start, end: Date.now(), ttftMs: s.ttftMs, ok: true, error: null };
      } catch (err) {
        return {
          app,
          toolset,
          start,
          end: Date.now(),
          ttftMs: Number.NaN,
          ok: false,
          error: String(err).slice(0, 200),
        };
      }
    };

    // Warm-up: one request per app, then set the limit just above what a warm OpenCode uses.
    for (const app of apps) await ask(app, 0);
    await sleep(3000);
    const base = procRssBytes(pb.status().opencode.pid ?? 0) ?? 600 * MB;
    const limitMB = Math.round(base / MB) + 150;
    await admin("PATCH", "/admin/api/settings", { opencodeMemoryLimitMB: limitMB });
    progress(`OpenCode warm at ${Math.round(base / MB)} MB; limit forced to ${limitMB} MB; soaking ${minutes} min`);

    // RSS sampled every 2 s; recycles recorded as [start, end] windows from the status.
    const rss: { t: number; bytes: number }[] = [];
    const windows: { start: number; end: number; reason: string }[] = [];
    let seenRecycles = 0;
    const t0 = Date.now();
    const sampler = setInterval(() => {
      const st = pb.status();
      const pid = st.opencode.pid;
      const b = pid ? procRssBytes(pid) : null;
      if (b !== null) rss.push({ t: Date.now() - t0, bytes: b });
      const rt = st.runtime;
      if (rt && rt.recycles > seenRecycles && rt.lastRecycle) {
        seenRecycles = rt.recycles;
        windows.push({
          start: rt.lastRecycle.at - rt.lastRecycle.pauseMs,
          end: rt.lastRecycle.at,
          reason: rt.lastRecycle.reason,
        });
      }
    }, 2000);

    // Two workers: mostly the app's recent tool sets, sometimes another of its 10, gaps of 0–3 s (idle moments).
    const done: Done[] = [];
    const until = t0 + minutes * 60_000;
    const worker = async (seed: number) => {
      let x = seed;
      const rnd = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      while (Date.now() < until) {
        const app = apps[Math.floor(rnd() * apps.length)]!;
        const toolset = rnd() < 0.7 ? Math.floor(rnd() * 3) : Math.floor(rnd() * 10);
        done.push(await ask(app, toolset));
        await sleep(Math.floor(rnd() * 3000));
      }
    };
    await Promise.all([worker(1), worker(2)]);
    clearInterval(sampler);
    await admin("PATCH", "/admin/api/settings", { opencodeMemoryLimitMB: 0 });

    // Cold vs pre-warmed first request: a recycle (limit 1 MB for a moment), wait for pre-warming, then the most
    // recently used tool set's first request vs a never-seen tool set's.
    const coldWarm: { cold: number[]; warm: number[] } = { cold: [], warm: [] };
    for (let rep = 0; rep < 2; rep++) {
      await ask("soak-a", 0); // most recent of soak-a
      const before = pb.status().runtime?.recycles ?? 0;
      await admin("PATCH", "/admin/api/settings", { opencodeMemoryLimitMB: 1 });
      const deadline = Date.now() + 120_000;
      while ((pb.status().runtime?.recycles ?? 0) === before && Date.now() < deadline) await sleep(500);
      await admin("PATCH", "/admin/api/settings", { opencodeMemoryLimitMB: 0 });
      const warmedBefore = logs.filter((l) => l.includes("pre-warmed")).length;
      const wdeadline = Date.now() + 60_000;
      while (logs.filter((l) => l.includes("pre-warmed")).length < warmedBefore + 1 && Date.now() < wdeadline)
        await sleep(500);
      await sleep(2000);
      const w = await ask("soak-a", 0);
      const c = await ask("soak-a", 100 + rep);
      coldWarm.warm.push(w.end - w.start);
      coldWarm.cold.push(c.end - c.start);
    }

    // ---- report -------------------------------------------------------------------------------------------------
    const perMinute: string[] = [];
    for (let m = 0; m < Math.ceil(minutes); m++) {
      const xs = rss.filter((r) => r.t >= m * 60_000 && r.t < (m + 1) * 60_000).map((r) => r.bytes / MB);
      if (xs.length) perMinute.push(`${m + 1}: max ${Math.round(Math.max(...xs))} avg ${Math.round(avg(xs))}`);
    }
    const all = rss.map((r) => r.bytes / MB);
    const overlaps = (d: Done) => windows.some((w) => d.end >= w.start && d.start <= w.end);
    const lat = (ds: Done[]) => ds.map((d) => d.end - d.start);
    const over = done.filter(overlaps);
    const rest = done.filter((d) => !overlaps(d));
    const failed = done.filter((d) => !d.ok);
    const lines = [
      "",
      `Soak: ${minutes} min, ${done.length} streamed requests over 3 apps × 10 tool sets, limit ${limitMB} MB`,
      `machine: ${os.cpus().length} CPUs, load ${loadBefore.map((l) => l.toFixed(1)).join("/")} → ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join("/")} (shared: figures move with it)`,
      `OpenCode RSS per minute (MB): ${perMinute.join(" | ")}`,
      `OpenCode RSS overall: max ${Math.round(Math.max(...all))} MB, time average ${Math.round(avg(all))} MB`,
      `recycles: ${windows.length} (${windows.map((w) => `${w.end - w.start} ms hold: ${w.reason}`).join("; ")})`,
      `failed requests: ${failed.length}${
        failed.length
          ? ` (${failed
              .slice(0, 3)
              .map((f) => f.error)
              .join(" / ")})`
          : ""
      }`,
      `latency overlapping a recycle: n=${over.length} p50 ${pct(lat(over), 50)} ms p99 ${pct(lat(over), 99)} ms`,
      `latency otherwise:            n=${rest.length} p50 ${pct(lat(rest), 50)} ms p99 ${pct(lat(rest), 99)} ms`,
      `first request of a tool set after a recycle: pre-warmed ${coldWarm.warm.join(", ")} ms; cold ${coldWarm.cold.join(", ")} ms`,
      "",
    ];
    process.stdout.write(lines.join("\n"));
  } finally {
    await pb.stop();
    await mock.stop();
    fs.writeFileSync(path.join(os.tmpdir(), "pb-soak-last.log"), logs.join("\n"));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function avg(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

function pct(xs: number[], p: number): number {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function progress(msg: string): void {
  process.stderr.write(`[soak] ${msg}\n`);
}
