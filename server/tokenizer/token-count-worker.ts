// The tokenizer worker (a worker_thread, started by token-count-pool.ts): builds the o200k_base rank table (up to a
// second of CPU on a slow machine; o200k-counter.ts) and counts tokens, so neither ever blocks the server's event loop.
// Messages in: {id, texts: TextToCount[]}; out: {type: "ready"} once the table is built, then {id, tokens}.
import { parentPort } from "node:worker_threads";
import { createO200kCounter } from "./o200k-counter";
import { countTexts, type TextToCount } from "./token-counter";

const port = parentPort;
if (port) {
  const count = createO200kCounter();
  port.postMessage({ type: "ready" });
  port.on("message", (m: { id: number; texts: TextToCount[] }) => {
    try {
      port.postMessage({ id: m.id, tokens: countTexts(m.texts, count) });
    } catch (err) {
      port.postMessage({ id: m.id, error: String(err) });
    }
  });
}
