// Request log under hostile sizes: every string field of an entry is capped before it is stored or broadcast, and
// rotation splits a burst of lines so no file grows past its cap by more than one line.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { RequestLogEntry } from "../../../shared/log-entry";
import { MAX_ENTRY_FIELD_CHARS, MAX_ENTRY_MESSAGE_CHARS } from "../../../server/stores/redact";
import { createRequestLog } from "../../../server/stores/request-log";
import { logEntry, removeDir, tempDir } from "./helpers";

const MARKER_SLACK = 60; // room for the "…[truncated, N more characters]" marker

describe("request log limits", () => {
  let root: string;
  before(() => {
    root = tempDir("reqlog-limits");
  });
  after(() => removeDir(root));

  test("huge string fields are cut before storing and broadcasting (ids/model/endpoint 512, messages 2 KB)", async () => {
    const dir = fs.mkdtempSync(path.join(root, "cap-"));
    const log = await createRequestLog({ dataDir: dir, flushDelayMs: 0 });
    const seen: RequestLogEntry[] = [];
    log.subscribe((e) => seen.push(e));
    const huge = "m".repeat(2_000_000);
    log.append(
      logEntry({
        id: huge,
        app: huge,
        keyPrefix: huge,
        method: huge,
        endpoint: `/${huge}`,
        modelAsked: huge,
        modelResolved: huge,
        errorCode: huge,
        errorMessage: `The model '${huge}' does not exist`,
        sessionId: huge,
        warnings: Array.from({ length: 1000 }, () => huge),
        status: 404,
      }),
    );
    await log.close();
    const stored = log.recent(1)[0] as RequestLogEntry;
    for (const e of [stored, seen[0] as RequestLogEntry]) {
      for (const field of [
        "id",
        "app",
        "keyPrefix",
        "method",
        "endpoint",
        "modelAsked",
        "modelResolved",
        "errorCode",
        "sessionId",
      ] as const) {
        const value = e[field] ?? "";
        assert.ok(value.length <= MAX_ENTRY_FIELD_CHARS + MARKER_SLACK, `${field}: ${value.length} characters`);
        assert.ok(value.startsWith(field === "endpoint" ? "/mmm" : "mmm"), `${field} keeps its start`);
      }
      assert.ok((e.errorMessage ?? "").length <= MAX_ENTRY_MESSAGE_CHARS + MARKER_SLACK);
      assert.ok(e.warnings.length <= 32, `${e.warnings.length} warnings`);
      for (const w of e.warnings) assert.ok(w.length <= MAX_ENTRY_MESSAGE_CHARS + MARKER_SLACK);
    }
    const size = fs.statSync(path.join(dir, "logs", "requests.jsonl")).size;
    assert.ok(size < 200_000, `one entry takes ${size} bytes on disk`);
  });

  test("a burst written in one flush is split across files at the size cap", async () => {
    const dir = fs.mkdtempSync(path.join(root, "burst-"));
    const log = await createRequestLog({ dataDir: dir, maxFileBytes: 2000, maxFiles: 3, flushDelayMs: 0 });
    for (let i = 0; i < 40; i++) log.append(logEntry({ id: `r${i}`, errorMessage: "e".repeat(300) }));
    await log.close();
    const logs = path.join(dir, "logs");
    const files = fs.readdirSync(logs).sort();
    assert.deepEqual(files, ["requests.1.jsonl", "requests.2.jsonl", "requests.jsonl"]);
    for (const f of files) {
      const text = fs.readFileSync(path.join(logs, f), "utf8");
      const lines = text.split("\n").filter(Boolean).length;
      assert.ok(
        Buffer.byteLength(text) <= 2000 || lines === 1,
        `${f}: ${Buffer.byteLength(text)} bytes in ${lines} lines`,
      );
    }
    const newest = fs.readFileSync(path.join(logs, "requests.jsonl"), "utf8").trim().split("\n").at(-1) ?? "";
    assert.equal((JSON.parse(newest) as { id: string }).id, "r39");
  });

  test("a line larger than the cap gets a file of its own", async () => {
    const dir = fs.mkdtempSync(path.join(root, "big-line-"));
    const log = await createRequestLog({ dataDir: dir, maxFileBytes: 1000, maxFiles: 5, flushDelayMs: 0 });
    log.append(logEntry({ id: "small-1" }));
    log.append(logEntry({ id: "big", requestBody: { text: "b".repeat(5000) } }));
    log.append(logEntry({ id: "small-2" }));
    await log.close();
    const logs = path.join(dir, "logs");
    const ids = (f: string) =>
      fs
        .readFileSync(path.join(logs, f), "utf8")
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: string }).id);
    assert.deepEqual(ids("requests.2.jsonl"), ["small-1"]);
    assert.deepEqual(ids("requests.1.jsonl"), ["big"]);
    assert.deepEqual(ids("requests.jsonl"), ["small-2"]);
  });

  test("a logged body with a __proto__ key keeps it as a plain field", async () => {
    const dir = fs.mkdtempSync(path.join(root, "proto-"));
    const log = await createRequestLog({ dataDir: dir, flushDelayMs: 0 });
    log.append(logEntry({ requestBody: JSON.parse('{"__proto__":{"polluted":true},"model":"x"}') }));
    await log.close();
    const body = log.recent(1)[0]?.requestBody as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(body), Object.prototype);
    assert.equal((body as { polluted?: unknown }).polluted, undefined);
    assert.deepEqual(Object.keys(body), ["__proto__", "model"]);
  });
});
