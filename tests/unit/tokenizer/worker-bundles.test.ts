// The tokenizer worker as users run it: the CLI build (dist/cli/build-*/) and the Electron main bundle (dist/main/)
// each emit it as a file of its own, their banner points __patchbayWorkers at it, and it loads js-tiktoken and
// counts there. The sources' path (tsx bootstrap) is what the other tokenizer tests exercise.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { buildCli } from "../../../build/scripts/build-cli.mjs";
import { buildMain } from "../../../build/scripts/build-main.mjs";

let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-worker-bundles-"));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs the worker file: its "ready" message, then the count of "hello world". Bounded: 60 s. */
async function countWith(file: string): Promise<number> {
  const w = new Worker(file);
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the worker did not answer in 60 s")), 60_000);
      w.on("error", reject);
      w.on("message", (m: { type?: string; tokens?: number }) => {
        if (m.type === "ready") w.postMessage({ id: 1, texts: [{ text: "hello world", length: 11 }] });
        else if (typeof m.tokens === "number") {
          clearTimeout(timer);
          resolve(m.tokens);
        }
      });
    });
  } finally {
    await w.terminate();
  }
}

test("the CLI build emits the worker next to its entry and announces the folder in its banner", async (t) => {
  // Inside the repo like dist/cli/: the build keeps npm packages external, resolved from the repo's node_modules.
  const root = path.resolve(import.meta.dirname, "../../..");
  fs.mkdirSync(path.join(root, ".tsbuild"), { recursive: true });
  const distDir = fs.mkdtempSync(path.join(root, ".tsbuild", "worker-cli-"));
  t.after(() => fs.rmSync(distDir, { recursive: true, force: true }));
  const { entry } = await buildCli({ quiet: true, distDir });
  const worker = path.join(path.dirname(entry), "token-count-worker.js");
  assert.ok(fs.existsSync(worker), "token-count-worker.js missing from the CLI build");
  assert.match(fs.readFileSync(entry, "utf8"), /globalThis\.__patchbayWorkers \?\?= \{ dir: __dirname, ext: "\.js" \}/);
  assert.equal(await countWith(worker), 2);
});

test("the Electron main bundle emits the worker as a CommonJS file (unpacked from the asar) and announces it", async () => {
  const bundle = await buildMain({ outdir: path.join(tmp, "main"), quiet: true });
  const worker = path.join(path.dirname(bundle), "token-count-worker.cjs");
  assert.ok(fs.existsSync(worker), "token-count-worker.cjs missing next to main.cjs");
  assert.match(fs.readFileSync(bundle, "utf8"), /globalThis\.__patchbayWorkers \?\?= \{ dir: __dirname\.replace\(/);
  assert.equal(await countWith(worker), 2);
});
