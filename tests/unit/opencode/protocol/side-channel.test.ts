// SideChannel: loopback, token-protected spec registry; unknown sessions are 404 (the plugin then fails closed).
import { test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../../server/core/errors";
import { SideChannel } from "../../../../server/opencode/protocol/side-channel";
import type { CompanionSpec } from "../../../../server/opencode/protocol/companion-plugin";

const spec: CompanionSpec = {
  v: 1,
  system: ["S"],
  messages: [],
  params: { temperature: null, topP: null, topK: null, options: {}, dropOptions: [] },
  singleStep: true,
};

test("serves registered specs to the token holder only, 404 otherwise, on 127.0.0.1", async () => {
  const sc = new SideChannel();
  const { url, token } = await sc.start();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(sc.url, url);
  assert.equal(sc.token, token);
  assert.ok(token.length >= 32);
  sc.register("ses_1", spec);
  const get = (id: string, t?: string) => fetch(`${url}/spec/${id}`, { headers: t ? { "x-patchbay-token": t } : {} });
  assert.equal((await get("ses_1")).status, 401);
  assert.equal((await get("ses_1", "wrong")).status, 401);
  const ok = await get("ses_1", token);
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), spec);
  assert.equal((await get("ses_2", token)).status, 404);
  assert.equal(
    (await fetch(`${url}/spec/ses_1`, { method: "POST", headers: { "x-patchbay-token": token } })).status,
    404,
  );
  sc.unregister("ses_1");
  assert.equal((await get("ses_1", token)).status, 404);
  assert.equal(sc.size(), 0);
  assert.equal(await sc.start().then((e) => e.url), url, "start is idempotent");
  await sc.stop();
  await assert.rejects(get("ses_1", token));
});

test("the plugin's hello marks an instance directory as having the plugin, per OpenCode pid", async () => {
  const exited = new Set<number>();
  const sc = new SideChannel({ alive: (pid) => !exited.has(pid) });
  const { url, token } = await sc.start();
  const hello = (body: unknown, t = token) =>
    fetch(`${url}/hello`, {
      method: "POST",
      headers: { "x-patchbay-token": t, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  assert.equal((await hello({ v: 1, directory: "/some/dir", pid: 42 }, "bad")).status, 401);
  assert.equal(sc.pluginLoaded("/some/dir", 42), false);
  assert.equal((await hello({ v: 2, directory: "/some/dir", pid: 42 })).status, 400);
  assert.equal((await hello({ v: 1, directory: "/some/dir", pid: 42 })).status, 200);
  assert.equal(sc.pluginLoaded("/some/dir", 42), true);
  assert.equal(
    sc.pluginLoaded("/some/dir", 43),
    false,
    "another OpenCode process (after a restart) must announce again",
  );
  assert.equal(sc.pluginLoaded("/other", 42), false);
  // A recycle's replacement (pid 43) boots the instance while the current process (42) still serves it: both count.
  assert.equal((await hello({ v: 1, directory: "/some/dir", pid: 43 })).status, 200);
  assert.equal(sc.pluginLoaded("/some/dir", 42), true, "the replacement's hello hid the current process's plugin");
  assert.equal(sc.pluginLoaded("/some/dir", 43), true);
  // Spares of postponed recycles (issue 21 §4.1): however many announce, the live current process keeps its own.
  for (const pid of [44, 45, 46, 47]) await hello({ v: 1, directory: "/some/dir", pid });
  assert.equal(sc.pluginLoaded("/some/dir", 42), true, "a spare's hello dropped the current process's announcement");
  for (const pid of [44, 45, 46]) exited.add(pid);
  await hello({ v: 1, directory: "/some/dir", pid: 48 });
  assert.equal(sc.pluginLoaded("/some/dir", 44), false, "an exited process's announcement is kept (unbounded)");
  assert.equal(sc.pluginLoaded("/some/dir", 42), true);
  assert.equal(sc.pluginLoaded("/some/dir", 47), true);
  await sc.stop();
});

test("a 10,000-level spec is refused with a 400 naming the field, not a stack overflow; nothing is registered", () => {
  const sc = new SideChannel();
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 10_000; i++) deep = { a: deep };
  const message = {
    info: { id: "msg_1", role: "assistant" as const },
    parts: [{ id: "prt_1", type: "tool", state: { status: "completed", input: deep } }],
  };
  const isBadRequest = (param: string) => (e: unknown) =>
    e instanceof PatchbayError && e.status === 400 && e.param === param;
  assert.throws(() => sc.register("ses_deep", { ...spec, messages: [message] }), isBadRequest("messages"));
  assert.throws(
    () => sc.register("ses_deep", { ...spec, params: { ...spec.params, options: { response_format: deep } } }),
    isBadRequest("response_format"),
  );
  assert.equal(sc.size(), 0);
});
