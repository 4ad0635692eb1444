// Request log and usage by app identity (issue 21, attacker item 4): entries are filed by the app's id, so a later app
// of the same name sees none of a deleted one's entries or usage, in memory, from the files after a restart, and for
// lines written before entries carried the id (attributed by the app's creation time).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { RequestLogEntry } from "../../../shared/log-entry";
import { entryAppLabel, type AppNamed, type LogOwner } from "../../../shared/log-filter";
import { createRequestLog } from "../../../server/stores/request-log";
import { logEntry, removeDir, tempDir } from "./helpers";

const DAY = 86_400_000;
const T0 = new Date(2026, 2, 10, 12, 0, 0).getTime(); // local noon, 10 March 2026
const USAGE = { inputTokens: 10, outputTokens: 5, cachedTokens: 1, reasoningTokens: 2 };

const oldFoo: LogOwner = { id: "id-old", name: "foo", createdAt: T0 - 2 * DAY };
const newFoo: LogOwner = { id: "id-new", name: "foo", createdAt: T0 - 1000 };
/** The apps after `foo` was deleted and created again. */
const now: AppNamed = (name) => (name === "foo" ? newFoo : undefined);

function entryOf(app: LogOwner, over: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return logEntry({ app: app.name, appId: app.id, time: T0, usage: USAGE, ...over });
}

/** A log line as versions before the app id wrote it: no `appId` field at all. */
function legacyLine(seq: number, over: Partial<RequestLogEntry>): string {
  const { appId: _dropped, ...rest } = logEntry({ app: "foo", usage: USAGE, ...over });
  return JSON.stringify({ seq, ...rest });
}

describe("request log by app identity", () => {
  let root: string;
  before(() => {
    root = tempDir("request-log-apps");
  });
  after(() => removeDir(root));

  test("a recreated app sees none of the deleted one's entries or usage; the all-apps view keeps them", async () => {
    const dir = fs.mkdtempSync(path.join(root, "recreated-"));
    const log = await createRequestLog({ dataDir: dir, clock: () => T0 });
    log.append(entryOf(oldFoo, { id: "old-1", time: T0 - 2000 }));
    log.append(entryOf(oldFoo, { id: "old-2", time: T0 - 1500, status: 500 }));
    assert.equal(log.query({ app: "foo" }, now).entries.length, 0, "old foo's entries are not new foo's");
    assert.equal(log.usage(newFoo, 1)[0]?.requests, 0);
    log.append(entryOf(newFoo, { id: "new-1" }));
    assert.deepEqual(
      log.query({ app: "foo" }, now).entries.map((e) => e.id),
      ["new-1"],
    );
    assert.deepEqual(log.usage(newFoo, 1)[0], {
      day: "2026-03-10",
      requests: 1,
      errors: 0,
      ...USAGE,
    });
    assert.equal(log.usage(oldFoo, 1)[0]?.requests, 2, "the deleted app's usage stays under its own id");
    assert.deepEqual(
      log.query({}, now).entries.map((e) => [e.id, entryAppLabel(e, now)]),
      [
        ["new-1", "foo"],
        ["old-2", "foo (deleted)"],
        ["old-1", "foo (deleted)"],
      ],
      "the all-apps view labels the deleted app's entries",
    );
    assert.equal(log.query({ app: "gone" }, now).entries.length, 0, "a name no app carries matches nothing");
    await log.close();

    // The same from the files: a restart rebuilds usage and pages by id.
    const again = await createRequestLog({ dataDir: dir, clock: () => T0, ringSize: 1 });
    assert.deepEqual(
      again.query({ app: "foo", limit: 1 }, now).entries.map((e) => e.id),
      ["new-1"],
    );
    const page = again.query({ app: "foo", limit: 5, cursor: again.query({ limit: 1 }, now).nextCursor! }, now);
    assert.equal(page.entries.length, 0, "old foo's entries on disk are not new foo's either");
    assert.equal(again.usage(newFoo, 1)[0]?.requests, 1);
    assert.equal(again.usage(oldFoo, 1)[0]?.requests, 2);
    assert.equal(again.totals().requestsToday, 3, "the day's total still counts every request");
    await again.close();
  });

  test("lines without an app id read without error and belong to the app of that name created before them", async () => {
    const dir = fs.mkdtempSync(path.join(root, "legacy-"));
    fs.mkdirSync(path.join(dir, "logs"));
    fs.writeFileSync(
      path.join(dir, "logs", "requests.jsonl"),
      [
        legacyLine(1, { id: "before-new", time: newFoo.createdAt - 1 }),
        legacyLine(2, { id: "yesterday", time: T0 - DAY }),
        legacyLine(3, { id: "after-new", time: newFoo.createdAt, status: 429 }),
        legacyLine(4, { id: "other", app: "bar", time: T0 }),
        legacyLine(5, { id: "no-app", app: null, keyPrefix: null, status: 401, time: T0 }),
      ].join("\n") + "\n",
    );
    const log = await createRequestLog({ dataDir: dir, clock: () => T0 });
    assert.equal(log.lastError(), null);
    assert.deepEqual(
      log.query({}, now).entries.map((e) => [e.id, e.appId, entryAppLabel(e, now)]),
      [
        ["no-app", null, null],
        ["other", null, "bar (deleted)"],
        ["after-new", null, "foo"],
        ["yesterday", null, "foo (deleted)"],
        ["before-new", null, "foo (deleted)"],
      ],
    );
    assert.deepEqual(
      log.query({ app: "foo" }, now).entries.map((e) => e.id),
      ["after-new"],
    );
    assert.deepEqual(
      log.usage(newFoo, 2).map((u) => [u.day, u.requests, u.errors, u.inputTokens]),
      [
        ["2026-03-09", 0, 0, 0],
        ["2026-03-10", 1, 1, 10],
      ],
      "only the line written after new foo was created counts for it",
    );
    assert.deepEqual(
      log.usage(oldFoo, 2).map((u) => u.requests),
      [1, 2],
      "an app created before every line (the app that wrote them) gets all of its name's lines",
    );
    // New entries of the current app add to what the old lines gave it.
    log.append(entryOf(newFoo, { id: "new-1" }));
    assert.equal(log.usage(newFoo, 1)[0]?.requests, 2);
    await log.close();
  });

  test("entryBelongsTo's rule for old lines: the app's creation time, inclusive", () => {
    const legacy = (time: number) => ({ app: "foo", appId: null, time });
    assert.equal(entryAppLabel(legacy(newFoo.createdAt), now), "foo");
    assert.equal(entryAppLabel(legacy(newFoo.createdAt - 1), now), "foo (deleted)");
    assert.equal(entryAppLabel(legacy(newFoo.createdAt - 1)), "foo", "apps not known yet: the name alone");
    assert.equal(entryAppLabel({ app: "foo", appId: "id-new", time: 0 }, now), "foo", "an id decides, not the time");
  });
});
