// The tokenizer worker (a worker_thread, started by token-count-pool.ts): loads js-tiktoken's o200k_base tables
// (seconds of CPU on a slow machine) and counts tokens, so neither ever blocks the server's event loop.
// Messages in: {id, texts: TextToCount[]}; out: {type: "ready"} once the tables are loaded, then {id, tokens}.
import { parentPort } from "node:worker_threads";
import { getEncoding } from "js-tiktoken";
import { countTexts, type TextToCount } from "./token-counter";

const port = parentPort;
if (port) {
  const encoding = getEncoding("o200k_base");
  port.postMessage({ type: "ready" });
  port.on("message", (m: { id: number; texts: TextToCount[] }) => {
    try {
      port.postMessage({ id: m.id, tokens: countTexts(m.texts, (s) => encoding.encode(s, "all").length) });
    } catch (err) {
      port.postMessage({ id: m.id, error: String(err) });
    }
  });
}
