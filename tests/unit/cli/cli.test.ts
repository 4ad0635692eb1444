// The `patchbay` CLI for apps and keys: spawned as `node bin/patchbay.mjs` against a temp data folder, plus
// in-process runs of main() for the error paths (exit codes, one-line messages, no stack traces).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { main } from "../../../server/cli";
import type { CliIO } from "../../../server/cli/context";
import { createKeysStore } from "../../../server/stores/keys-store";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const BIN = path.join(ROOT, "bin", "patchbay.mjs");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, PATCHBAY_DATA_DIR: undefined, PATCHBAY_DEBUG: undefined, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs main() in this process with captured output. */
async function runInProcess(args: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    out: (t) => void (stdout += t),
    err: (t) => void (stderr += t),
    env,
    stdoutIsTTY: false,
    exit: (code) => {
      throw new Error(`exit ${code} was not expected here`);
    },
    onSignal: () => undefined,
  };
  const code = await main(["node", "patchbay", ...args], io);
  return { code, stdout, stderr };
}

function assertOneLineError(r: Run, code: number, pattern: RegExp): void {
  assert.equal(r.code, code, `exit code (stderr: ${r.stderr})`);
  assert.match(r.stderr, pattern);
  assert.ok(!/^\s+at /m.test(r.stderr), `no stack trace in: ${r.stderr}`);
}

describe("patchbay CLI (spawned)", () => {
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cli-"));
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test("app create, app list --json, key create prints only the key, key list shows the prefix, revoke", async () => {
    const d = ["--data-dir", dataDir];
    const created = await run([...d, "app", "create", "demo-app", "--models", "mock/*, demo/echo"]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /Created app "demo-app" \(allows mock\/\*, demo\/echo\)/);

    const list = await run([...d, "app", "list", "--json"]);
    assert.equal(list.code, 0, list.stderr);
    const apps = JSON.parse(list.stdout) as { name: string; models: string[] }[];
    assert.deepEqual(
      apps.map((a) => [a.name, a.models]),
      [["demo-app", ["mock/*", "demo/echo"]]],
    );

    const key = await run([...d, "key", "create", "demo-app", "--label", "laptop"]);
    assert.equal(key.code, 0, key.stderr);
    assert.match(key.stdout, /^pb-[A-Za-z0-9_-]{43}\n$/, "stdout is the key alone");
    assert.equal(key.stderr, "", "no hint when stdout is not a terminal");
    const secret = key.stdout.trim();
    const prefix = secret.slice(3, 15);

    const keys = await run([...d, "key", "list", "demo-app"]);
    assert.equal(keys.code, 0, keys.stderr);
    assert.match(keys.stdout, new RegExp(`^pb-${prefix.replace(/[-]/g, "\\-")}\\s+laptop\\s`, "m"));
    assert.ok(!keys.stdout.includes(secret.slice(15)), "no secret part of the key in the list");
    const keysJson = await run([...d, "key", "list", "demo-app", "--json"]);
    const listed = JSON.parse(keysJson.stdout) as Record<string, unknown>[];
    assert.deepEqual(Object.keys(listed[0] ?? {}).sort(), ["app", "createdAt", "label", "lastUsedAt", "prefix"]);
    assert.equal(listed[0]?.prefix, prefix);
    assert.ok(!keysJson.stdout.includes(secret.slice(15)));
    assert.ok(
      !fs.readFileSync(path.join(dataDir, "keys.json"), "utf8").includes(secret.slice(15)),
      "only the hash on disk",
    );

    // The key verifies for a server-side store, and stops verifying once revoked.
    const store = await createKeysStore({ dataDir, watch: false });
    assert.deepEqual(store.verify(secret), { app: "demo-app", prefix });
    const revoked = await run([...d, "key", "revoke", "demo-app", prefix]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, new RegExp(`Revoked key pb-${prefix.replace(/[-]/g, "\\-")} of app "demo-app"`));
    const fresh = await createKeysStore({ dataDir, watch: false });
    assert.equal(fresh.verify(secret), null);
    await fresh.close();
    await store.close();

    const again = await run([...d, "key", "revoke", "demo-app", prefix]);
    assertOneLineError(again, 1, /^patchbay: No key with prefix ".*" for app "demo-app"\.\n$/);
  });

  test("a bad app name exits 2 with a one-line message", async () => {
    const r = await run(["--data-dir", dataDir, "app", "create", "Bad_Name"]);
    assertOneLineError(r, 2, /^patchbay: Invalid app name "Bad_Name": App names use lowercase letters, digits and '-'/);
  });

  test("an unknown app exits 1 with a message naming it", async () => {
    const r = await run(["--data-dir", dataDir, "key", "create", "ghost-app"]);
    assertOneLineError(r, 1, /^patchbay: No app named "ghost-app"\.\n$/);
    assert.equal(r.stdout, "");
  });

  test("PATCHBAY_DATA_DIR sets the data folder; app delete revokes the app's keys", async () => {
    const envDir = path.join(dataDir, "from-env");
    const env = { PATCHBAY_DATA_DIR: envDir };
    assert.equal((await run(["app", "create", "env-app"], env)).code, 0);
    assert.equal((await run(["key", "create", "env-app"], env)).code, 0);
    assert.ok(fs.existsSync(path.join(envDir, "apps.json")));
    assert.equal(fs.statSync(envDir).mode & 0o777, 0o700);
    const del = await run(["app", "delete", "env-app"], env);
    assert.equal(del.code, 0, del.stderr);
    assert.match(del.stdout, /Deleted app "env-app" and revoked its 1 key\./);
    const keys = JSON.parse(fs.readFileSync(path.join(envDir, "keys.json"), "utf8")) as { data: { keys: unknown[] } };
    assert.deepEqual(keys.data.keys, []);
  });

  test("--help explains the commands", async () => {
    const r = await run(["--help"]);
    assert.equal(r.code, 0);
    for (const word of ["serve", "app", "key", "--data-dir", "PATCHBAY_DATA_DIR"])
      assert.ok(r.stdout.includes(word), `help mentions ${word}`);
    const serve = await run(["serve", "--help"]);
    assert.equal(serve.code, 0);
    for (const word of ["--host", "--port", "--demo", "--data-dir", "OpenAI API:"])
      assert.ok(serve.stdout.includes(word), `serve help mentions ${word}`);
  });
});

describe("patchbay CLI (in process): usage errors and failures", () => {
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cli-ip-"));
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test("unknown command, unknown option, missing argument, extra argument → 2", async () => {
    assertOneLineError(await runInProcess(["frobnicate"]), 2, /^patchbay: unknown command 'frobnicate'/);
    assertOneLineError(await runInProcess(["app", "list", "--yaml"]), 2, /^patchbay: unknown option '--yaml'/);
    assertOneLineError(await runInProcess(["app", "create"]), 2, /^patchbay: missing required argument 'name'/);
    assertOneLineError(await runInProcess(["--data-dir", dataDir, "app", "list", "extra"]), 2, /too many arguments/);
  });

  test("bad option values → 2 naming the value", async () => {
    assertOneLineError(await runInProcess(["serve", "--port", "99999"]), 2, /Use a port number from 0 to 65535/);
    assertOneLineError(
      await runInProcess(["--data-dir", dataDir, "app", "create", "ok", "--models", "gpt-4"]),
      2,
      /Invalid model pattern "gpt-4"/,
    );
    assertOneLineError(await runInProcess(["--data-dir", dataDir, "app", "create", "ok2"]), 0, /^$/);
    assertOneLineError(
      await runInProcess(["--data-dir", dataDir, "key", "create", "ok2", "--label", "x".repeat(81)]),
      2,
      /Invalid label: Labels are at most 80 characters/,
    );
  });

  test("duplicate app and unknown app for key list/revoke → 1", async () => {
    assertOneLineError(await runInProcess(["--data-dir", dataDir, "app", "create", "ok2"]), 1, /already exists/);
    assertOneLineError(await runInProcess(["--data-dir", dataDir, "key", "list", "nope"]), 1, /No app named "nope"/);
    assertOneLineError(
      await runInProcess(["--data-dir", dataDir, "key", "revoke", "nope", "abc"]),
      1,
      /No app named "nope"/,
    );
    assertOneLineError(await runInProcess(["--data-dir", dataDir, "app", "delete", "nope"]), 1, /No app named "nope"/);
  });

  test("an unusable data folder → 1 with a storage message, no stack", async () => {
    const file = path.join(dataDir, "not-a-folder");
    fs.writeFileSync(file, "x");
    assertOneLineError(
      await runInProcess(["--data-dir", path.join(file, "data"), "app", "list"]),
      1,
      /^patchbay: Could not create the data folder .*not-a-folder/,
    );
  });

  test("empty lists say how to create the first item", async () => {
    const empty = path.join(dataDir, "empty");
    const apps = await runInProcess(["--data-dir", empty, "app", "list"]);
    assert.equal(apps.code, 0);
    // The command that works here: `patchbay` when ours is on PATH, else `node …/bin/patchbay.mjs`.
    assert.match(
      apps.stdout,
      /No apps yet\. Create one with: (patchbay|node \S+\/bin\/patchbay\.mjs) --data-dir \S+ app create NAME/,
    );
    assert.equal((await runInProcess(["--data-dir", empty, "app", "create", "solo"])).code, 0);
    const keys = await runInProcess(["--data-dir", empty, "key", "list", "solo"]);
    assert.match(keys.stdout, /No keys for app "solo"/);
    const json = await runInProcess(["--data-dir", empty, "key", "list", "solo", "--json"]);
    assert.deepEqual(JSON.parse(json.stdout), []);
  });
});
