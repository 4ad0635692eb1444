// Runs benchmark target (b), OpenCode's session API driven without Patchbay, in its own process: like Patchbay in
// patchbay-child.ts, its SDK calls and event parsing then do not share the benchmark's event loop with the mock
// upstream and the HTTP clients (which would slow (b) down and flatter Patchbay's ratios). IPC only.
//
// env: BENCH_DATA_DIR, BENCH_USER_CONFIG, BENCH_MODEL. IPC in: {type:"request", id, text} | {type:"stop"}.
// IPC out: {type:"ready", opencodePid} | {type:"sample", id, sample} | {type:"error", id, message} | {type:"failed", reason}.
import { startOpenCodeDirect } from "./opencode-direct";

const { BENCH_DATA_DIR: dataDir, BENCH_USER_CONFIG: configFile, BENCH_MODEL: model } = process.env;
if (!dataDir || !configFile || !model || !process.send) {
  process.stderr.write("opencode-direct-child: BENCH_DATA_DIR, BENCH_USER_CONFIG, BENCH_MODEL and IPC are required\n");
  process.exit(2);
}
const send = (msg: unknown) => process.send?.(msg);

const oc = await startOpenCodeDirect(dataDir, configFile, model).catch((err: unknown) => {
  send({ type: "failed", reason: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
send({ type: "ready", opencodePid: oc.pid });
process.on("message", (msg: { type?: string; id?: number; text?: string }) => {
  if (msg?.type === "request") {
    oc.request(msg.text ?? "hi").then(
      (sample) => send({ type: "sample", id: msg.id, sample }),
      (err: unknown) => send({ type: "error", id: msg.id, message: err instanceof Error ? err.message : String(err) }),
    );
  } else if (msg?.type === "stop") {
    void oc.stop().then(() => process.exit(0));
  }
});
process.on("disconnect", () => void oc.stop().then(() => process.exit(0)));
