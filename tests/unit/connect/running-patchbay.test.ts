// findRunningPatchbay: a CLI command uses the Patchbay serving its data folder only when runtime.json names a live
// process whose admin API accepts the file's token; every stale or odd file means "work on your own", never a throw.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { AdminApiError } from "../../../shared/admin/client";
import { describeCliError } from "../../../server/cli/errors";
import { findRunningPatchbay } from "../../../server/connect/running-patchbay";
import { fakeStatus } from "../admin/fakes";

const TOKEN = "admin-token-for-tests";

/** A stand-in admin API: `/admin/api/status` answers 200 to the token, 401 otherwise; `hang` never answers. */
function startAdmin(
  mode: "ok" | "hang" | "hang-after-status",
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? "-"}`);
    if (mode === "hang") return;
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "unauthorized", message: "Sign in first." } }));
      return;
    }
    if (req.url === "/admin/api/status") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ...fakeStatus(), desktop: false, logError: null }));
      return;
    }
    if (mode === "hang-after-status") return;
    if (req.url?.startsWith("/admin/api/apps/zed/sessions")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ sessions: [], nextCursor: null }));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "not_found", message: "No such route." } }));
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        seen,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

describe("findRunningPatchbay", () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-running-"));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const writeRuntime = (value: unknown) =>
    fs.writeFileSync(path.join(dir, "runtime.json"), typeof value === "string" ? value : JSON.stringify(value));
  const alive = () => true;

  test("no runtime.json, a corrupt one, or one missing fields → null", async () => {
    fs.rmSync(path.join(dir, "runtime.json"), { force: true });
    assert.equal(await findRunningPatchbay(dir, { isAlive: alive }), null);
    writeRuntime("{not json");
    assert.equal(await findRunningPatchbay(dir, { isAlive: alive }), null);
    writeRuntime({ pid: 1, adminUrl: "file:///etc/passwd", adminToken: TOKEN });
    assert.equal(await findRunningPatchbay(dir, { isAlive: alive }), null);
    writeRuntime({ pid: 1, adminUrl: "http://127.0.0.1:1" });
    assert.equal(await findRunningPatchbay(dir, { isAlive: alive }), null);
  });

  test("a FIFO, a directory or a huge file at runtime.json → null at once, never a hang", async () => {
    const file = path.join(dir, "runtime.json");
    fs.rmSync(file, { force: true, recursive: true });
    execFileSync("mkfifo", [file]);
    const t0 = Date.now();
    assert.equal(await findRunningPatchbay(dir, { isAlive: alive }), null);
    assert.ok(Date.now() - t0 < 1000, "did not wait for a writer");
    fs.rmSync(file);
    fs.mkdirSync(file);
    assert.equal(await findRunningPatchbay(dir, { isAlive: alive }), null);
    fs.rmSync(file, { recursive: true });
    writeRuntime({ pid: process.pid, adminUrl: "http://127.0.0.1:1", adminToken: TOKEN, pad: "x".repeat(100_000) });
    assert.equal(await findRunningPatchbay(dir, { isAlive: alive }), null);
  });

  test("a dead pid → null without any request", async () => {
    const admin = await startAdmin("ok");
    try {
      writeRuntime({ pid: 99_999_999, adminUrl: admin.url, adminToken: TOKEN });
      assert.equal(await findRunningPatchbay(dir), null);
      assert.deepEqual(admin.seen, []);
    } finally {
      await admin.close();
    }
  });

  test("a refused token (another Patchbay now on that port) or a closed port → null", async () => {
    const admin = await startAdmin("ok");
    try {
      writeRuntime({ pid: process.pid, adminUrl: admin.url, adminToken: "stale-token" });
      assert.equal(await findRunningPatchbay(dir), null);
      assert.deepEqual(admin.seen, ["GET /admin/api/status Bearer stale-token"]);
    } finally {
      await admin.close();
    }
    writeRuntime({ pid: process.pid, adminUrl: admin.url, adminToken: TOKEN });
    assert.equal(await findRunningPatchbay(dir), null, "nothing listens there any more");
  });

  test("an admin API that never answers → null after the probe timeout", { timeout: 30_000 }, async () => {
    const admin = await startAdmin("hang");
    try {
      writeRuntime({ pid: process.pid, adminUrl: admin.url, adminToken: TOKEN });
      const t0 = Date.now();
      assert.equal(await findRunningPatchbay(dir, { probeTimeoutMs: 300 }), null);
      const took = Date.now() - t0;
      // The admin API never answers, so the null can only be the probe timeout (not early: a lower bound on a timer).
      assert.ok(took >= 250, `gave up after ${took} ms, before the probe timeout`);
    } finally {
      await admin.close();
    }
  });

  test("a live Patchbay: the client sends the runtime token on every call", async () => {
    const admin = await startAdmin("ok");
    try {
      writeRuntime({ pid: process.pid, adminUrl: admin.url, adminToken: TOKEN, openaiUrl: null, startedAt: 1 });
      const running = await findRunningPatchbay(dir);
      assert.ok(running);
      assert.equal(running.pid, process.pid);
      assert.equal(running.adminUrl, admin.url);
      const page = await running.client.listSessions({ params: { name: "zed" }, query: { limit: 5 } });
      assert.deepEqual(page, { sessions: [], nextCursor: null });
      assert.deepEqual(admin.seen, [
        `GET /admin/api/status Bearer ${TOKEN}`,
        `GET /admin/api/apps/zed/sessions?limit=5 Bearer ${TOKEN}`,
      ]);
    } finally {
      await admin.close();
    }
  });
});

describe("answers of a running Patchbay on the command line", () => {
  test("a call that gets no answer fails with a clear message naming the Patchbay and the wait", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-running-hang-"));
    const admin = await startAdmin("hang-after-status");
    try {
      fs.writeFileSync(
        path.join(dir, "runtime.json"),
        JSON.stringify({ pid: process.pid, adminUrl: admin.url, adminToken: TOKEN }),
      );
      const running = await findRunningPatchbay(dir, { callTimeoutMs: 300 });
      assert.ok(running);
      const err = await running.client.listSessions({ params: { name: "zed" }, query: {} }).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(err instanceof AdminApiError);
      assert.equal(err.code, "network_error");
      assert.equal(err.message, `Cannot reach Patchbay: no answer from ${admin.url} within 300 ms`);
      assert.deepEqual(describeCliError(err, false).code, 1);
    } finally {
      await admin.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("its error text reaches stderr as one line without terminal escapes", () => {
    const err = new AdminApiError("invalid_request_error", "line1\nline2 \u001b[31mred\u001b[0m", 400);
    const { code, message } = describeCliError(err, false);
    assert.equal(code, 2);
    assert.match(message ?? "", /^line1 line2 +\[31mred \[0m$/);
    // eslint-disable-next-line no-control-regex -- checking that none are left
    assert.doesNotMatch(message ?? "", /[\u0000-\u001f\u007f-\u009f]/);
  });
});
