// SideChannel: loopback, token-protected spec registry; unknown sessions are 404 (the plugin then fails closed).
import { test } from "node:test";
import assert from "node:assert/strict";
import { SideChannel } from "../../../server/opencode/side-channel";
import type { CompanionSpec } from "../../../server/opencode/plugin/companion";

const spec: CompanionSpec = { v: 1, system: ["S"], messages: [], params: { temperature: null, topP: null, topK: null, options: {}, dropOptions: [] }, singleStep: true };

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
  assert.equal((await fetch(`${url}/spec/ses_1`, { method: "POST", headers: { "x-patchbay-token": token } })).status, 404);
  sc.unregister("ses_1");
  assert.equal((await get("ses_1", token)).status, 404);
  assert.equal(sc.size(), 0);
  assert.equal(await sc.start().then((e) => e.url), url, "start is idempotent");
  await sc.stop();
  await assert.rejects(get("ses_1", token));
});
