// Per-app session history against the real OpenCode (one `opencode serve` + mock upstream for this file): 300
// sessions for app A over three tool sets and 20 for app B; exact pagination while sessions arrive; search; messages
// (text, image, the structured-output read failure); deletes (409 running, 404 other app); a limit of 50 prunes
// exactly A's oldest 250 while a running session survives; age limits use session time, not file time.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { PatchbayError } from "../../server/core/errors";
import { HistoryService } from "../../server/history/history-service";
import { appDataKey } from "../../shared/apps";
import { createAppsStore } from "../../server/stores/apps-store";
import { DAY_MS } from "../../server/history/prune-plan";
import { compareNewestFirst } from "../../server/history/session-pager";
import { waitFor } from "../harness/wait-for";
import { createSessions, startHistoryEnv, timed, type Created, type HistoryEnv } from "./history-support";

const MODEL = { providerID: "mock", modelID: "mock-model" };
/** A sweep deadline no test reaches: these sweeps are bounded by their budget, so their counts are exact however
 *  loaded the machine (the default 10 s deadline once cut one short at 193 of 249 under load). */
const BUDGET_ONLY = 600_000;
const RED16 = `data:image/png;base64,${readFileSync(new URL("../fixtures/red16.b64", import.meta.url), "utf8").trim()}`;

let env: HistoryEnv;
let history: HistoryService;
let a: Created[];
let b: Created[];

function newestFirst(list: readonly Created[]): string[] {
  return [...list].sort(compareNewestFirst).map((s) => s.id);
}

async function listAll(
  h: HistoryService,
  app: string,
  limit: number,
  between?: () => Promise<void>,
  search?: string,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const r = await h.list(app, { limit, ...(cursor ? { cursor } : {}), ...(search ? { search } : {}) });
    ids.push(...r.sessions.map((s) => s.id));
    if (!r.nextCursor) return ids;
    cursor = r.nextCursor;
    await between?.();
  }
  throw new Error("pagination did not end");
}

before(async () => {
  env = await startHistoryEnv();
  history = new HistoryService({ opencode: env.supervisor, appsDir: env.appsDir, hasApp: (app) => app !== "ghost" });
  const aDirs = ["t1", "t2", "t3"].map((t) => env.toolSetDir("a", t));
  const bDir = env.toolSetDir("b", "t1");
  const made = await timed(async () => {
    a = await createSessions(
      env,
      300,
      (i) => aDirs[i % 3] as string,
      (i) => `A-${String(i).padStart(3, "0")}`,
    );
    b = await createSessions(
      env,
      20,
      () => bDir,
      (i) => `B-${i}`,
    );
  });
  console.log(`# created 320 sessions in ${Math.round(made.ms)} ms`);
});

after(async () => {
  await env?.stop();
});

describe("history with the real OpenCode", () => {
  test("pagination returns each of A's 300 sessions exactly once, newest first, while new ones arrive", async () => {
    const extra: Created[] = [];
    const t4 = env.toolSetDir("a", "t4");
    const ids = await listAll(history, "a", 50, async () => {
      // New sessions arrive between pages, in an existing and in a brand-new tool set.
      extra.push(
        ...(await createSessions(
          env,
          2,
          (i) => (i ? t4 : (a[0] as Created).directory),
          (i) => `A-new-${extra.length + i}`,
        )),
      );
    });
    assert.equal(ids.length, 300);
    assert.deepEqual(ids, newestFirst(a), "exactly A's original sessions, in order");
    assert.ok(extra.length >= 10);

    // A fresh listing shows the new ones first; then they go (bulk delete), so the prune test below is exact.
    const first = await history.list("a", { limit: extra.length });
    assert.deepEqual(new Set(first.sessions.map((s) => s.id)), new Set(extra.map((s) => s.id)));
    const del = await history.delete(
      "a",
      extra.map((s) => s.id),
    );
    assert.equal(del.deleted.length, extra.length);
    fs.rmSync(t4, { recursive: true });

    const bIds = await listAll(history, "b", 7);
    assert.deepEqual(bIds, newestFirst(b), "B lists only its own 20");
  });

  test("summaries carry tool set, times and zero usage for unprompted sessions", async () => {
    const page = await history.list("a", { limit: 3 });
    const s = page.sessions[0]!;
    const created = a.find((x) => x.id === s.id)!;
    assert.equal(s.toolSet, created.directory.split("/").at(-1));
    assert.equal(s.createdAt, created.createdAt);
    assert.equal(s.title, created.title);
    assert.equal(s.running, false);
    assert.deepEqual(s.tokens, { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 });
    assert.equal(s.model, null);
  });

  test("search matches titles (OpenCode's own title search), across pages", async () => {
    const ids = await listAll(history, "a", 4, undefined, "A-01");
    assert.deepEqual(ids, newestFirst(a.filter((s) => s.title.startsWith("A-01"))));
    assert.equal(ids.length, 10);
  });

  test("messages: text, usage and model; an image; the structured-output read failure falls back", async () => {
    const client = env.supervisor.client();
    const dir = env.toolSetDir("m", "t1");
    const sid = (await client.session.create({ directory: dir, title: "chat" })).data!.id;
    await client.session.prompt({
      sessionID: sid,
      directory: dir,
      model: MODEL,
      parts: [{ type: "text", text: "hello history" }],
    });
    const page = await history.messages("m", sid);
    assert.deepEqual(
      page.messages.map((m) => [m.role, m.parts.map((p) => (p.type === "text" ? p.text : p.type))]),
      [
        ["user", ["hello history"]],
        ["assistant", ["MOCK_DEFAULT_REPLY"]],
      ],
    );
    assert.equal(page.messages[1]!.model, "mock/mock-model");
    assert.ok((page.messages[1]!.tokens?.input ?? 0) > 0, "assistant usage");
    assert.equal(page.session.model, "mock/mock-model");
    assert.ok(page.session.tokens.input > 0 && page.session.updatedAt >= page.session.createdAt);

    const img = (await client.session.create({ directory: dir, title: "image" })).data!.id;
    await client.session.prompt({
      sessionID: img,
      directory: dir,
      noReply: true,
      model: MODEL,
      parts: [
        { type: "text", text: "look" },
        { type: "file", mime: "image/png", filename: "red.png", url: RED16 },
      ],
    });
    const imgPage = await history.messages("m", img);
    const image = imgPage.messages[0]!.parts.find((p) => p.type === "image");
    assert.ok(
      image && image.type === "image" && image.dataUrl?.startsWith("data:image/png;base64,") && (image.bytes ?? 0) > 0,
      JSON.stringify(imgPage.messages),
    );

    const so = (await client.session.create({ directory: dir, title: "structured" })).data!.id;
    const format = { type: "json_schema" as const, schema: { type: "object", properties: { a: { type: "string" } } } };
    await client.session.prompt({
      sessionID: so,
      directory: dir,
      noReply: true,
      model: MODEL,
      format,
      parts: [{ type: "text", text: "structured q" }],
    });
    await client.session.prompt({
      sessionID: so,
      directory: dir,
      model: MODEL,
      parts: [{ type: "text", text: "plain q" }],
    });
    assert.equal(
      (await client.session.messages({ sessionID: so, directory: dir })).response.status,
      400,
      "OpenCode's list endpoint still fails here",
    );
    const soPage = await history.messages("m", so);
    assert.deepEqual(
      soPage.messages.map((m) => (m.parts[0]?.type === "text" ? m.parts[0].text : m.parts[0]?.type)),
      ["unreadable", "plain q", "MOCK_DEFAULT_REPLY"],
    );
    assert.match(soPage.incomplete ?? "", /structured-output/);

    await assert.rejects(
      history.messages("a", sid),
      (e: PatchbayError) => e.code === "session_not_found",
      "another app's session is 404",
    );
  });

  test("deletes: unknown app 404, another app's session 404, unknown session 404", async () => {
    await assert.rejects(
      history.deleteOne("ghost", a[0]!.id),
      (e: PatchbayError) => e.code === "app_not_found" && e.status === 404,
    );
    await assert.rejects(
      history.deleteOne("b", a[0]!.id),
      (e: PatchbayError) => e.code === "session_not_found" && e.status === 404,
    );
    await assert.rejects(
      history.deleteOne("a", "ses_doesnotexist000000000000"),
      (e: PatchbayError) => e.status === 404,
    );
    assert.ok((await env.supervisor.client().session.get({ sessionID: a[0]!.id })).data, "still there");
  });

  test("a limit of 50 prunes exactly A's oldest 250; a running session survives; B is untouched", async () => {
    const client = env.supervisor.client();
    const oldest = [...a].sort(compareNewestFirst).reverse();
    const held = oldest[9]!; // over the limit, and running during the sweep
    env.mock.script({ text: "partial answer", hold: true });
    const seen = env.mock.chatRequests().length;
    await client.session.promptAsync({
      sessionID: held.id,
      directory: held.directory,
      model: MODEL,
      parts: [{ type: "text", text: "hold me" }],
    });
    await env.mock.waitForRequests(seen + 1, 30_000);
    await waitFor(
      "the held session to show as running",
      async () => (await history.messages("a", held.id, { limit: 1 })).session.running,
      15_000,
    );

    await assert.rejects(
      history.deleteOne("a", held.id),
      (e: PatchbayError) => e.code === "session_running" && e.status === 409 && /still running/.test(e.message),
    );

    const limits = { maxSessions: 50, maxAgeDays: null };
    const preview = await history.previewPrune("a", limits);
    assert.deepEqual([preview.scanned, preview.count, preview.skippedRunning], [300, 249, 1]);
    assert.equal(preview.sample.length, 10);

    const sweep = await timed(() => history.prune("a", { limits, budget: 1000, deadlineMs: BUDGET_ONLY }));
    console.log(
      `# pruned ${sweep.value.removed} sessions (looked at ${sweep.value.scanned}) in ${Math.round(sweep.ms)} ms`,
    );
    assert.deepEqual(
      [
        sweep.value.removed,
        sweep.value.skippedRunning,
        sweep.value.remaining,
        sweep.value.failed,
        sweep.value.alreadyMissing,
      ],
      [249, 1, 0, 0, 0],
    );
    const left = await listAll(history, "a", 200);
    const expected = [...newestFirst(a).slice(0, 50), held.id];
    assert.deepEqual(new Set(left), new Set(expected), "the newest 50 plus the running one");
    assert.deepEqual(await listAll(history, "b", 50), newestFirst(b), "B untouched");
    for (const s of oldest.slice(0, 250)) {
      if (s.id === held.id) continue;
      assert.equal((await client.session.get({ sessionID: s.id })).response.status, 404);
    }

    env.mock.release();
    await waitFor(
      "the held session to finish",
      async () => !(await history.messages("a", held.id, { limit: 1 })).session.running,
      15_000,
    );
  });

  test("age limits use session time (OpenCode's time.updated), not file times", async () => {
    const dirs = ["t1", "t2"].map((t) => env.toolSetDir("c", t));
    const old = await createSessions(
      env,
      10,
      (i) => dirs[i % 2] as string,
      (i) => `old-${i}`,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const fresh = await createSessions(
      env,
      5,
      (i) => dirs[i % 2] as string,
      (i) => `fresh-${i}`,
    );
    // Using an old session makes it recent by session time.
    const revived = old[3]!;
    await env.supervisor.client().session.prompt({
      sessionID: revived.id,
      directory: revived.directory,
      model: MODEL,
      parts: [{ type: "text", text: "again" }],
    });
    // File times say the opposite: the folders look ancient, OpenCode's database brand new.
    for (const d of dirs) fs.utimesSync(d, new Date(0), new Date(0));

    const freshFrom = Math.min(...fresh.map((s) => s.createdAt));
    // "Now" is one day after the fresh batch: the old batch (≥ 1.5 s earlier) is then older than 1 day.
    const aged = new HistoryService({
      opencode: env.supervisor,
      appsDir: env.appsDir,
      now: () => freshFrom + DAY_MS - 1,
    });
    const preview = await aged.previewPrune("c", { maxSessions: null, maxAgeDays: 1 });
    assert.equal(preview.count, 9);
    const r = await aged.prune("c", { limits: { maxSessions: null, maxAgeDays: 1 }, deadlineMs: BUDGET_ONLY });
    assert.equal(r.removed, 9);
    const left = new Set(await listAll(history, "c", 50));
    assert.deepEqual(left, new Set([...fresh.map((s) => s.id), revived.id]));

    // With the real clock nothing in "c" is a day old: a sweep deletes nothing.
    const none = await history.prune("c", { limits: { maxSessions: null, maxAgeDays: 1 }, deadlineMs: BUDGET_ONLY });
    assert.equal(none.removed, 0);
  });

  test("CLI: `sessions list --json` and `sessions prune` next to the running OpenCode (same database)", async () => {
    const apps = await createAppsStore({ dataDir: env.dataDir });
    const cliApp = await apps.create("cli", { history: { maxSessions: 5, maxAgeDays: null } });
    await apps.create("forever");
    await apps.close();
    // Sessions live under the app's data key (a later app of the same name never sees them).
    const dir = env.toolSetDir(appDataKey(cliApp), "t1");
    const made = await createSessions(
      env,
      12,
      () => dir,
      (i) => `cli-${i}`,
    );
    // A request running in "this" Patchbay (not the CLI's OpenCode): its session is one of the oldest.
    const held = [...made].sort(compareNewestFirst).at(-1)!;
    env.mock.script({ text: "partial answer", hold: true });
    const seen = env.mock.chatRequests().length;
    await env.supervisor.client().session.promptAsync({
      sessionID: held.id,
      directory: dir,
      model: MODEL,
      parts: [{ type: "text", text: "hold" }],
    });
    await env.mock.waitForRequests(seen + 1, 30_000);

    const list = await cli(["sessions", "list", "cli", "--json", "--all"]);
    assert.equal(list.code, 0, list.stderr);
    const listed = JSON.parse(list.stdout) as { id: string; title: string }[];
    assert.deepEqual(
      listed.map((x) => x.id),
      newestFirst(made),
    );

    const table = await cli(["sessions", "list", "cli", "--limit", "3"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^ID\s+CREATED\s+UPDATED\s+MODEL\s+TOKENS IN\/OUT\s+TITLE/);
    assert.equal(table.stdout.trim().split("\n").length, 4);

    // A session without messages counts as running for its first 5 s (a request's brand-new session:
    // server/history/running-sessions.ts); these have none, so the prune waits that out (on a fast machine the CLI
    // calls above take less).
    const youngest = Math.max(...made.map((m) => m.createdAt));
    await new Promise((r) => setTimeout(r, Math.max(0, youngest + 5_500 - Date.now())));
    const dry = await cli(["sessions", "prune", "cli", "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /12 sessions; a prune would delete 6 .*1 running kept/s);

    const pruned = await cli(["sessions", "prune", "cli"]);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.match(pruned.stdout, /removed 6, .*kept as running 1, still over the limits 0/);
    const left = new Set((await history.list(appDataKey(cliApp), { limit: 50 })).sessions.map((x) => x.id));
    assert.deepEqual(left, new Set([...newestFirst(made).slice(0, 5), held.id]), "the newest 5 and the running one");

    const forever = await cli(["sessions", "prune", "forever"]);
    assert.equal(forever.code, 0);
    assert.match(forever.stdout, /keeps its history forever/);
    const unknown = await cli(["sessions", "list", "nope"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No app named "nope" in the data folder \S+\. See: .* app list/);

    env.mock.release();
    assert.equal(
      (await env.supervisor.client().global.health()).response.status,
      200,
      "the running OpenCode is unaffected",
    );
  });
});

/** Runs `patchbay` on this file's data folder with the test user's OpenCode config (mock provider). */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const root = path.resolve(import.meta.dirname, "../..");
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(childEnv)) if (k.startsWith("OPENCODE_") || k.startsWith("PATCHBAY_")) delete childEnv[k];
  childEnv.PATCHBAY_DATA_DIR = env.dataDir;
  childEnv.XDG_CONFIG_HOME = env.userConfigHome;
  childEnv.XDG_DATA_HOME = path.join(env.dataDir, "no-user-data");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "bin", "patchbay.mjs"), ...args], {
      cwd: root,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
