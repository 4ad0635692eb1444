// `patchbay app route|budget|alias --fallback` in-process against a temp data folder: what is saved, and bad input
// (unknown roles, malformed windows, looping or disallowed chains, models the running Patchbay does not list) refused
// with one clear line and nothing saved.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { main } from "../../../server/cli";
import type { CliIO } from "../../../server/cli/context";
import { BUDGET_USAGE_FILE } from "../../../server/budgets/usage-store";
import { runCli, startRunningAdmin } from "./running-admin";

let dataDir: string;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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
  const code = await main(["node", "patchbay", "--data-dir", dataDir, ...args], io);
  return { code, stdout, stderr };
}

const appsFile = () => fs.readFileSync(path.join(dataDir, "apps.json"), "utf8");
const savedApp = () => (JSON.parse(appsFile()) as { data: { apps: Record<string, unknown>[] } }).data.apps[0]!;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cli-route-"));
  assert.equal((await cli("app", "create", "cc", "--models", "mock/*")).code, 0);
});
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test("alias --fallback, route and budget are saved and shown", async () => {
  const alias = await cli("app", "alias", "cc", "fast", "mock/a", "--fallback", "mock/b", "--fallback", "mock/c");
  assert.equal(alias.code, 0, alias.stderr);
  assert.equal(alias.stdout, "fast → mock/a → mock/b → mock/c\n");
  assert.equal((await cli("app", "alias", "cc", "fast")).stdout, "fast → mock/a → mock/b → mock/c\n");
  assert.match((await cli("app", "alias", "cc")).stdout, /fast\s+mock\/a → mock\/b → mock\/c/);
  const route = await cli("app", "route", "cc", "subagent", "fast");
  assert.equal(route.stdout, "subagent → fast\n");
  assert.match((await cli("app", "route", "cc")).stdout, /ROLE\s+MODEL\nsubagent\s+fast/);
  const budget = await cli("app", "budget", "cc", "--requests", "3/5h", "--tokens", "1000/week");
  assert.equal(budget.code, 0, budget.stderr);
  assert.match(budget.stdout, /3 requests per 5 hours\s+0\/3\s+ok/);
  const app = savedApp();
  assert.deepEqual(app.fallbacks, { fast: ["mock/b", "mock/c"] });
  assert.deepEqual(app.routes, { subagent: "fast" });
  assert.deepEqual(app.budgets, [
    { metric: "requests", limit: 3, window: "5h" },
    { metric: "tokens", limit: 1000, window: "week" },
  ]);
  // Uses recorded by a server show in `app budget` (the file the server appends to).
  const now = Date.now();
  fs.writeFileSync(
    path.join(dataDir, BUDGET_USAGE_FILE),
    [1, 2, 3].map((i) => JSON.stringify({ a: app.id, t: now - i * 1000, r: 1 })).join("\n") + "\n",
  );
  const json = JSON.parse((await cli("app", "budget", "cc", "--json")).stdout) as { used: number; spent: boolean }[];
  assert.equal(json[0]!.used, 3);
  assert.equal(json[0]!.spent, true);
  // The alias a route names cannot go first; the message says which route holds it.
  const removeAlias = await cli("app", "alias", "cc", "fast", "--remove");
  assert.equal(removeAlias.code, 2);
  assert.match(removeAlias.stderr, /The alias "fast" cannot be removed: app "cc" routes subagent requests to it/);
  assert.equal((await cli("app", "route", "cc", "subagent", "--remove")).code, 0);
  assert.deepEqual(savedApp().routes, {});
  // One budget goes by its metric and window, the other stays; then every one, each removal said.
  const one = await cli("app", "budget", "cc", "--remove", "tokens/week");
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, /^Removed the budget of 1000 tokens per week\.\n/);
  assert.deepEqual(
    (savedApp().budgets as Array<{ metric: string; window: string }>).map((b) => `${b.metric}/${b.window}`),
    ["requests/5h"],
  );
  const missing = await cli("app", "budget", "cc", "--remove", "requests/day");
  assert.equal(missing.code, 1, "not a usage error: the app has no such budget");
  assert.match(missing.stderr, /App "cc" has no requests budget per day/);
  const all = await cli("app", "budget", "cc", "--remove");
  assert.match(all.stdout, /^Removed every budget of app "cc"\.\nApp "cc" has no budget\./);
  assert.deepEqual(savedApp().budgets, []);
});

test("bad input: one clear line, exit 2, nothing saved", async () => {
  const before = appsFile();
  const cases: [string[], RegExp][] = [
    [["app", "route", "cc", "helper", "fast"], /Unknown role "helper"; use one of: main, subagent/],
    [["app", "route", "cc", "main", "nothere"], /neither an alias of app "cc" nor provider\/model/],
    [["app", "route", "cc", "main", "other/model"], /may not use/],
    [["app", "budget", "cc", "--requests", "10/7x"], /unknown window "7x"; use 5h, day, week/],
    [["app", "budget", "cc", "--tokens", "lots/day"], /use N\/<window>/],
    [
      ["app", "budget", "cc", "--remove", "tokens/fortnight"],
      /'tokens\/fortnight' names no budget: use requests\/<window>/,
    ],
    [
      ["app", "alias", "cc", "fast", "mock/a", "--fallback", "mock/b", "--fallback", "mock/a"],
      /names mock\/a twice.*loop/,
    ],
    [
      ["app", "alias", "cc", "slow", "mock/a", "--fallback", "other/x"],
      /other\/x of "slow" is a model app "cc" may not use/,
    ],
    [["app", "alias", "cc", "slow", "--fallback", "mock/b"], /--fallback needs the alias's target/],
  ];
  for (const [args, message] of cases) {
    const r = await cli(...args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(" "));
    assert.equal(r.stderr.trim().split("\n").length, 1, "one line");
    assert.equal(appsFile(), before, `${args.join(" ")} saved nothing`);
  }
});

test("a route or fallback to a model the running Patchbay does not list is refused; with none running, saved and warned", async () => {
  const running = await startRunningAdmin("pb-cli-route-running-");
  try {
    const run = (...args: string[]) => runCli(["--data-dir", running.dir, ...args]);
    assert.equal((await run("app", "create", "rr", "--models", "mock/*")).code, 0);
    const stored = () => fs.readFileSync(path.join(running.dir, "apps.json"), "utf8");
    const before = stored();
    const cases: [string[], RegExp][] = [
      [
        ["app", "route", "rr", "subagent", "mock/nonesuch"],
        /route for subagent names mock\/nonesuch, which no connected provider offers/,
      ],
      [
        ["app", "alias", "rr", "fast", "mock/zeta", "--fallback", "mock/gone"],
        /fallback mock\/gone of "fast" is a model no connected provider offers/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run(...args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.match(r.err, message);
      assert.equal(r.err.trim().split("\n").length, 1, "one line");
      assert.equal(stored(), before, `${args.join(" ")} saved nothing`);
    }
    const ok = await run("app", "alias", "rr", "fast", "mock/zeta", "--fallback", "mock/alpha");
    assert.equal(ok.code, 0, ok.err);
    assert.equal(ok.err, "");
    assert.equal((await run("app", "route", "rr", "subagent", "fast")).err, "");
  } finally {
    await running.close();
  }
  const unchecked = await cli("app", "route", "cc", "review", "mock/someday");
  assert.equal(unchecked.code, 0, unchecked.stderr);
  assert.match(
    unchecked.stderr,
    /^patchbay: warning: saved without checking that a provider offers mock\/someday: no Patchbay is running on this data folder/,
  );
  assert.equal((savedApp().routes as Record<string, string>).review, "mock/someday");
});
