// Runs one Patchbay (createPatchbay + its own `opencode serve`) in a child process of the benchmark, so the
// benchmark reads Patchbay's own CPU and memory cleanly (process.cpuUsage / memoryUsage of this process only;
// OpenCode is a separate process). Talks to the parent over IPC only. Started by bench.ts with --expose-gc.
//
// env: BENCH_DATA_DIR, BENCH_USER_CONFIG (the isolated user opencode.json), BENCH_SESSION_POOL (pool size, default 2).
// IPC in: {type:"usage"} | {type:"cpu"} | {type:"loop-delay"} | {type:"stop"}.
// IPC out: {type:"ready", apiBase, adminUrl, adminToken, opencodePid} | {type:"usage", cpuUserUs, cpuSystemUs, rss,
// heapUsed} | {type:"cpu", ...} | {type:"loop-delay", p50, p99, max} (ms, since the previous reading) | {type:"failed", reason}.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createPatchbay } from "../../server/index";

const dataDir = process.env.BENCH_DATA_DIR;
const configFile = process.env.BENCH_USER_CONFIG;
if (!dataDir || !configFile || !process.send) {
  process.stderr.write("patchbay-child: BENCH_DATA_DIR, BENCH_USER_CONFIG and an IPC channel are required\n");
  process.exit(2);
}
const send = (msg: unknown) => process.send?.(msg);

const pb = await createPatchbay({
  dataDir,
  port: 0,
  host: "127.0.0.1",
  userOpenCode: { authFile: null, configFile },
  log: (line) => process.stderr.write(`${line}\n`),
  runtime: { sessionPoolSize: Number(process.env.BENCH_SESSION_POOL ?? "2") },
});
const urls = await pb.start();
const deadline = Date.now() + 90_000;
while (pb.status().opencode.state !== "ready") {
  const st = pb.status().opencode;
  if (st.state === "failed" || Date.now() > deadline) {
    send({ type: "failed", reason: `OpenCode ${st.state}: ${st.reason ?? "not ready in time"}` });
    await pb.stop();
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 100));
}
send({
  type: "ready",
  apiBase: urls.openaiUrl,
  adminUrl: urls.adminUrl,
  adminToken: urls.adminToken,
  opencodePid: pb.status().opencode.pid,
});

// Event-loop delay at 10 ms resolution (the histogram records how late each timer tick ran): a request that does long
// synchronous work (a tokenizer set-up, a big JSON parse) shows up here as delay every other request pays.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const ms = (ns: number) => ns / 1e6;

const gc = (globalThis as { gc?: () => void }).gc;
process.on("message", (msg: { type?: string }) => {
  if (msg?.type === "usage") {
    // Two full collections so RSS reflects live memory, not garbage waiting for the next cycle. The event-loop delay
    // histogram pauses meanwhile: these forced GCs are the benchmark's, not Patchbay's.
    loopDelay.disable();
    gc?.();
    gc?.();
    loopDelay.enable();
    const cpu = process.cpuUsage();
    const mem = process.memoryUsage();
    send({
      type: "usage",
      cpuUserUs: cpu.user,
      cpuSystemUs: cpu.system,
      rss: mem.rss,
      heapUsed: mem.heapUsed,
      opencodePid: pb.status().opencode.pid,
    });
  } else if (msg?.type === "cpu") {
    const cpu = process.cpuUsage();
    send({ type: "cpu", cpuUserUs: cpu.user, cpuSystemUs: cpu.system });
  } else if (msg?.type === "loop-delay") {
    send({
      type: "loop-delay",
      p50: ms(loopDelay.percentile(50)),
      p99: ms(loopDelay.percentile(99)),
      max: ms(loopDelay.max),
    });
    loopDelay.reset();
  } else if (msg?.type === "stop") {
    void pb.stop().then(() => process.exit(0));
  }
});
process.on("disconnect", () => void pb.stop().then(() => process.exit(0)));
