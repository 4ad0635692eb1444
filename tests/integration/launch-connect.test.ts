// `patchbay launch` and `patchbay connect` against one real Patchbay (mock upstream, real OpenCode), with a temp HOME:
// connect/undo byte for byte for Codex and Claude Code, dry-run, broken files, a stopped Patchbay, launch's
// environment, key reuse and replacement, exit codes and signals (with a fake agent), the admin connect rows, and the
// real `codex` and `claude` CLIs answering with the mock's text (skipped, with the reason, while the routes they need
// are not in this tree: `/v1/messages`, Codex's hosted tools on `/v1/responses`).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import { inheritedEnv, PATCHBAY_BIN as BIN, runPatchbay, type CliRun } from "../harness/agent-cli";
import { patchbayCommand } from "../../server/connect/patchbay-command";

const MODEL = "mock/mock-model";

/** Every file under `dir` with its bytes (for "nothing was written"). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) {
      const full = path.join(e.parentPath, e.name);
      out[path.relative(dir, full)] = fs.readFileSync(full).toString("base64");
    }
  return out;
}

describe("patchbay launch / connect", { timeout: 600_000 }, () => {
  let fx: PatchbayFixture;
  let tmp: string;
  let home: string;
  let fakeBin: string;

  /** Runs `patchbay <args>` on the fixture's data folder (unless `dataDir` says otherwise) in the temp HOME, its XDG
   *  folders inside it; `extra` variables last. */
  function cli(
    args: string[],
    extra: Record<string, string | undefined> = {},
    opts: { dataDir?: string; timeoutMs?: number; onStdout?: (soFar: string, pid: number) => void } = {},
  ): Promise<CliRun> {
    const env = inheritedEnv(home, {
      XDG_CONFIG_HOME: path.join(home, ".config"),
      XDG_DATA_HOME: path.join(home, ".local", "share"),
      XDG_CACHE_HOME: path.join(home, ".cache"),
      XDG_STATE_HOME: path.join(home, ".local", "state"),
      ...extra,
    });
    return runPatchbay(opts.dataDir ?? fx.dataDir, args, {
      cwd: tmp,
      env,
      timeoutMs: opts.timeoutMs ?? 120_000,
      ...(opts.onStdout ? { onStdout: opts.onStdout } : {}),
    });
  }

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-launch-"));
    home = path.join(tmp, "home");
    fs.mkdirSync(home);
    fx = await startPatchbayFixture({ clientEnv: { HOME: home } });
    // A fake agent: prints its arguments and Patchbay's variables as JSON, exits with FAKE_EXIT (default 0), or
    // waits for SIGTERM when its last argument is "wait" (launch puts its own flags, e.g. --settings, first).
    fakeBin = path.join(tmp, "fake-agent.mjs");
    fs.writeFileSync(
      fakeBin,
      `#!${process.execPath}
const pick = (re) => Object.fromEntries(Object.entries(process.env).filter(([k]) => re.test(k)));
const report = { args: process.argv.slice(2), env: pick(/^(ANTHROPIC_|CLAUDE_CODE_|PATCHBAY_KEY$|OPENCODE_CONFIG_CONTENT$)/) };
if (process.argv.at(-1) === "wait") {
  process.on("SIGTERM", () => { process.stdout.write("got SIGTERM\\n"); process.exit(77); });
  process.stdout.write("waiting\\n");
  setInterval(() => {}, 1000);
} else {
  process.stdout.write(JSON.stringify(report) + "\\n");
  process.exit(Number(process.env.FAKE_EXIT ?? 0));
}
`,
      { mode: 0o755 },
    );
  });

  after(async () => {
    await fx?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const origin = () => fx.apiBase.replace(/\/v1$/, "");

  test("connect codex: merged, verified with a real /v1/responses request, idempotent, undone byte for byte", async () => {
    const file = path.join(home, ".codex", "config.toml");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const original = '# mine\napproval_policy = "never"\n\n[mcp_servers.docs]\ncommand = "npx"\n';
    fs.writeFileSync(file, original);

    const dry = await cli(["connect", "codex", "--model", MODEL, "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^Would write (.+):\n--- a\/config\.toml\n\+\+\+ b\/config\.toml\n@@ /);
    assert.equal(/^Would write (.+):$/m.exec(dry.stdout)?.[1], file, "the absolute path");
    assert.match(dry.stdout, /^\+model_provider = "patchbay"$/m);
    assert.equal(fs.readFileSync(file, "utf8"), original, "dry run wrote nothing");

    const r = await cli(["connect", "codex", "--model", MODEL]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /Wrote Codex settings to .*config\.toml/);
    assert.match(r.stdout, /^OK: .*MOCK_DEFAULT_REPLY/m);
    // This Patchbay runs on a port picked for this run (port 0): connect says the next start will pick another.
    assert.match(r.stderr, /^Note: This Patchbay picked port \d+ for this run .* Codex will not reach it/m);
    const written = fs.readFileSync(file, "utf8");
    assert.ok(
      written.startsWith('# mine\napproval_policy = "never"\nmodel_provider = "patchbay"\nmodel = "mock/mock-model"\n'),
    );
    assert.match(written, new RegExp(`base_url = "${origin()}/v1"`));
    assert.match(written, /experimental_bearer_token = "pb-[A-Za-z0-9_-]{43}"/);
    // connect's own key (not launch's), labelled for it in the dashboard.
    const key = /experimental_bearer_token = "(pb-[^"]+)"/.exec(written)?.[1] ?? "";
    const listed = (await fx.admin.listKeys({ params: { name: "codex" } })).keys;
    assert.equal(listed.find((k) => k.prefix === key.slice(3, 15))?.label, "patchbay connect codex");

    const again = await cli(["connect", "codex", "--model", MODEL, "--no-verify"]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /already has these settings/);
    assert.equal(fs.readFileSync(file, "utf8"), written);
    const backups = fs.readdirSync(path.join(fx.dataDir, "connect-backups"));
    assert.equal(backups.filter((f) => f.startsWith("codex-") && f.endsWith(".orig")).length, 1, backups.join(" "));

    const check = await cli(["connect", "codex", "--verify-only"]);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /^OK: /m);
    // The file points at a port nobody listens on (as after a restart with --port 0): the check names where
    // Patchbay runs now. Port 1 is never Patchbay's (privileged; refused at once on loopback).
    fs.writeFileSync(file, written.replace(origin(), "http://127.0.0.1:1"));
    const moved = await cli(["connect", "codex", "--verify-only"]);
    fs.writeFileSync(file, written);
    assert.equal(moved.code, 1, moved.stdout);
    assert.ok(moved.stderr.includes(`Patchbay runs at ${origin()} now, not at http://127.0.0.1:1`), moved.stderr);

    const undo = await cli(["connect", "codex", "--undo"]);
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(undo.stdout, /Restored .*config\.toml/);
    // Undo revokes nothing: it names the key the file held and how to revoke it.
    assert.ok(
      undo.stdout.includes(
        `Its key pb-${key.slice(3, 15)} (app "codex") still works; revoke it in the dashboard or with: ` +
          patchbayCommand(`--data-dir '${fx.dataDir}' key revoke codex pb-${key.slice(3, 15)}`, { PATH: "" }),
      ),
      undo.stdout,
    );
    assert.ok(fs.readFileSync(file).equals(Buffer.from(original)), "byte for byte");
  });

  test("connect claude: settings.json env block, verify in the Messages wire, undo removes a file that did not exist", async () => {
    const file = path.join(home, ".claude", "settings.json");
    assert.equal(fs.existsSync(file), false);
    const messagesServed = (await fx.api("/v1/messages", { method: "POST", body: "{}" })).status !== 404;
    const r = await cli(["connect", "claude", "--model", MODEL]);
    assert.match(r.stdout, /Wrote Claude Code settings to .*settings\.json/);
    const env = (JSON.parse(fs.readFileSync(file, "utf8")) as { env: Record<string, string> }).env;
    assert.equal(env.ANTHROPIC_BASE_URL, origin());
    assert.match(env.ANTHROPIC_AUTH_TOKEN ?? "", /^pb-/);
    assert.equal(env.ANTHROPIC_MODEL, MODEL);
    assert.equal(env.CLAUDE_CODE_ATTRIBUTION_HEADER, "0");
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    // Its key is labelled as the user typed the command (`connect claude`, not the client id claude-code).
    const labels = (await fx.admin.listKeys({ params: { name: "claude-code" } })).keys;
    assert.equal(
      labels.find((k) => k.prefix === env.ANTHROPIC_AUTH_TOKEN!.slice(3, 15))?.label,
      "patchbay connect claude",
    );
    if (messagesServed) {
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^OK: .*MOCK_DEFAULT_REPLY/m);
    } else {
      // `/v1/messages` is not merged into this tree yet: verify must say exactly that.
      assert.equal(r.code, 1);
      assert.match(r.stderr, /Check failed: This Patchbay does not serve \/v1\/messages/);
    }
    const undo = await cli(["connect", "claude", "--undo"]);
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(undo.stdout, /Removed .*settings\.json \(it did not exist before/);
    assert.equal(fs.existsSync(file), false);

    // A file with a comment: Claude Code cannot read it, so connect refuses it and changes nothing.
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const commented = '{\n\t// keep me\n\t"theme": "dark"\n}';
    fs.writeFileSync(file, commented);
    const refused = await cli(["connect", "claude", "--model", MODEL, "--no-verify"]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /a comment, which Claude Code cannot read/);
    assert.equal(fs.readFileSync(file, "utf8"), commented);

    // A file with unrelated settings: its formatting kept, restored byte for byte.
    const original = '{\n\t"theme": "dark",\n\t"env": { "FOO": "1" }\n}';
    fs.writeFileSync(file, original);
    const r2 = await cli(["connect", "claude", "--model", MODEL, "--no-verify"]);
    assert.equal(r2.code, 0, r2.stderr);
    assert.match(fs.readFileSync(file, "utf8"), /^\{\n\t"theme": "dark",/);
    assert.equal((await cli(["connect", "claude", "--undo"])).code, 0);
    assert.equal(fs.readFileSync(file, "utf8"), original);
    fs.rmSync(path.dirname(file), { recursive: true });
  });

  test("connect/undo per CLAUDE_CONFIG_DIR: u1's own settings survive connecting u2; the file is made 0600", async () => {
    const u1 = path.join(tmp, "u1");
    const u2 = path.join(tmp, "u2");
    fs.mkdirSync(u1);
    const file = path.join(u1, "settings.json");
    const original =
      '{\n  "env": {\n    "ANTHROPIC_BASE_URL": "https://gateway.example",\n    "MY_TOKEN": "x"\n  }\n}\n';
    fs.writeFileSync(file, original);
    fs.chmodSync(file, 0o644);
    const r1 = await cli(["connect", "claude", "--model", MODEL, "--no-verify"], { CLAUDE_CONFIG_DIR: u1 });
    assert.equal(r1.code, 0, r1.stderr);
    assert.match(r1.stdout, /mode 0600, was 0644/);
    // The hint names this run's data folder (where the backup is) and the folder CLAUDE_CONFIG_DIR moved the file to:
    // followed in any shell, it finds the original.
    assert.ok(
      r1.stdout.includes(
        `undo with: CLAUDE_CONFIG_DIR='${u1}' ${patchbayCommand(`--data-dir '${fx.dataDir}' connect claude --undo`, { PATH: "" })}`,
      ),
      r1.stdout,
    );
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const r2 = await cli(["connect", "claude", "--model", MODEL, "--no-verify"], { CLAUDE_CONFIG_DIR: u2 });
    assert.equal(r2.code, 0, r2.stderr);
    const undo = await cli(["connect", "claude", "--undo"], { CLAUDE_CONFIG_DIR: u1 });
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(undo.stdout, /Restored .*u1\/settings\.json/);
    assert.equal(fs.readFileSync(file, "utf8"), original, "u1's own settings are back byte for byte");
    assert.equal(fs.statSync(file).mode & 0o777, 0o644);
    const undo2 = await cli(["connect", "claude", "--undo"], { CLAUDE_CONFIG_DIR: u2 });
    assert.match(undo2.stdout, /Removed .*u2\/settings\.json/);
  });

  test("--verify-only after the key was revoked names the file and the command to run", async () => {
    const file = path.join(home, ".codex", "config.toml");
    const r = await cli(["connect", "codex", "--model", MODEL, "--no-verify"]);
    assert.equal(r.code, 0, r.stderr);
    const key = /experimental_bearer_token = "(pb-[^"]+)"/.exec(fs.readFileSync(file, "utf8"))?.[1] ?? "";
    await fx.admin.revokeKey({ params: { name: "codex", prefix: key.slice(3, 15) } });
    const check = await cli(["connect", "codex", "--verify-only"]);
    assert.equal(check.code, 1, check.stdout);
    assert.ok(
      check.stderr.includes(
        `The key in ${file} is not accepted (revoked?): run \`node ${BIN} --data-dir '${fx.dataDir}' connect codex\` ` +
          "again (Patchbay said: Incorrect API key provided).",
      ),
      check.stderr,
    );
    // What the API told the client names the command, never this machine's paths or data folder (a client may be
    // on another machine).
    const refused = await fetch(`${fx.apiBase}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }] }),
    });
    assert.equal(refused.status, 401);
    const said = ((await refused.json()) as { error: { message: string } }).error.message;
    assert.match(said, /\(or `patchbay key create <app>`\)/);
    assert.ok(!said.includes(fx.dataDir) && !said.includes("bin/patchbay.mjs"), said);
    // connect again writes a live key
    const again = await cli(["connect", "codex", "--model", MODEL]);
    assert.equal(again.code, 0, again.stderr + again.stdout);
    assert.equal((await cli(["connect", "codex", "--undo"])).code, 0);
  });

  test("a hand-broken config file is refused with the parse error's location; nothing is written", async () => {
    const file = path.join(home, ".codex", "config.toml");
    fs.writeFileSync(file, 'model = "o3"\n[tui\nx = 1\n');
    const before = { home: snapshot(home), data: snapshot(path.join(fx.dataDir, "connect-backups")) };
    const r = await cli(["connect", "codex", "--model", MODEL]);
    assert.notEqual(r.code, 0);
    assert.ok(r.stderr.includes(`${file} is not valid TOML (line 2, column `), r.stderr);
    assert.match(r.stderr, /Patchbay did not change it/);
    assert.deepEqual({ home: snapshot(home), data: snapshot(path.join(fx.dataDir, "connect-backups")) }, before);
    fs.rmSync(file);
  });

  test("a stopped Patchbay: launch and connect say how to start it; nothing is written", async () => {
    const empty = path.join(tmp, "no-patchbay");
    fs.mkdirSync(empty);
    for (const args of [
      ["launch", "claude"],
      ["connect", "codex"],
    ]) {
      const r = await cli(args, { PATCHBAY_CLAUDE_BIN: fakeBin }, { dataDir: empty });
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /Patchbay is not running .*Start it with `node \S+\/bin\/patchbay\.mjs --data-dir '\S+no-patchbay' serve` \(add `--demo` to try it without any login\)/,
      );
    }
    assert.deepEqual(snapshot(empty), {});
    assert.equal(fs.existsSync(path.join(home, ".codex", "config.toml")), false);
  });

  test("launch claude: Claude Code's variables in its environment only, args after --, exit code passed on", async () => {
    const files = snapshot(home);
    const r = await cli(["launch", "claude", "--model", MODEL, "--", "-p", "hello there"], {
      PATCHBAY_CLAUDE_BIN: fakeBin,
      ANTHROPIC_API_KEY: "sk-user-own",
      FAKE_EXIT: "3",
    });
    assert.equal(r.code, 3, r.stderr);
    const report = JSON.parse(r.stdout) as { args: string[]; env: Record<string, string> };
    assert.deepEqual(report.args.slice(2), ["-p", "hello there"]);
    assert.equal(report.args[0], "--settings", "a per-run settings file that outranks ~/.claude/settings.json");
    assert.equal(report.env.ANTHROPIC_BASE_URL, origin());
    assert.equal(report.env.ANTHROPIC_MODEL, MODEL);
    assert.equal(report.env.ANTHROPIC_DEFAULT_HAIKU_MODEL, MODEL);
    assert.equal(report.env.ANTHROPIC_SMALL_FAST_MODEL, MODEL);
    assert.equal(report.env.CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY, "1");
    assert.equal(report.env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, undefined);
    assert.equal(report.env.CLAUDE_CODE_ATTRIBUTION_HEADER, "0");
    assert.equal(report.env.ANTHROPIC_API_KEY, undefined, "the user's own key would override the token");
    const key = report.env.ANTHROPIC_AUTH_TOKEN ?? "";
    // The key works on Patchbay's API and belongs to the app named after the client.
    assert.equal((await fx.api("/v1/models", { key })).status, 200);
    assert.ok((await fx.admin.listKeys({ params: { name: "claude-code" } })).keys.length >= 1);
    assert.deepEqual(snapshot(home), files, "launch writes nothing in HOME");
    const saved = JSON.parse(fs.readFileSync(path.join(fx.dataDir, "launch-keys.json"), "utf8")) as {
      keys: Record<string, string>;
    };
    assert.equal(saved.keys["claude-code"], key);
    assert.equal(fs.statSync(path.join(fx.dataDir, "launch-keys.json")).mode & 0o777, 0o600);
  });

  test("launch reuses the saved key, and makes a new one after it was revoked", async () => {
    const run = async () => {
      const r = await cli(["launch", "claude", "--model", MODEL], { PATCHBAY_CLAUDE_BIN: fakeBin });
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { env: Record<string, string> }).env.ANTHROPIC_AUTH_TOKEN ?? "";
    };
    const first = await run();
    assert.equal(await run(), first);
    await fx.admin.revokeKey({ params: { name: "claude-code", prefix: first.slice(3, 15) } });
    const next = await run();
    assert.notEqual(next, first);
    assert.equal((await fx.api("/v1/models", { key: next })).status, 200);
  });

  test("launch codex: -c overrides for a patchbay provider and the key in PATCHBAY_KEY; --app names the app", async () => {
    const r = await cli(["launch", "codex", "--model", MODEL, "--app", "my-codex", "--", "exec", "hi"], {
      PATCHBAY_CODEX_BIN: fakeBin,
    });
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { args: string[]; env: Record<string, string> };
    assert.deepEqual(report.args.slice(-2), ["exec", "hi"]);
    const overrides = report.args.slice(0, -2);
    assert.ok(overrides.includes('model_provider="patchbay"'));
    assert.ok(overrides.includes(`model_providers.patchbay.base_url="${fx.apiBase}"`));
    assert.ok(overrides.includes('model_providers.patchbay.env_key="PATCHBAY_KEY"'));
    assert.ok(overrides.includes('model_providers.patchbay.wire_api="responses"'));
    assert.ok(overrides.includes(`model="${MODEL}"`));
    assert.equal((await fx.api("/v1/models", { key: report.env.PATCHBAY_KEY })).status, 200);
    assert.ok((await fx.admin.getApp({ params: { name: "my-codex" } })).name === "my-codex");
  });

  test("launch forwards SIGTERM to the agent and passes its exit code on", async () => {
    let signalled = false;
    const r = await cli(
      ["launch", "claude", "--model", MODEL, "--", "wait"],
      { PATCHBAY_CLAUDE_BIN: fakeBin },
      {
        // Once the agent runs (it printed "waiting"), SIGTERM goes to Patchbay, not to the agent.
        onStdout: (soFar, pid) => {
          if (!signalled && soFar.includes("waiting")) {
            signalled = true;
            process.kill(pid, "SIGTERM");
          }
        },
      },
    );
    assert.match(r.stdout, /got SIGTERM/);
    assert.equal(r.code, 77);
  });

  test("launch: unknown client, a client only Patchbay's install has, unknown model", async () => {
    const unknown = await cli(["launch", "vim"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown client "vim"\. Supported: claude \(claude-code\), codex, opencode/);
    // No codex on PATH (only node): the copy in Patchbay's own node_modules/.bin runs, from any folder. (No client
    // at all: tests/unit/connect/find-binary.test.ts.)
    const bundled = await cli(["launch", "codex", "--", "--version"], { PATH: path.dirname(process.execPath) });
    assert.equal(bundled.code, 0, bundled.stderr);
    assert.match(bundled.stdout, /codex-cli \d+\.\d+/);
    const model = await cli(["launch", "claude", "--model", "nope/none"], { PATCHBAY_CLAUDE_BIN: fakeBin });
    assert.equal(model.code, 1);
    assert.match(model.stderr, /has no model "nope\/none"\. Available: mock\//);
  });

  test("admin API: preview (diff, writes nothing), apply, verify, undo for Codex", async () => {
    const file = path.join(home, ".codex", "config.toml");
    const original = 'approval_policy = "never"\n';
    fs.writeFileSync(file, original);
    const preview = await fx.admin.previewConnect({ params: { client: "codex" }, body: { model: MODEL } });
    assert.equal(preview.path, file);
    assert.equal(preview.changed, true);
    assert.equal(preview.app, "codex", "the app whose key the client gets, named in the dialog");
    assert.match(preview.diff, /^\+\[model_providers\.patchbay\]$/m);
    assert.doesNotMatch(preview.diff, /pb-[A-Za-z0-9_-]{20}/, "the diff does not show the key");
    assert.equal(fs.readFileSync(file, "utf8"), original);
    const applied = await fx.admin.applyConnect({ params: { client: "codex" }, body: { model: MODEL } });
    assert.equal(applied.changed, true);
    assert.ok(applied.backup);
    const verified = await fx.admin.verifyConnect({ params: { client: "codex" } });
    assert.equal(verified.ok, true, verified.message);
    const undone = await fx.admin.undoConnect({ params: { client: "codex" } });
    assert.equal(undone.action, "restored");
    assert.equal(fs.readFileSync(file, "utf8"), original);
    fs.writeFileSync(file, "[broken\n");
    await assert.rejects(fx.admin.applyConnect({ params: { client: "codex" }, body: {} }), /not valid TOML \(line 1/);
    assert.equal(fs.readFileSync(file, "utf8"), "[broken\n");
    fs.rmSync(file);
  });

  test("real Claude Code: `launch claude -- -p` answers with the mock's text", async (t) => {
    const probe = await fx.api("/v1/messages", { method: "POST", body: "{}" });
    if (probe.status === 404) {
      t.skip("POST /v1/messages answers 404: the Anthropic Messages route is not merged into this tree yet");
      return;
    }
    const r = await cli(["launch", "claude", "--model", MODEL, "--", "-p", "Say hello"], {}, { timeoutMs: 240_000 });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /MOCK_DEFAULT_REPLY/);
  });

  test("real Codex: `launch codex -- exec` answers with the mock's text", async (t) => {
    const r = await cli(
      ["launch", "codex", "--model", MODEL, "--", "exec", "--skip-git-repo-check", "Say hello"],
      {},
      { timeoutMs: 240_000 },
    );
    // Codex offers hosted tools (e.g. `namespace`) that this tree's /v1/responses refuses with a 400 naming them.
    if (r.code !== 0 && /is not available through Patchbay: only function tools/.test(r.stdout + r.stderr)) {
      t.skip("Codex's hosted tools are refused by /v1/responses here: Codex tool support is not merged yet");
      return;
    }
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout + r.stderr, /MOCK_DEFAULT_REPLY/);
  });
});
