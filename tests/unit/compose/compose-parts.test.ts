// The composition root's small parts (server/compose/): the secrets scrubbed from the request log, and the model
// count kept for status.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createLogSecrets } from "../../../server/compose/log-secrets";
import { trackModelCount } from "../../../server/compose/model-count";
import type { OpenCodeState } from "../../../shared/status";

test("log secrets: admin token, login tokens (the newest 16), sessions, OpenCode's credential and password", () => {
  let authorization: string | null = null;
  const secrets = createLogSecrets({
    adminToken: "admin-tok",
    adminSessions: () => ["sess-1"],
    openCodeAuthorization: () => authorization,
    sideChannelToken: "side-tok",
    upstream: () => ["sk-upstream"],
  });
  assert.deepEqual(secrets.all(), ["admin-tok", "sess-1", "side-tok", "sk-upstream"]);
  authorization = `Basic ${Buffer.from("opencode:pw-123").toString("base64")}`;
  for (let i = 0; i < 20; i++) secrets.rememberLoginUrl(`http://127.0.0.1:1/login?token=login-${i}`);
  const all = secrets.all();
  assert.ok(all.includes("pw-123"), "OpenCode's password");
  assert.ok(all.includes(Buffer.from("opencode:pw-123").toString("base64")), "the Basic credential");
  assert.ok(!all.includes("login-3") && all.includes("login-4") && all.includes("login-19"), "the newest 16 logins");
  assert.equal(secrets.rememberLoginUrl("http://x/?token=t"), "http://x/?token=t", "the URL is passed through");
});

test("model count: counted when ready, kept while asleep and waking, unknown during a restart and counted again", async () => {
  let state: OpenCodeState = "starting";
  let models = ["a", "b"];
  let changes = 0;
  const count = trackModelCount({
    listModels: () => Promise.resolve(models),
    state: () => state,
    now: () => 0,
    changed: () => changes++,
  });
  assert.equal(count.value(), null, "unknown while starting");
  state = "ready";
  count.stateChanged(state);
  await new Promise((r) => setImmediate(r));
  assert.equal(count.value(), 2);
  assert.equal(changes, 1);
  count.stateChanged((state = "sleeping"));
  assert.equal(count.value(), 2, "a sleeping OpenCode keeps its count (logins are read at start)");
  count.stateChanged((state = "ready"));
  assert.equal(count.value(), 2, "and so does the wake, until its recount answers");
  await new Promise((r) => setImmediate(r));
  models = ["a"];
  count.stateChanged((state = "restarting"));
  assert.equal(count.value(), null);
  count.stateChanged((state = "ready"));
  await new Promise((r) => setImmediate(r));
  assert.equal(count.value(), 1, "a restart counts again");
});
