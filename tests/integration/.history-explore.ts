import { test, before, after } from "node:test";
import { performance } from "node:perf_hooks";
import { HistoryService } from "../../server/opencode/history/history-service";
import { createSessions, median, startHistoryEnv, type HistoryEnv } from "./history-support";
const MODEL = { providerID: "mock", modelID: "mock-model" };
let env: HistoryEnv; let inFlight = 0; let history: HistoryService;
before(async () => { env = await startHistoryEnv(); history = new HistoryService({ opencode: env.supervisor, appsDir: env.appsDir, activeRequests: () => (process.env.HOOK ? inFlight : 0) });
  const dirs = ["t1", "t2"].map((t) => env.toolSetDir("s", t));
  await createSessions(env, 3000, (i) => dirs[i % 2]!, (i) => `S-${i}`); });
after(async () => env?.stop());
async function request(dir: string, n: number) { const c = env.supervisor.client(); const t0 = performance.now(); inFlight++; try {
  const s = await c.session.create({ directory: dir, title: `r${n}` });
  await c.session.prompt({ sessionID: s.data!.id, directory: dir, model: MODEL, parts: [{ type: "text", text: `q${n}` }] });
  return performance.now() - t0; } finally { inFlight--; } }
test("explore", async () => {
  const dir = env.toolSetDir("r", "t1"); let n = 0;
  for (let i = 0; i < 4; i++) await request(dir, n++);
  const configs = (process.env.CFGS ?? "2:5").split(",").map((c) => c.split(":").map(Number));
  for (const [conc, pause] of configs) {
    const base: number[] = [], during: number[] = []; let removed = 0; let sweepsMs = 0; let nsweeps = 0;
    for (let round = 0; round < 6; round++) {
      const tA = performance.now(); while (performance.now() - tA < 2000) base.push(await request(dir, n++));
      let on = true; const t = performance.now();
      const sweep = history.prune("s", { limits: { maxSessions: 50, maxAgeDays: null }, budget: 300, deadlineMs: 3000, concurrency: conc, pauseMs: pause, busyIntervalMs: Number(process.env.BI ?? 250) }).then((r) => { on = false; removed += r.removed; sweepsMs += performance.now() - t; nsweeps++; });
      while (on) during.push(await request(dir, n++));
      await sweep;
    }
    console.log(`conc ${conc} pause ${pause}: base ${median(base).toFixed(0)} (${base.length}) during ${median(during).toFixed(0)} (${during.length}) ratio ${(median(during)/median(base)).toFixed(2)} removed ${removed} in ${nsweeps} sweeps ${(sweepsMs/nsweeps).toFixed(0)} ms each, ${(removed/(sweepsMs/1000)).toFixed(1)}/s`);
  }
});
