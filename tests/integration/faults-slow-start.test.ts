// Fault of issue 8 item 4: OpenCode slow to start. Patchbay runs the real `opencode serve` through a wrapper that
// sleeps first; requests sent meanwhile get 503 `backend_starting` with a clear message and Retry-After (not a hang),
// /healthz says "starting", and once OpenCode is up the same key works. One OpenCode for the file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createAdminClient } from "../../shared/admin/client";
import { createPatchbay, type Patchbay } from "../../server/index";
import { resolveOpenCodeBinary } from "../../server/opencode/process/binary";
import { MockUpstream } from "../harness/mock-upstream";
import { createOpenCodeUser, type OpenCodeUser } from "../harness/opencode-user";
import { chatBody, expectEnvelope, waitFor } from "../harness/http-helpers";

/** Well over the backend's 15 s wait for readiness (with room for a slow set-up on a loaded machine), so requests
 *  sent at start-up get their 503 while OpenCode is still starting. */
const STARTUP_DELAY_S = 24;

let mock: MockUpstream;
let user: OpenCodeUser;
let dataDir: string;
let tmp: string;
let pb: Patchbay;
let apiBase: string;
let key: string;
const logLines: string[] = [];

before(async () => {
  mock = await new MockUpstream().start();
  user = createOpenCodeUser({ mockBaseURL: mock.baseURL });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-slow-"));
  dataDir = path.join(tmp, "data");
  const wrapper = path.join(tmp, "slow-opencode.sh");
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh\nsleep ${STARTUP_DELAY_S}\nexec "${resolveOpenCodeBinary(undefined, {})}" "$@"\n`,
    { mode: 0o755 },
  );
  pb = await createPatchbay({
    dataDir,
    port: 0,
    host: "127.0.0.1",
    opencodeBinary: wrapper,
    userOpenCode: { authFile: null, configFile: user.configFile },
    log: (line) => logLines.push(line),
  });
  const urls = await pb.start();
  apiBase = urls.openaiUrl!.replace(/\/v1$/, "");
  const admin = createAdminClient(
    (input, init) =>
      fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${urls.adminToken}` } }),
    urls.adminUrl,
  );
  await admin.createApp({ body: { name: "slow" } });
  key = (await admin.createKey({ params: { name: "slow" }, body: { label: "t" } })).key;
});
after(async () => {
  await pb?.stop();
  await mock?.stop();
  user?.cleanup();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const call = (pathname: string, init: RequestInit = {}) =>
  fetch(apiBase + pathname, {
    ...init,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  });

describe("OpenCode slow to start", () => {
  test("requests meanwhile get 503 backend_starting with Retry-After; /healthz says starting", async (t) => {
    assert.equal(pb.status().opencode.state, "starting");
    const health = await fetch(`${apiBase}/healthz`);
    assert.equal(health.status, 503);
    assert.deepEqual(await health.json(), { status: "degraded", opencode: "starting" });

    const t0 = Date.now();
    const [chat, models] = await Promise.all([
      call("/v1/chat/completions", { method: "POST", body: chatBody("mock/mock-model") }),
      call("/v1/models"),
    ]);
    const elapsed = Date.now() - t0;
    for (const res of [chat, models]) {
      const retryAfter = Number(res.headers.get("retry-after"));
      const err = await expectEnvelope(res, 503, "backend_starting");
      assert.match(err.message, /OpenCode is still starting; retry in a few seconds/);
      assert.equal(err.type, "service_unavailable");
      assert.ok(retryAfter >= 1 && retryAfter <= 30, `Retry-After ${retryAfter}`);
    }
    t.diagnostic(`503 after ${elapsed} ms (Patchbay waits up to 15 s for OpenCode first)`);
    // Not a hang, by the order of events: the 503s came while OpenCode was still starting.
    assert.equal(pb.status().opencode.state, "starting", "the answers waited for OpenCode to be up");
    assert.equal(mock.chatRequests().length, 0);
  });

  test("once OpenCode is ready, the same key gets an answer", async () => {
    await waitFor("OpenCode to be ready", () => pb.status().opencode.state === "ready", 90_000);
    assert.equal((await fetch(`${apiBase}/healthz`)).status, 200);
    mock.script({ text: "finally up" });
    const res = await call("/v1/chat/completions", { method: "POST", body: chatBody("mock/mock-model") });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    assert.equal(body.choices[0]?.message.content, "finally up");
  });
});
