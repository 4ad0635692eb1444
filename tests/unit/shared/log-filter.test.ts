// The request-log filter shared by the server's query and the dashboard's live rows (shared/log-filter.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { isValidStatusFilter, logEntryMatcher, statusMatcher } from "../../../shared/log-filter";
import { createRequestLog } from "../../../server/stores/request-log";
import { everyTestApp, logEntry } from "../../harness/builders";
import { removeDir, tempDir } from "../stores/helpers";

test("status filters: exact, class, error; anything else is refused", () => {
  assert.ok(statusMatcher("404")(404) && !statusMatcher("404")(400));
  assert.ok(statusMatcher("4xx")(429) && !statusMatcher("4xx")(502));
  assert.ok(statusMatcher("error")(400) && statusMatcher("error")(503) && !statusMatcher("error")(200));
  assert.ok(!statusMatcher("error")(499) && statusMatcher("4xx")(499), "a client gone is no error, but is a 4xx");
  assert.ok(statusMatcher("")(0) && statusMatcher(undefined)(200));
  for (const bad of ["4x", "6xx", "ok", "40", "4044"]) {
    assert.equal(isValidStatusFilter(bad), false, bad);
    assert.throws(() => statusMatcher(bad), RangeError);
  }
});

test("the model filter is a case-insensitive substring of the model asked or resolved", () => {
  const e = logEntry({ modelAsked: "fast", modelResolved: "openai/GPT-5#low" });
  assert.ok(logEntryMatcher({ model: "gpt-5" }, everyTestApp)(e));
  assert.ok(logEntryMatcher({ model: "FAS" }, everyTestApp)(e));
  assert.ok(!logEntryMatcher({ model: "claude" }, everyTestApp)(e));
  assert.ok(logEntryMatcher({ model: "  " }, everyTestApp)(e), "blank matches everything");
});

test("the server's history query matches a partial model name exactly like the live view", async () => {
  const dir = tempDir("log-filter");
  try {
    const log = await createRequestLog({ dataDir: dir, flushDelayMs: 0 });
    const rows = [
      logEntry({ modelAsked: "openai/gpt-5", modelResolved: "openai/gpt-5" }),
      logEntry({ modelAsked: "anthropic/claude-sonnet-4-5", modelResolved: "anthropic/claude-sonnet-4-5" }),
      logEntry({ modelAsked: "fast", modelResolved: "openai/gpt-5-mini", status: 429 }),
    ];
    for (const r of rows) log.append(r);
    for (const filter of [{ model: "gpt" }, { model: "claude" }, { model: "gpt", status: "4xx" }, { app: "nope" }]) {
      const server = log.query({ ...filter, limit: 50 }, everyTestApp).entries.map((e) => e.id);
      const live = rows.filter(logEntryMatcher(filter, everyTestApp)).map((e) => e.id);
      assert.deepEqual(new Set(server), new Set(live), JSON.stringify(filter));
    }
    assert.equal(log.query({ model: "gpt" }, everyTestApp).entries.length, 2, "a partial name finds history rows");
    await log.close();
  } finally {
    removeDir(dir);
  }
});
