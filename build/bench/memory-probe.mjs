// Preloaded into a measured Patchbay (`node --expose-gc --import ./memory-probe.mjs bin/patchbay.mjs serve …`, by
// footprint.ts) so the benchmark can read the process's own memory without any Patchbay code knowing about it.
// Talks over the IPC channel the parent opened (and unrefs it: it must not keep the process alive).
// IPC in:  {type: "usage", gc: boolean}  → {type: "usage", memory: process.memoryUsage(), threads: number}
//          {type: "snapshot", file}      → {type: "snapshot", file} once v8.writeHeapSnapshot(file) wrote it
import fs from "node:fs";
import v8 from "node:v8";

if (process.send && process.channel) {
  process.channel.unref();
  process.on("message", (msg) => {
    if (msg?.type === "usage") {
      // Two full collections so the figures are live memory, not garbage waiting for the next cycle.
      if (msg.gc && globalThis.gc) {
        globalThis.gc();
        globalThis.gc();
      }
      let threads = 0;
      try {
        threads = fs.readdirSync("/proc/self/task").length;
      } catch {}
      process.send?.({ type: "usage", memory: process.memoryUsage(), threads });
    } else if (msg?.type === "snapshot") {
      process.send?.({ type: "snapshot", file: v8.writeHeapSnapshot(msg.file) });
    }
  });
}
