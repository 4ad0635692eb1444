// Runs one Patchbay (createPatchbay + its own `opencode serve`) in a child process of the benchmark, so the
// benchmark reads Patchbay's own CPU and memory cleanly (process.cpuUsage / memoryUsage of this process only;
// OpenCode is a separate process). Talks to the parent over IPC only. Started by bench.ts with --expose-gc.
//
// env: BENCH_DATA_DIR, BENCH_USER_CONFIG (the isolated user opencode.json), BENCH_SESSION_POOL (pool size, default 2). IPC in: {type:"usage"} | {type:"stop"}.
// IPC out: {type:"ready", apiBase, adminUrl, adminToken, opencodePid} | {type:"usage", cpuUserUs, cpuSystemUs, rss,
// heapUsed} | {type:"failed", reason}.
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

const gc = (globalThis as { gc?: () => void }).gc;
process.on("message", (msg: { type?: string }) => {
  if (msg?.type === "usage") {
    // Two full collections so RSS reflects live memory, not garbage waiting for the next cycle.
    gc?.();
    gc?.();
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
  } else if (msg?.type === "stop") {
    void pb.stop().then(() => process.exit(0));
  }
});
process.on("disconnect", () => void pb.stop().then(() => process.exit(0)));
