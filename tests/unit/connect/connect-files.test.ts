// connect's file handling on a temp HOME: one backup per original, byte-for-byte undo (or removal of a file that did
// not exist), idempotent re-runs, hand edits kept aside on undo, broken files refused with nothing written.
import { test, describe, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findConnectable } from "../../../server/clients/registry";
import { ConfigFileError } from "../../../server/clients/types";
import {
  applyConnect,
  backupsDir,
  MAX_CONFIG_BYTES,
  planConnect,
  planDiff,
  undoConnect,
} from "../../../server/connect/connect-files";

const S = {
  origin: "http://127.0.0.1:4747",
  key: "pb-SECRETSECRETSECRET",
  model: "demo/echo",
  smallModel: "demo/echo",
};
const codex = findConnectable("codex")!;
const claude = findConnectable("claude")!;

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

describe("connect files", () => {
  let tmp: string;
  let home: string;
  let dataDir: string;
  let env: Record<string, string>;
  let clock: number;
  const now = () => (clock += 1000);

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-connect-"));
    home = path.join(tmp, "home");
    dataDir = path.join(tmp, "data");
    fs.mkdirSync(home);
    env = { HOME: home };
    clock = Date.UTC(2026, 0, 1);
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test("apply then undo restores the original byte for byte (CRLF, no final newline, odd bytes kept)", async () => {
    const file = path.join(home, ".codex", "config.toml");
    fs.mkdirSync(path.dirname(file));
    const original = Buffer.from('# é\r\napproval_policy = "never"\r\n\r\n[tui]\r\nx = 1', "utf8");
    fs.writeFileSync(file, original, { mode: 0o640 });
    const t = { client: codex, dataDir, env };
    const plan = await applyConnect(t, S, now);
    assert.ok(plan.changed);
    assert.ok(plan.backup && fs.readFileSync(plan.backup).equals(original));
    assert.match(path.basename(plan.backup), /^codex-[0-9a-f]{16}-20260101T000001Z\.orig$/);
    assert.equal(fs.statSync(plan.backup).mode & 0o777, 0o600);
    assert.match(
      fs.readFileSync(file, "utf8"),
      /\r\n\[model_providers\.patchbay\]\r\n[^]*experimental_bearer_token = "pb-SECRETSECRETSECRET"$/,
    );
    assert.equal(fs.statSync(file).mode & 0o777, 0o600, "the file holding the key is made 0600");
    assert.equal(plan.tightenedFrom, 0o640);

    const undone = await undoConnect(t, now);
    // It names the key the file held (undo revokes nothing; the service passes on its prefix only).
    assert.deepEqual(undone, { path: file, action: "restored", savedCurrent: null, heldKey: S.key });
    assert.ok(fs.readFileSync(file).equals(original));
    assert.equal(fs.statSync(file).mode & 0o777, 0o640, "undo puts the original's mode back");
    assert.deepEqual(snapshot(backupsDir(dataDir)), {}, "backup and record removed");
  });

  test("running twice keeps one backup of the original; a changed model re-merges without a new backup", async () => {
    const file = path.join(home, ".claude", "settings.json");
    fs.mkdirSync(path.dirname(file));
    const original = '{ "theme": "dark" }\n';
    fs.writeFileSync(file, original);
    const t = { client: claude, dataDir, env };
    const first = await applyConnect(t, S, now);
    const afterFirst = fs.readFileSync(file, "utf8");
    const second = await applyConnect(t, S, now);
    assert.equal(second.changed, false);
    assert.equal(second.backup, first.backup);
    assert.equal(fs.readFileSync(file, "utf8"), afterFirst);
    const third = await applyConnect(t, { ...S, model: "other/model" }, now);
    assert.ok(third.changed);
    assert.equal(third.backup, first.backup);
    assert.equal(fs.readdirSync(backupsDir(dataDir)).filter((f) => f.endsWith(".orig")).length, 1);
    await undoConnect(t, now);
    assert.equal(fs.readFileSync(file, "utf8"), original);
  });

  test("an existing 0644 file is made 0600 when the key goes in (also when nothing else changes)", async () => {
    const file = path.join(home, ".claude", "settings.json");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, '{ "theme": "dark" }\n', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const t = { client: claude, dataDir, env };
    const plan = await applyConnect(t, S, now);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(plan.tightenedFrom, 0o644);
    fs.chmodSync(file, 0o644);
    const again = await applyConnect(t, S, now);
    assert.equal(again.changed, false);
    assert.equal(again.tightenedFrom, 0o644);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal((await applyConnect(t, S, now)).tightenedFrom, null, "already 0600: nothing to say");
  });

  test("backups are kept per file: connecting another CLAUDE_CONFIG_DIR does not lose the first one's original", async () => {
    const u1 = path.join(tmp, "u1");
    const u2 = path.join(tmp, "u2");
    fs.mkdirSync(u1);
    const original = Buffer.from(
      '{\n  "env": { "ANTHROPIC_BASE_URL": "https://gw.example", "MY_VAR": "1" },\n  "theme": "dark"\n}',
    );
    fs.writeFileSync(path.join(u1, "settings.json"), original, { mode: 0o644 });
    fs.chmodSync(path.join(u1, "settings.json"), 0o644);
    const t1 = { client: claude, dataDir, env: { HOME: home, CLAUDE_CONFIG_DIR: u1 } };
    const t2 = { client: claude, dataDir, env: { HOME: home, CLAUDE_CONFIG_DIR: u2 } };
    const first = await applyConnect(t1, S, now);
    await applyConnect(t2, S, now);
    await applyConnect(t1, { ...S, model: "other/model" }, now);
    await applyConnect(t2, { ...S, model: "other/model" }, now);
    const orig = fs.readdirSync(backupsDir(dataDir)).filter((f) => f.endsWith(".orig"));
    assert.deepEqual(orig, [path.basename(first.backup!)], "one backup per original file, none piling up");
    assert.equal(fs.readdirSync(backupsDir(dataDir)).filter((f) => f.endsWith(".json")).length, 2);

    const undone = await undoConnect(t1, now);
    assert.equal(undone.action, "restored");
    assert.ok(fs.readFileSync(path.join(u1, "settings.json")).equals(original), "u1 restored byte for byte");
    assert.equal(fs.statSync(path.join(u1, "settings.json")).mode & 0o777, 0o644);
    assert.equal((await undoConnect(t2, now)).action, "removed");
    assert.equal(fs.existsSync(path.join(u2, "settings.json")), false);
    assert.deepEqual(snapshot(backupsDir(dataDir)), {});
  });

  test("a record from before per-file records (connect-backups/<client>.json) is still used by undo", async () => {
    const file = path.join(home, ".claude", "settings.json");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, '{ "theme": "dark" }\n');
    const t = { client: claude, dataDir, env };
    const plan = await applyConnect(t, S, now);
    const dir = backupsDir(dataDir);
    const rec = fs.readdirSync(dir).find((f) => f.endsWith(".json"))!;
    fs.renameSync(path.join(dir, rec), path.join(dir, "claude-code.json"));
    assert.equal((await planConnect(t, S)).backup, plan.backup);
    assert.equal((await undoConnect(t, now)).action, "restored");
    assert.equal(fs.readFileSync(file, "utf8"), '{ "theme": "dark" }\n');
    assert.deepEqual(snapshot(dir), {});
  });

  test("a file that did not exist is created with mode 0600 and removed by undo", async () => {
    const t = { client: claude, dataDir, env: { HOME: home, CLAUDE_CONFIG_DIR: path.join(tmp, "cc") } };
    const plan = await applyConnect(t, S, now);
    assert.equal(plan.path, path.join(tmp, "cc", "settings.json"));
    assert.equal(plan.backup, null);
    assert.equal(fs.statSync(plan.path).mode & 0o777, 0o600);
    assert.equal((await undoConnect(t, now)).action, "removed");
    assert.equal(fs.existsSync(plan.path), false);
  });

  test("undo keeps a version edited since connect aside before restoring", async () => {
    const file = path.join(home, ".codex", "config.toml");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, 'approval_policy = "never"\n');
    const t = { client: codex, dataDir, env };
    await applyConnect(t, S, now);
    fs.appendFileSync(file, "\n[tui]\nhand = true\n");
    const edited = fs.readFileSync(file);
    const r = await undoConnect(t, now);
    assert.equal(r.action, "restored");
    assert.ok(r.savedCurrent && fs.readFileSync(r.savedCurrent).equals(edited));
    assert.equal(fs.readFileSync(file, "utf8"), 'approval_policy = "never"\n');
  });

  test("undo without a backup takes Patchbay's settings out; with nothing to undo it changes nothing", async () => {
    const t = { client: codex, dataDir, env };
    assert.equal((await undoConnect(t, now)).action, "nothing");
    const file = path.join(home, ".codex", "config.toml");
    fs.mkdirSync(path.dirname(file));
    // The user's own model is replaced by connect; without the backup it cannot be put back, so the whole file is
    // kept aside (nothing lost).
    fs.writeFileSync(file, 'model = "my-own-model"\napproval_policy = "never"\n');
    await applyConnect(t, S, now);
    const connected = fs.readFileSync(file);
    fs.rmSync(dataDir, { recursive: true });
    // Refused by default: this data folder has no backup (another one may); nothing changes.
    await assert.rejects(
      undoConnect(t, now),
      (e: unknown) =>
        e instanceof ConfigFileError && /has no backup of its original/.test(e.message) && /--force/.test(e.message),
    );
    assert.ok(fs.readFileSync(file).equals(connected), "nothing was changed");
    const r = await undoConnect(t, now, { force: true });
    assert.equal(r.action, "unmerged");
    assert.equal(fs.readFileSync(file, "utf8"), 'approval_policy = "never"\n');
    assert.ok(r.savedCurrent, "the file as it was is saved");
    assert.ok(fs.readFileSync(r.savedCurrent).equals(connected));
    assert.equal(fs.statSync(r.savedCurrent).mode & 0o777, 0o600, "it holds the key: private");
  });

  test("a minified settings.json gets compact edits and comes back byte for byte; one over 4 MB is refused", async () => {
    const file = path.join(home, ".claude", "settings.json");
    fs.mkdirSync(path.dirname(file));
    const own = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`k${i}`, "v".repeat(20)]));
    const minified = JSON.stringify({ ...own, env: { MINE: "1" } });
    fs.writeFileSync(file, minified);
    const t = { client: claude, dataDir, env };
    await applyConnect(t, S, now);
    const merged = JSON.parse(fs.readFileSync(file, "utf8")) as { env: Record<string, string>; k0: string };
    assert.equal(merged.env.MINE, "1");
    assert.equal(merged.env.ANTHROPIC_BASE_URL, S.origin);
    assert.equal(merged.k0, own.k0);
    assert.equal((await undoConnect(t, now)).action, "restored");
    assert.equal(fs.readFileSync(file, "utf8"), minified);
    // Without the backup the edits are taken out again, and what is left is the user's file as it was.
    await applyConnect(t, S, now);
    fs.rmSync(dataDir, { recursive: true });
    assert.equal((await undoConnect(t, now, { force: true })).action, "unmerged");
    assert.equal(fs.readFileSync(file, "utf8"), minified);

    const huge = `{"pad":"${"x".repeat(MAX_CONFIG_BYTES)}"}`;
    fs.writeFileSync(file, huge);
    await assert.rejects(
      applyConnect(t, S, now),
      (e: unknown) =>
        e instanceof ConfigFileError &&
        /is over 4 MB \(4,194,3\d\d bytes\); Patchbay edits client config files up to that size/.test(e.message),
    );
    assert.equal(fs.statSync(file).size, huge.length, "left as it was");
  });

  test("undo without a backup leaves a file holding no Patchbay key alone: the user's own same-named variables stay", async () => {
    const file = path.join(home, ".claude", "settings.json");
    fs.mkdirSync(path.dirname(file));
    const own = '{\n  "env": {\n    "ANTHROPIC_MODEL": "claude-opus-4-1",\n    "DISABLE_TELEMETRY": "1"\n  }\n}\n';
    fs.writeFileSync(file, own);
    const t = { client: claude, dataDir, env };
    assert.equal((await undoConnect(t, now)).action, "nothing", "never connected");
    assert.equal(fs.readFileSync(file, "utf8"), own);
    await applyConnect(t, S, now);
    assert.equal((await undoConnect(t, now)).action, "restored");
    assert.equal((await undoConnect(t, now)).action, "nothing", "a second undo");
    assert.equal(fs.readFileSync(file, "utf8"), own, "the restored original stays as it is");
  });

  test("undo restores from its backup a file grown over the size connect edits", async () => {
    const file = path.join(home, ".claude", "settings.json");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, '{ "theme": "dark" }\n');
    const t = { client: claude, dataDir, env };
    await applyConnect(t, S, now);
    fs.writeFileSync(file, `{"pad":"${"x".repeat(MAX_CONFIG_BYTES)}"}`);
    const r = await undoConnect(t, now);
    assert.equal(r.action, "restored");
    assert.equal(fs.readFileSync(file, "utf8"), '{ "theme": "dark" }\n');
    assert.ok(r.savedCurrent && fs.statSync(r.savedCurrent).size > MAX_CONFIG_BYTES, "the big version kept aside");
  });

  test("a broken file is refused: nothing written, no backup", async () => {
    const file = path.join(home, ".claude", "settings.json");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, '{ "theme": "dark", }}');
    const t = { client: claude, dataDir, env };
    const before = snapshot(tmp);
    await assert.rejects(
      applyConnect(t, S, now),
      (e: unknown) => e instanceof ConfigFileError && /line 1/.test(e.message) && e.message.startsWith(`${file} `),
    );
    await assert.rejects(planConnect(t, S), ConfigFileError);
    assert.deepEqual(snapshot(tmp), before);
    // A byte-order mark is named as such (Claude Code cannot read such a file either).
    fs.writeFileSync(file, '\uFEFF{ "theme": "dark" }');
    await assert.rejects(
      applyConnect(t, S, now),
      (e: unknown) => e instanceof ConfigFileError && e.message.startsWith(`${file} starts with a byte-order mark`),
    );
    fs.writeFileSync(file, '{ "theme": "dark", }}');
    fs.mkdirSync(path.join(home, ".codex"));
    fs.writeFileSync(path.join(home, ".codex", "config.toml"), "x = = 1\n");
    await assert.rejects(
      planConnect({ client: codex, dataDir, env }, S),
      (e: unknown) =>
        e instanceof ConfigFileError &&
        e.message.startsWith(`${path.join(home, ".codex", "config.toml")} is not valid`),
    );
  });

  test("an unreadable path (a folder) is refused with the reason", async () => {
    fs.mkdirSync(path.join(home, ".codex", "config.toml"), { recursive: true });
    await assert.rejects(applyConnect({ client: codex, dataDir, env }, S, now), /Cannot read .*EISDIR/);
  });

  test("the dry-run diff hides the key", async () => {
    const plan = await planConnect({ client: codex, dataDir, env }, S);
    const diff = planDiff(plan, S.key);
    assert.match(diff, /^--- \/dev\/null\n\+\+\+ b\/config\.toml\n/);
    assert.doesNotMatch(diff, /SECRETSECRET/);
    assert.match(diff, /experimental_bearer_token = "pb-SECR…"/);
    assert.equal(fs.existsSync(path.join(home, ".codex")), false, "a plan writes nothing");
  });
});

// Issue 21 item 4.5: parallel applies (a double click, the CLI beside the dashboard) once let the second apply back up
// Patchbay's own output as "the original", and undo then lost the user's file.
describe("connect files: parallel applies", () => {
  test("many applies at once take one backup, of the original; undo restores it byte for byte", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-connect-race-"));
    try {
      for (let round = 0; round < 12; round++) {
        const home = path.join(tmp, `home-${round}`);
        const dataDir = path.join(tmp, `data-${round}`);
        const file = path.join(home, ".codex", "config.toml");
        fs.mkdirSync(path.dirname(file), { recursive: true });
        const original = `# mine ${round}\napproval_policy = "never"\n`;
        fs.writeFileSync(file, original);
        const t = { client: codex, dataDir, env: { HOME: home } };
        const models = ["a/one", "b/two", "c/three", "d/four", "e/five", "f/six"];
        await Promise.all(models.map((model) => applyConnect(t, { ...S, model, smallModel: model })));
        const origs = fs.readdirSync(backupsDir(dataDir)).filter((n) => n.endsWith(".orig"));
        assert.equal(origs.length, 1, `round ${round}: one backup (${origs.join(", ")})`);
        assert.equal(fs.readFileSync(path.join(backupsDir(dataDir), origs[0]!), "utf8"), original);
        // An undo racing another apply: whichever runs last, the original is never lost.
        await Promise.all([undoConnect(t), applyConnect(t, S)]);
        await undoConnect(t);
        assert.equal(fs.readFileSync(file, "utf8"), original, `round ${round}: the original is back`);
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
