// Request log: redaction, live subscribers, query filters and cursor paging over ring + files, rotation,
// restart survival, usage per day, disk errors.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { RequestLogEntry } from "../../../shared/log-entry";
import { PatchbayError } from "../../../server/core/errors";
import { createRequestLog } from "../../../server/stores/request-log";
import type { RequestLog } from "../../../server/stores/types";
import { everyTestApp, testAppOwner } from "../../harness/builders";
import { logEntry, removeDir, tempDir } from "./helpers";

const KEY = "pb-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde";
const DAY = 86_400_000;
const T0 = new Date(2026, 2, 10, 12, 0, 0).getTime(); // local noon, 10 March 2026

let counter = 0;
/** A log entry with a fresh id, at T0, with usage. */
function entry(over: Partial<RequestLogEntry> = {}): RequestLogEntry {
  counter++;
  return logEntry({
    id: `req-${counter}`,
    time: T0,
    usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 1, reasoningTokens: 2 },
    ...over,
  });
}

function readAll(dir: string): string {
  const logs = path.join(dir, "logs");
  return fs
    .readdirSync(logs)
    .map((n) => fs.readFileSync(path.join(logs, n), "utf8"))
    .join("");
}

function allPages(log: RequestLog, q: Parameters<RequestLog["query"]>[0]): RequestLogEntry[] {
  const out: RequestLogEntry[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const page = log.query({ ...q, ...(cursor ? { cursor } : {}) }, everyTestApp);
    out.push(...page.entries);
    if (!page.nextCursor) return out;
    cursor = page.nextCursor;
  }
  throw new Error("paging did not end");
}

describe("request log", () => {
  let root: string;
  before(() => {
    root = tempDir("reqlog");
  });
  after(() => removeDir(root));

  test("redacts keys and Bearer tokens everywhere, before storing and broadcasting", async () => {
    const dir = fs.mkdtempSync(path.join(root, "redact-"));
    const log = await createRequestLog({ dataDir: dir, clock: () => T0 });
    const seen: RequestLogEntry[] = [];
    log.subscribe((e) => seen.push(e));
    const original = entry({
      errorMessage: `Invalid key ${KEY}`,
      warnings: [`Authorization: Bearer ${KEY}`, "Bearer sk-upstream-secret"],
      requestBody: {
        messages: [{ role: "user", content: `my key is ${KEY}` }],
        headers: { Authorization: "Basic abc" },
        api_key: "x",
      },
      responseBody: `echo ${KEY}`,
    });
    log.append(original);
    await log.close();
    const stored = log.recent(1)[0] as RequestLogEntry;
    assert.equal(seen.length, 1);
    for (const e of [stored, seen[0] as RequestLogEntry]) {
      const text = JSON.stringify(e);
      assert.ok(!text.includes(KEY.slice(15)), `no secret part of the key in ${text}`);
      assert.ok(!text.includes("sk-upstream-secret"));
      assert.ok(!text.includes("Basic abc"));
      assert.equal(e.errorMessage, "Invalid key pb-[redacted]");
      assert.deepEqual(e.warnings, ["Authorization: Bearer [redacted]", "Bearer [redacted]"]);
      assert.deepEqual(e.requestBody, {
        messages: [{ role: "user", content: "my key is pb-[redacted]" }],
        headers: { Authorization: "[redacted]" },
        api_key: "[redacted]",
      });
    }
    const disk = readAll(dir);
    assert.ok(disk.length > 0);
    assert.ok(!disk.includes(KEY.slice(15)) && !disk.includes("sk-upstream-secret"), "nothing secret on disk");
    assert.equal(original.errorMessage, `Invalid key ${KEY}`, "the caller's entry is not changed");
    assert.equal(stored.keyPrefix, "AbCdEfGhIjKl", "the public prefix stays");
  });

  test("secrets Patchbay knows by value are removed wherever they appear, without Bearer (issue 16 item 8)", async () => {
    const dir = fs.mkdtempSync(path.join(root, "known-"));
    const adminToken = "Zq8v0xYw3AdminTokenValue_abcdefghijkLMNOP";
    const secrets = [adminToken, "login-nonce-0123456789", "opencode-password-xyz"];
    const log = await createRequestLog({ dataDir: dir, clock: () => T0, secrets: () => secrets });
    const seen: RequestLogEntry[] = [];
    log.subscribe((e) => seen.push(e));
    log.append(
      entry({
        errorMessage: `token=${adminToken};`,
        requestBody: {
          messages: [
            { role: "user", content: `here:${adminToken}.and(${secrets[1]})` },
            { role: "user", content: `opencode:${secrets[2]} and a key mid-word x${KEY}y` },
          ],
          [`k${adminToken}`]: 1,
        },
        responseBody: `echo ${secrets[2]}`,
      }),
    );
    await log.close();
    for (const text of [JSON.stringify(log.recent(1)[0]), JSON.stringify(seen[0]), readAll(dir)]) {
      for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} leaked in ${text}`);
      assert.ok(!text.includes(KEY.slice(15)), "the key leaked");
    }
    const stored = log.recent(1)[0] as RequestLogEntry;
    assert.equal(stored.errorMessage, "token=[redacted];");
    assert.deepEqual((stored.requestBody as { messages: { content: string }[] }).messages[0], {
      role: "user",
      content: "here:[redacted].and([redacted])",
    });
  });

  test("bodies are kept only when the entry carries them; long body strings are cut", async () => {
    const dir = fs.mkdtempSync(path.join(root, "bodies-"));
    const log = await createRequestLog({ dataDir: dir, maxBodyStringChars: 100 });
    log.append(entry());
    log.append(entry({ requestBody: { image: "A".repeat(1000) } }));
    await log.close();
    const [plain, withBody] = log.recent(2);
    assert.equal("requestBody" in (plain as object), false);
    assert.equal("responseBody" in (plain as object), false);
    const image = (withBody?.requestBody as { image: string }).image;
    assert.ok(image.startsWith("A".repeat(100)) && image.includes("[truncated, 900 more characters]"));
  });

  test("subscribe delivers live entries until unsubscribed; a throwing subscriber harms no one", async () => {
    const dir = fs.mkdtempSync(path.join(root, "sub-"));
    const log = await createRequestLog({ dataDir: dir });
    const got: string[] = [];
    log.subscribe(() => {
      throw new Error("broken subscriber");
    });
    const off = log.subscribe((e) => got.push(e.id));
    const a = entry();
    log.append(a);
    off();
    log.append(entry());
    assert.deepEqual(got, [a.id]);
    assert.equal(log.recent(10).length, 2);
    assert.equal(log.lastError(), null);
    await log.close();
  });

  test("query filters: app, exact status, class, error, model (asked or resolved), time range", async () => {
    const dir = fs.mkdtempSync(path.join(root, "filters-"));
    const log = await createRequestLog({ dataDir: dir, clock: () => T0 });
    log.append(entry({ id: "a1", app: "alpha", status: 200, time: T0 - 3000 }));
    log.append(
      entry({ id: "b1", app: "beta", status: 404, time: T0 - 2000, modelAsked: "fast", modelResolved: "mock/m2" }),
    );
    log.append(entry({ id: "a2", app: "alpha", status: 502, time: T0 - 1000 }));
    log.append(entry({ id: "n1", app: null, status: 401, time: T0 }));
    const ids = (q: Parameters<RequestLog["query"]>[0]) => log.query(q, everyTestApp).entries.map((e) => e.id);
    assert.deepEqual(ids({}), ["n1", "a2", "b1", "a1"], "newest first");
    assert.deepEqual(ids({ app: "alpha" }), ["a2", "a1"]);
    assert.deepEqual(ids({ status: "404" }), ["b1"]);
    assert.deepEqual(ids({ status: "5xx" }), ["a2"]);
    assert.deepEqual(ids({ status: "4xx" }), ["n1", "b1"]);
    assert.deepEqual(ids({ status: "error" }), ["n1", "a2", "b1"]);
    assert.deepEqual(ids({ model: "mock/m2" }), ["b1"]);
    assert.deepEqual(ids({ model: "fast" }), ["b1"]);
    assert.deepEqual(ids({ since: T0 - 2000, until: T0 }), ["a2", "b1"], "since inclusive, until exclusive");
    assert.throws(
      () => log.query({ status: "teapot" }, everyTestApp),
      (e: unknown) => e instanceof PatchbayError && e.param === "status",
    );
    assert.throws(
      () => log.query({ cursor: "garbage" }, everyTestApp),
      (e: unknown) => e instanceof PatchbayError && e.param === "cursor",
    );
    await log.close();
  });

  test("cursor paging walks the ring and then the files without gaps or duplicates", async () => {
    const dir = fs.mkdtempSync(path.join(root, "paging-"));
    const log = await createRequestLog({ dataDir: dir, ringSize: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const e = entry({ id: `p${i}`, app: i % 3 === 0 ? "gamma" : "alpha" });
      ids.push(e.id);
      log.append(e);
    }
    await log.close(); // flushed: entries older than the ring come from disk
    const all = allPages(log, { limit: 4 });
    assert.deepEqual(
      all.map((e) => e.id),
      [...ids].reverse(),
    );
    const gamma = allPages(log, { limit: 2, app: "gamma" });
    assert.deepEqual(
      gamma.map((e) => e.id),
      ids.filter((_, i) => i % 3 === 0).reverse(),
    );
    assert.equal(
      log.query({ limit: 1000 }, everyTestApp).entries.length,
      23,
      "limit is capped at 500, more than we have",
    );
  });

  test("a query with a small read budget returns a partial page and a cursor to go on", async () => {
    const dir = fs.mkdtempSync(path.join(root, "budget-"));
    const log = await createRequestLog({ dataDir: dir, ringSize: 1, queryBudgetBytes: 1 });
    for (let i = 0; i < 10; i++) log.append(entry({ id: `q${i}`, app: i === 0 ? "rare" : "alpha" }));
    await log.close();
    const first = log.query({ app: "rare" }, everyTestApp);
    assert.equal(first.entries.length, 0);
    assert.ok(first.nextCursor, "a cursor to continue from");
    const found = allPages(log, { app: "rare" });
    assert.deepEqual(
      found.map((e) => e.id),
      ["q0"],
    );
  });

  test("rotation keeps at most maxFiles files of about maxFileBytes", async () => {
    const dir = fs.mkdtempSync(path.join(root, "rotate-"));
    const log = await createRequestLog({ dataDir: dir, maxFileBytes: 2000, maxFiles: 3, ringSize: 2, flushDelayMs: 0 });
    for (let i = 0; i < 60; i++) {
      log.append(entry({ id: `r${i}` }));
      if (i % 3 === 2) await new Promise((r) => setTimeout(r, 5)); // let batches reach the disk
    }
    await log.close();
    const files = fs.readdirSync(path.join(dir, "logs")).sort();
    assert.deepEqual(files, ["requests.1.jsonl", "requests.2.jsonl", "requests.jsonl"]);
    for (const f of files)
      assert.ok(fs.statSync(path.join(dir, "logs", f)).size <= 2000 + 1000, `${f} is about the cap`);
    const kept = allPages(log, { limit: 7 }).map((e) => e.id);
    assert.equal(kept[0], "r59");
    assert.ok(kept.length < 60, "the oldest entries were rotated away");
    const expected = Array.from({ length: kept.length }, (_, i) => `r${59 - i}`);
    assert.deepEqual(kept, expected, "what is left is contiguous and newest first");
  });

  test("survives a restart: ring, seq, paging and today's totals and usage come back", async () => {
    const dir = fs.mkdtempSync(path.join(root, "restart-"));
    let now = T0;
    const first = await createRequestLog({ dataDir: dir, clock: () => now, ringSize: 3 });
    first.append(entry({ id: "y1", time: T0 - DAY, status: 200 }));
    first.append(entry({ id: "t1", time: T0, status: 200 }));
    first.append(entry({ id: "t2", time: T0, status: 500 }));
    first.append(entry({ id: "t3", time: T0, status: 200, app: "beta" }));
    // A client that went away (499) is a request, not an error anyone must fix.
    first.append(entry({ id: "t4", time: T0, status: 499 }));
    assert.deepEqual(first.totals(), { requests: 5, errors: 1, requestsToday: 4, errorsToday: 1 });
    await first.close();

    const second = await createRequestLog({ dataDir: dir, clock: () => now, ringSize: 3 });
    assert.deepEqual(
      second.recent(10).map((e) => e.id),
      ["t2", "t3", "t4"],
    );
    assert.deepEqual(second.totals(), { requests: 0, errors: 0, requestsToday: 4, errorsToday: 1 });
    second.append(entry({ id: "t5", time: T0 }));
    assert.deepEqual(
      allPages(second, { limit: 2 }).map((e) => e.id),
      ["t5", "t4", "t3", "t2", "t1", "y1"],
    );
    const usage = second.usage(testAppOwner("alpha"), 3);
    assert.deepEqual(
      usage.map((u) => [u.requests, u.errors, u.inputTokens, u.outputTokens, u.cachedTokens, u.reasoningTokens]),
      [
        [0, 0, 0, 0, 0, 0],
        [1, 0, 10, 5, 1, 2],
        [4, 1, 40, 20, 4, 8],
      ],
    );
    assert.deepEqual(
      usage.map((u) => u.day),
      ["2026-03-08", "2026-03-09", "2026-03-10"],
    );
    assert.equal(second.usage(testAppOwner("beta"), 1)[0]?.requests, 1);
    now = T0 + DAY;
    assert.equal(second.totals().requestsToday, 0, "today follows the clock");
    await second.close();
  });

  test("a partial last line (crash mid-write) does not swallow the next entry", async () => {
    const dir = fs.mkdtempSync(path.join(root, "partial-"));
    const first = await createRequestLog({ dataDir: dir });
    first.append(entry({ id: "before" }));
    await first.close();
    fs.appendFileSync(path.join(dir, "logs", "requests.jsonl"), '{"seq":99,"id":"tor');
    const second = await createRequestLog({ dataDir: dir });
    second.append(entry({ id: "after" }));
    await second.close();
    const third = await createRequestLog({ dataDir: dir });
    assert.deepEqual(
      third.recent(10).map((e) => e.id),
      ["before", "after"],
    );
    await third.close();
  });

  test("disk errors never throw: lastError explains, the live view keeps working", async () => {
    const dir = fs.mkdtempSync(path.join(root, "diskerr-"));
    const log = await createRequestLog({ dataDir: dir, flushDelayMs: 0 });
    // Replace the log folder by a file: every append now fails with ENOTDIR/EEXIST.
    fs.rmSync(path.join(dir, "logs"), { recursive: true });
    fs.writeFileSync(path.join(dir, "logs"), "not a folder");
    assert.doesNotThrow(() => log.append(entry({ id: "lost-on-disk" })));
    await log.close();
    assert.match(log.lastError() ?? "", /Could not write .*requests\.jsonl: .*1 entries were not saved/);
    assert.deepEqual(
      log.recent(1).map((e) => e.id),
      ["lost-on-disk"],
    );
    assert.equal(log.query({}, everyTestApp).entries.length, 1);
  });

  test("opening with an unusable log folder works in memory and reports it", async () => {
    const dir = fs.mkdtempSync(path.join(root, "badopen-"));
    fs.writeFileSync(path.join(dir, "logs"), "not a folder");
    const log = await createRequestLog({ dataDir: dir });
    assert.match(log.lastError() ?? "", /Could not create the log folder/);
    log.append(entry({ id: "mem" }));
    assert.equal(log.recent(1)[0]?.id, "mem");
    await log.close();
  });
});
