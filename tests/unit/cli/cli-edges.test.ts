// CLI edges found by QA (in process): an empty --data-dir is a usage error, `help` ends with 0, key prefixes are
// shown as `pb-…` like the dashboard and accepted in both forms, `serve --host` must be a loopback address and
// `doctor --base-url` an http(s) URL.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { main } from "../../../server/cli";
import type { CliIO, CreatePatchbay } from "../../../server/cli/context";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], createPatchbay?: CreatePatchbay): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    out: (t) => void (stdout += t),
    err: (t) => void (stderr += t),
    env: {},
    stdoutIsTTY: false,
    exit: (code) => {
      throw new Error(`exit ${code} was not expected here`);
    },
    onSignal: () => undefined,
  };
  const code = await main(["node", "patchbay", ...args], io, createPatchbay ? { createPatchbay } : {});
  return { code, stdout, stderr };
}

describe("patchbay CLI edges", () => {
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cli-edges-"));
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test("--data-dir '' (or blanks) is a usage error, exit 2, and creates nothing", async () => {
    for (const value of ["", "   "]) {
      const r = await cli(["--data-dir", value, "app", "list"]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--data-dir/);
      assert.match(r.stderr, /empty/);
    }
  });

  test("`patchbay help` and `patchbay help serve` print help and exit 0", async () => {
    const r = await cli(["help"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /serve/);
    const serve = await cli(["help", "serve"]);
    assert.equal(serve.code, 0, serve.stderr);
    assert.match(serve.stdout, /--host/);
  });

  test("key list shows pb-<prefix> like the dashboard; key revoke takes either form", async () => {
    const d = ["--data-dir", dataDir];
    assert.equal((await cli([...d, "app", "create", "edge-app"])).code, 0);
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) keys.push((await cli([...d, "key", "create", "edge-app"])).stdout.trim());
    const [withScheme, bare] = keys.map((k) => k.slice(3, 15));
    const list = await cli([...d, "key", "list", "edge-app"]);
    assert.equal(list.code, 0, list.stderr);
    for (const prefix of [withScheme, bare]) assert.ok(list.stdout.includes(`pb-${prefix}`), list.stdout);

    const r1 = await cli([...d, "key", "revoke", "edge-app", `pb-${withScheme}`]);
    assert.equal(r1.code, 0, r1.stderr);
    assert.match(r1.stdout, new RegExp(`Revoked key pb-${withScheme?.replace(/-/g, "\\-")}`));
    const r2 = await cli([...d, "key", "revoke", "edge-app", bare ?? ""]);
    assert.equal(r2.code, 0, r2.stderr);
    assert.match((await cli([...d, "key", "list", "edge-app"])).stdout, /No keys/);
  });

  test("key revoke takes what users paste: the whole key, a trailing ... or …, surrounding spaces", async () => {
    const d = ["--data-dir", dataDir];
    assert.equal((await cli([...d, "app", "create", "paste-app"])).code, 0);
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) keys.push((await cli([...d, "key", "create", "paste-app"])).stdout.trim());
    const [whole, dots, ellipsis] = keys as [string, string, string];
    for (const arg of [`  ${whole} `, `${dots.slice(0, 15)}...`, `${ellipsis.slice(0, 15)}…`]) {
      const r = await cli([...d, "key", "revoke", "paste-app", arg]);
      assert.equal(r.code, 0, `${arg}: ${r.stderr}`);
      assert.ok(!r.stdout.includes(whole), "the whole key is never printed back");
    }
    assert.match((await cli([...d, "key", "list", "paste-app"])).stdout, /No keys/);
  });

  test("app history shows and sets the history limits; bad values are usage errors naming the flag", async () => {
    const d = ["--data-dir", dataDir];
    assert.equal((await cli([...d, "app", "create", "hist-app"])).code, 0);
    const shown = await cli([...d, "app", "history", "hist-app"]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, 'App "hist-app" history: keep forever.\n');

    const set = await cli([...d, "app", "history", "hist-app", "--max-sessions", "200", "--max-age-days", "30"]);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /^App "hist-app" history: keep the newest 200, delete after 30 days\.$/m);
    assert.match(set.stdout, /(patchbay|node \S+\/bin\/patchbay\.mjs) (--data-dir \S+ )?sessions prune hist-app/);
    const json = JSON.parse((await cli([...d, "app", "list", "--json"])).stdout) as Array<{
      name: string;
      history: unknown;
    }>;
    assert.deepEqual(json.find((a) => a.name === "hist-app")?.history, { maxSessions: 200, maxAgeDays: 30 });

    const cleared = await cli([...d, "app", "history", "hist-app", "--max-age-days", "none"]);
    assert.match(cleared.stdout, /keep the newest 200\.$/m);
    for (const [flag, value] of [
      ["--max-sessions", "0"],
      ["--max-sessions", "1.5"],
      ["--max-sessions", "lots"],
      ["--max-age-days", "36501"],
      ["--max-age-days", ""],
    ] as const) {
      const r = await cli([...d, "app", "history", "hist-app", flag, value]);
      assert.equal(r.code, 2, `${flag} ${value}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(flag));
    }
    const missing = await cli([...d, "app", "history", "no-such-app"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No app named "no-such-app"/);
    const missingSet = await cli([...d, "app", "history", "no-such-app", "--max-sessions", "5"]);
    assert.equal(missingSet.code, 1, missingSet.stderr);
  });

  test("app models shows and sets the allowlist; `all` allows every model; bad patterns are usage errors", async () => {
    const d = ["--data-dir", dataDir];
    assert.equal((await cli([...d, "app", "create", "models-app"])).code, 0);
    assert.equal((await cli([...d, "app", "models", "models-app"])).stdout, 'App "models-app" may use every model.\n');
    const set = await cli([...d, "app", "models", "models-app", "demo/*, mock/m"]);
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.stdout, 'App "models-app" may use demo/*, mock/m.\n');
    const listed = JSON.parse((await cli([...d, "app", "list", "--json"])).stdout) as Array<{
      name: string;
      models: string[];
    }>;
    assert.deepEqual(listed.find((a) => a.name === "models-app")?.models, ["demo/*", "mock/m"]);
    assert.equal(
      (await cli([...d, "app", "models", "models-app", "all"])).stdout,
      'App "models-app" may use every model.\n',
    );
    for (const bad of [",,", "bad pattern", "noslash"]) {
      const r = await cli([...d, "app", "models", "models-app", bad]);
      assert.equal(r.code, 2, `${bad}: ${r.stderr}`);
    }
    assert.equal((await cli([...d, "app", "models", "no-such-app"])).code, 1);
  });

  test("app alias lists, sets, shows and removes aliases; reserved and malformed names are refused", async () => {
    const d = ["--data-dir", dataDir];
    assert.equal((await cli([...d, "app", "create", "alias-app"])).code, 0);
    assert.equal((await cli([...d, "app", "alias", "alias-app"])).stdout, 'App "alias-app" has no aliases.\n');
    assert.equal((await cli([...d, "app", "alias", "alias-app", "fast", "demo/echo"])).stdout, "fast → demo/echo\n");
    assert.equal((await cli([...d, "app", "alias", "alias-app", "deep", "mock/m#high"])).code, 0);
    assert.equal((await cli([...d, "app", "alias", "alias-app", "fast"])).stdout, "fast → demo/echo\n");
    const table = (await cli([...d, "app", "alias", "alias-app"])).stdout;
    assert.match(table, /^ALIAS +TARGET\ndeep +mock\/m#high\nfast +demo\/echo\n$/);
    const removed = await cli([...d, "app", "alias", "alias-app", "fast", "--remove"]);
    assert.equal(removed.code, 0, removed.stderr);
    const listed = JSON.parse((await cli([...d, "app", "list", "--json"])).stdout) as Array<{
      name: string;
      aliases: Record<string, string>;
    }>;
    assert.deepEqual(listed.find((a) => a.name === "alias-app")?.aliases, { deep: "mock/m#high" });

    for (const args of [
      ["__proto__", "demo/echo"],
      ["constructor"],
      ["bad/name", "demo/echo"],
      ["x", "not-a-model"],
      ["deep", "demo/echo", "--remove"],
    ]) {
      const r = await cli([...d, "app", "alias", "alias-app", ...args]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    }
    const missing = await cli([...d, "app", "alias", "alias-app", "toString"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /has no alias "toString"/);
    assert.equal((await cli([...d, "app", "alias", "alias-app", "nope", "--remove"])).code, 1);
  });

  test("a name with control characters or of 5000 characters: told the rule, echoed short and escaped", async () => {
    const d = ["--data-dir", dataDir];
    const escape = await cli([...d, "app", "alias", "alias-app", "a\u001b[31mb", "demo/echo"]);
    assert.equal(escape.code, 2);
    assert.ok(!escape.stderr.includes("\u001b"), "no raw escape sequence reaches the terminal");
    assert.equal(
      escape.stderr,
      `patchbay: Invalid alias name "a\\u001b[31mb": Alias names are 1–80 characters: letters, digits, '.', '_', ':' and '-'.\n`,
    );
    const long = await cli([...d, "app", "alias", "alias-app", "x".repeat(5000), "demo/echo"]);
    assert.equal(long.code, 2);
    assert.match(long.stderr, /^patchbay: Invalid alias name "x{80}…": Alias names are 1–80 characters/);
    assert.ok(long.stderr.length < 300, `${long.stderr.length} characters`);
    const app = await cli([...d, "app", "delete", "no\u0007such"]);
    assert.equal(app.code, 1);
    assert.ok(app.stderr.includes("no\\u0007such") && !app.stderr.includes("\u0007"), app.stderr);
  });

  test("serve --host must be loopback; the message points to LAN exposure; Patchbay is not started", async () => {
    let started = 0;
    const create: CreatePatchbay = async () => {
      started++;
      throw new Error("must not start");
    };
    for (const host of ["0.0.0.0", "192.168.1.5", "not a host!!", "::"]) {
      const r = await cli(["--data-dir", dataDir, "serve", "--host", host], create);
      assert.equal(r.code, 2, `${host}: ${r.stderr}`);
      assert.match(r.stderr, /LAN exposure/);
    }
    assert.equal(started, 0);
  });

  test("doctor --base-url that is no http(s) URL is a usage error naming the flag; Patchbay is not started", async () => {
    let started = 0;
    const create: CreatePatchbay = async () => {
      started++;
      throw new Error("must not start");
    };
    for (const url of ["garbage", "ftp://127.0.0.1/v1", "javascript:alert(1)", "http://[::1", "http://"]) {
      const r = await cli(["--data-dir", dataDir, "doctor", "--base-url", url], create);
      assert.equal(r.code, 2, `${url}: ${r.stderr}`);
      assert.match(r.stderr, /--base-url: .* is not an http\(s\) URL/);
    }
    assert.equal(started, 0);
  });
});
