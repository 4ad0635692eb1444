// The compiled CLI (build/scripts/build-cli.mjs, run by bin/patchbay.mjs): what a light command loads at start, and
// that a changed source is always detected (a stale build must never run).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildCli } from "../../../build/scripts/build-cli.mjs";
import { MANIFEST_VERSION, freshCliBuild } from "../../../build/scripts/cli-build-state.mjs";

let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cli-build-"));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test("start-up loads no server: express, the OpenCode SDK, the tokenizer, the admin schemas are in lazy chunks", async () => {
  const distDir = path.join(tmp, "dist-cli");
  const { entry, metafile } = await buildCli({ quiet: true, distDir });
  const outputs = metafile.outputs;
  // Output paths are relative to the repo root (the build's working folder).
  const ROOT = path.resolve(import.meta.dirname, "../../..");
  const key = Object.keys(outputs).find((k) => path.resolve(ROOT, k) === entry);
  assert.ok(key, `entry ${entry} not among ${Object.keys(outputs).join(", ")}`);
  // Everything the entry reaches through static imports runs before any command: that is what `app list` pays for.
  const seen = new Set<string>();
  const externals = new Set<string>();
  const queue = [key];
  while (queue.length) {
    const out = queue.shift() as string;
    if (seen.has(out)) continue;
    seen.add(out);
    for (const imp of outputs[out]?.imports ?? []) {
      if (imp.kind !== "import-statement") continue;
      if (imp.external) externals.add(imp.path);
      else queue.push(imp.path);
    }
  }
  const inputs = [...seen].flatMap((o) => Object.keys(outputs[o]?.inputs ?? {}));
  assert.ok(inputs.includes("server/cli/commands/app.ts"), "the app commands are in the start-up graph");
  const heavy = inputs.filter((f) =>
    /^(server\/index\.ts|server\/http\/|server\/opencode\/|server\/openai\/|shared\/admin-api\.ts)/.test(f),
  );
  assert.deepEqual(heavy, [], "server modules loaded at start");
  const npm = [...externals].filter((p) => !p.startsWith("node:"));
  assert.deepEqual(npm, [], "npm packages loaded at start from node_modules (express, @opencode-ai/sdk, js-tiktoken…)");
  // The manifest names the build and every input, so bin/patchbay.mjs can check it.
  assert.deepEqual((await freshCliBuild({ distDir })).entry, entry);
});

describe("freshCliBuild", () => {
  let root: string;
  let distDir: string;
  let source: string;

  /** A build of one source file, recorded as esbuild would have seen it `ageMs` ago. */
  function writeBuild(ageMs: number) {
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    const s = fs.statSync(source);
    fs.mkdirSync(path.join(distDir, "build-1"), { recursive: true });
    fs.writeFileSync(path.join(distDir, "build-1", "cli.js"), "");
    const manifest = {
      version: MANIFEST_VERSION,
      startedAt: s.mtimeMs + ageMs,
      build: "build-1",
      entry: "cli.js",
      inputs: [
        { path: "src.ts", size: s.size, mtimeMs: s.mtimeMs, sha256: sha(fs.readFileSync(source)) },
        { path: "gone.json", missing: true },
      ],
    };
    fs.writeFileSync(path.join(distDir, "manifest.json"), JSON.stringify(manifest));
  }

  before(() => {
    root = path.join(tmp, "root");
    distDir = path.join(root, "dist", "cli");
    source = path.join(root, "src.ts");
    fs.mkdirSync(root, { recursive: true });
  });

  test("fresh when nothing changed; a touch without a change keeps it fresh", async () => {
    fs.writeFileSync(source, "export const a = 1;\n");
    writeBuild(60_000);
    assert.ok((await freshCliBuild({ root, distDir })).entry);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(source, later, later);
    assert.ok((await freshCliBuild({ root, distDir })).entry);
  });

  test("stale when a source changed, even with the same size and mtime", async () => {
    fs.writeFileSync(source, "export const a = 1;\n");
    const { atime, mtime } = fs.statSync(source);
    writeBuild(500); // edited within the mtime's resolution of the build: the content must decide
    fs.writeFileSync(source, "export const a = 2;\n");
    fs.utimesSync(source, atime, mtime);
    const r = await freshCliBuild({ root, distDir });
    assert.equal(r.entry, null);
    assert.match("reason" in r ? r.reason : "", /src\.ts changed/);
  });

  test("stale when a source is removed, a missing input appears, or the build folder or manifest is gone", async () => {
    fs.writeFileSync(source, "export const a = 1;\n");
    writeBuild(60_000);
    fs.writeFileSync(path.join(root, "gone.json"), "{}");
    assert.equal((await freshCliBuild({ root, distDir })).entry, null);
    fs.rmSync(path.join(root, "gone.json"));
    fs.rmSync(source);
    assert.equal((await freshCliBuild({ root, distDir })).entry, null);
    fs.writeFileSync(source, "export const a = 1;\n");
    writeBuild(60_000);
    fs.rmSync(path.join(distDir, "build-1"), { recursive: true });
    assert.equal((await freshCliBuild({ root, distDir })).entry, null);
    fs.rmSync(path.join(distDir, "manifest.json"));
    assert.deepEqual(await freshCliBuild({ root, distDir }), { entry: null, reason: "no build yet" });
  });
});
