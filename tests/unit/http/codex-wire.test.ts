// What Codex 0.171 sends beyond plain Responses (issue 25 item 2), through the real HTTP stack over a scripted
// backend: `agent_message` and `compaction` input items are accepted (the first as user text naming its author, the
// second dropped with a warning), and POST /v1/responses/compact and /v1/alpha/search answer with an explanation in
// OpenAI's envelope (after the key check), not the unknown-route 404.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { NeutralRequest } from "../../../server/core/contract";
import { MODEL, startUnitServer, textAnswer, type UnitServer } from "./fakes";

let s: UnitServer;
before(async () => {
  s = await startUnitServer();
});
after(async () => {
  await s.close();
});

test("agent_message becomes user text with its author; compaction is dropped with a warning", async () => {
  let seen: NeutralRequest | null = null;
  s.backend.script = (req) => {
    seen = req;
    return textAnswer("ok");
  };
  const r = await s.call("/v1/responses", {
    method: "POST",
    body: JSON.stringify({
      model: MODEL,
      input: [
        { type: "compaction", encrypted_content: "gAAAA-opaque" },
        { role: "user", content: "start" },
        {
          type: "agent_message",
          author: "/root/worker",
          recipient: "/root",
          content: [{ type: "input_text", text: "tests pass" }],
        },
      ],
    }),
  });
  assert.equal(r.status, 200, await r.clone().text());
  const messages = (seen as NeutralRequest | null)?.messages ?? [];
  assert.equal(messages.length, 2);
  assert.deepEqual(messages[1], {
    role: "user",
    content: [{ type: "text", text: "Message from /root/worker to /root:\ntests pass" }],
  });
  assert.match(r.headers.get("x-patchbay-warnings") ?? "", /compaction items dropped \(input\[0\]\)/);
});

test("a malformed agent_message is a 400 naming the field", async () => {
  const r = await s.call("/v1/responses", {
    method: "POST",
    body: JSON.stringify({ model: MODEL, input: [{ type: "agent_message", content: 42 }] }),
  });
  assert.equal(r.status, 400);
  const body = (await r.json()) as { error: { message: string; type: string } };
  assert.match(body.error.message, /input\[0\]/);
});

for (const path of ["/v1/responses/compact", "/v1/alpha/search", "/responses/compact"]) {
  test(`POST ${path}: an explanation in OpenAI's envelope, after the key check`, async () => {
    const noKey = await s.call(path, { method: "POST", body: "{}", key: null });
    assert.equal(noKey.status, 401);
    const r = await s.call(path, { method: "POST", body: JSON.stringify({ model: MODEL, input: [] }) });
    assert.equal(r.status, 404);
    const body = (await r.json()) as { error: { message: string; type: string; code: string } };
    assert.doesNotMatch(body.error.message, /Unknown route/);
    assert.match(
      body.error.message,
      path.endsWith("compact") ? /no remote compaction.*"Patchbay"/ : /no standalone search endpoint.*web_search/,
    );
    assert.equal(body.error.code, "not_found");
  });
}
