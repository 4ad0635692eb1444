// `patchbay serve` for real: the CLI creates an app and key, `serve --port 0 --demo` (one real OpenCode for this
// file) answers with that key, CLI changes made while it serves take effect (revoke → 401, new key works), and
// SIGTERM stops it cleanly with exit 0 and no OpenCode left behind.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { processesMentioning } from "../harness/procfs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin", "patchbay.mjs");

/** HOME/XDG in a temp dir so neither the user's OpenCode logins nor their config reach this test (DESIGN §3).
 *  OpenCode's OPENCODE_* switches are not set here: Patchbay drops the parent's and sets its own (child-env.ts). */
function isolatedEnv(home: string, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("OPENCODE_") || k.startsWith("PATCHBAY_")) delete env[k];
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    PATCHBAY_DATA_DIR: dataDir,
  };
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
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

async function createKey(app: string, env: NodeJS.ProcessEnv): Promise<string> {
  const r = await cli(["key", "create", app], env);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

async function get(url: string, key: string | null): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Polls `check` every 200 ms until true or `timeoutMs`; returns whether it became true. */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe("patchbay serve (CLI + real OpenCode, demo model)", { timeout: 240_000 }, () => {
  let tmp: string;
  let env: NodeJS.ProcessEnv;
  let server: ChildProcess | null = null;
  let stdout = "";
  let stderr = "";
  let exited: Promise<number | null>;
  let apiUrl = "";
  let key = "";

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-serve-"));
    const home = path.join(tmp, "home");
    const dataDir = path.join(tmp, "data");
    fs.mkdirSync(home);
    env = isolatedEnv(home, dataDir);

    assert.equal((await cli(["app", "create", "cli-app"], env)).code, 0);
    key = await createKey("cli-app", env);

    const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--data-dir", dataDir, "--demo"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    server = child;
    exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
    child.stdout?.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
    const urlLine = /^OpenAI API: (http:\/\/\S+)$/m;
    // Stop waiting as soon as it prints the URL or exits (e.g. a startup error).
    await eventually(async () => urlLine.test(stdout) || child.exitCode !== null || child.signalCode !== null, 60_000);
    assert.ok(urlLine.test(stdout), `serve printed its API URL\nstdout:\n${stdout}\nstderr:\n${stderr}`);
    apiUrl = (urlLine.exec(stdout)?.[1] ?? "").replace(/\/$/, "");
  });

  after(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill("SIGKILL");
      await exited;
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("prints the API and dashboard URLs on their own lines", () => {
    assert.match(apiUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.match(stdout, /^Dashboard: http:\/\/127\.0\.0\.1:\d+\/\S*$/m);
  });

  test("the key made by the CLI lists models and gets a chat completion from the demo model", async () => {
    // OpenCode takes a few seconds to start; until then the API answers 503.
    let models: { data?: { id: string }[] } | null = null;
    const ready = await eventually(async () => {
      const r = await get(`${apiUrl}/models`, key);
      if (r.status !== 200) return false;
      models = r.body as { data?: { id: string }[] };
      return (models.data ?? []).some((m) => m.id.startsWith("demo/"));
    }, 90_000);
    assert.ok(ready, `models with a demo/ id\nstderr:\n${stderr}`);
    const model = (models as { data?: { id: string }[] } | null)?.data?.find((m) => m.id.startsWith("demo/"))?.id ?? "";
    const res = await fetch(`${apiUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "Say hello." }] }),
      signal: AbortSignal.timeout(60_000),
    });
    const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(typeof body.choices?.[0]?.message?.content, "string");
    assert.ok((body.choices?.[0]?.message?.content ?? "").length > 0);
  });

  test("`sessions list` and `sessions prune` ask the running server instead of starting a second OpenCode", async () => {
    const dataDir = path.join(tmp, "data");
    const model = "demo/echo";
    for (const n of [1, 2]) {
      const res = await fetch(`${apiUrl}/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model, messages: [{ role: "user", content: `Session ${n}` }] }),
        signal: AbortSignal.timeout(60_000),
      });
      assert.equal(res.status, 200, await res.text());
    }
    const debugEnv = { ...env, PATCHBAY_DEBUG: "1" };
    const list = await cli(["sessions", "list", "cli-app", "--json"], debugEnv);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stderr, /sessions: asking the running Patchbay \(pid \d+\)/);
    assert.doesNotMatch(list.stderr, /starting an OpenCode/);
    const sessions = JSON.parse(list.stdout) as Array<{ id: string }>;
    assert.ok(sessions.length >= 3, `sessions: ${list.stdout}`);

    // Keep only the newest session (set through the admin API with the runtime token, as a script would).
    const runtime = JSON.parse(fs.readFileSync(path.join(dataDir, "runtime.json"), "utf8")) as {
      adminUrl: string;
      adminToken: string;
    };
    const patched = await fetch(`${runtime.adminUrl}/admin/api/apps/cli-app`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${runtime.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ history: { maxSessions: 1, maxAgeDays: null } }),
    });
    assert.equal(patched.status, 200, await patched.text());
    const dry = await cli(["sessions", "prune", "cli-app", "--dry-run"], debugEnv);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, new RegExp(`a prune would delete ${sessions.length - 1}\\b`));
    const pruned = await cli(["sessions", "prune", "cli-app"], debugEnv);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.match(pruned.stderr, /asking the running Patchbay/);
    // The server's own background sweep (it runs after a limits change) may already have removed them: then the CLI's
    // prune finds nothing over the limits. Either way the result below is the newest session alone.
    const removed = Number(/removed (\d+),/.exec(pruned.stdout)?.[1] ?? "-1");
    assert.ok(removed === sessions.length - 1 || removed === 0, pruned.stdout);
    const left = JSON.parse((await cli(["sessions", "list", "cli-app", "--json"], env)).stdout) as Array<{
      id: string;
    }>;
    assert.deepEqual(
      left.map((x) => x.id),
      [sessions[0]!.id],
    );
  });

  test("wrong and missing keys get 401", async () => {
    assert.equal((await get(`${apiUrl}/models`, `${key.slice(0, -2)}zz`)).status, 401);
    assert.equal((await get(`${apiUrl}/models`, null)).status, 401);
  });

  test("changes made with the CLI while serving take effect without a restart", async () => {
    assert.equal((await cli(["app", "create", "late-app"], env)).code, 0);
    const lateKey = await createKey("late-app", env);
    assert.ok(
      await eventually(async () => (await get(`${apiUrl}/models`, lateKey)).status === 200, 5_000),
      "a new key works within seconds",
    );

    const prefix = key.slice(3, 15);
    const revoked = await cli(["key", "revoke", "cli-app", prefix], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.ok(
      await eventually(async () => (await get(`${apiUrl}/models`, key)).status === 401, 5_000),
      "a revoked key gets 401 within seconds",
    );

    assert.equal((await cli(["app", "delete", "late-app"], env)).code, 0);
    assert.ok(
      await eventually(async () => (await get(`${apiUrl}/models`, lateKey)).status === 401, 5_000),
      "a deleted app's key gets 401",
    );
  });

  test("a second serve on the same data folder is refused with where the first runs; the first is untouched", async () => {
    const dataDir = path.join(tmp, "data");
    const runtimeBefore = fs.readFileSync(path.join(dataDir, "runtime.json"), "utf8");
    const firstPid = (JSON.parse(runtimeBefore) as { pid: number }).pid;
    const second = await cli(["serve", "--port", "0", "--data-dir", dataDir, "--demo"], env);
    assert.equal(second.code, 1, `stdout:\n${second.stdout}\nstderr:\n${second.stderr}`);
    // Promptly: cli() kills a serve still running after 20 s (exit code null), so exit code 1 means it refused.
    assert.match(second.stderr, /Another Patchbay is already running on the data folder/);
    assert.match(second.stderr, new RegExp(`pid ${firstPid}`));
    assert.ok(second.stderr.includes(`OpenAI API ${apiUrl}`), second.stderr);
    assert.doesNotMatch(second.stdout, /OpenAI API:/, "the second never printed URLs of its own");
    assert.equal(fs.readFileSync(path.join(dataDir, "runtime.json"), "utf8"), runtimeBefore, "runtime.json untouched");
    assert.equal((await get(`${apiUrl}/models`, null)).status, 401, "the first still answers");
  });

  /** A new app with a key and one answered request (one session in OpenCode's database). */
  async function appWithSession(name: string): Promise<void> {
    assert.equal((await cli(["app", "create", name], env)).code, 0);
    const res = await fetch(`${apiUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${await createKey(name, env)}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: `About to go: ${name}` }] }),
      signal: AbortSignal.timeout(60_000),
    });
    assert.equal(res.status, 200, await res.text());
  }

  test("app delete through the running serve deletes the app's sessions, then the app", async () => {
    await appWithSession("gone-app");
    await appWithSession("later-gone"); // deleted below with no Patchbay running
    const r = await cli(["app", "delete", "gone-app"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Deleted app "gone-app" and revoked its 1 key. Deleted its 1 session.\n');
    const apps = JSON.parse((await cli(["app", "list", "--json"], env)).stdout) as Array<{ name: string }>;
    assert.ok(!apps.some((a) => a.name === "gone-app"));
  });

  test("SIGTERM stops it cleanly: exit 0, OpenCode gone", async () => {
    const marker = path.join(tmp, "data");
    server?.kill("SIGTERM");
    const code = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 20_000))]);
    assert.equal(code, 0, `exit code\nstdout:\n${stdout}\nstderr:\n${stderr}`);
    assert.match(stdout, /Stopped\./);
    assert.ok(
      await eventually(async () => processesMentioning(marker).length === 0, 5_000),
      "no process of this server is left",
    );
  });

  test("app delete with no Patchbay running starts its own OpenCode to delete the sessions; --keep-sessions starts none", async () => {
    const r = await cli(["app", "delete", "later-gone"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Deleted app "later-gone" and revoked its 1 key. Deleted its 1 session.\n');
    assert.equal((await cli(["app", "create", "kept-sessions"], env)).code, 0);
    const kept = await cli(["app", "delete", "kept-sessions", "--keep-sessions"], env);
    assert.equal(kept.code, 0, kept.stderr);
    assert.match(kept.stdout, /revoked its 0 keys\. Its sessions were left in OpenCode's database/);
    assert.equal(processesMentioning(path.join(tmp, "data")).length, 0, "no OpenCode left running");
  });
});
