// A cold count_tokens never stalls the server (issue 26 item 4): the first count starts the tokenizer worker, which
// loads js-tiktoken's tables (seconds of CPU on a slow machine) off the event loop. Checked by the order of events,
// with the real tokenizer over the real express app: a /healthz sent after the count is answered while the worker is
// still loading, before the count. Before the fix the tables loaded on the event loop: /healthz waited for the count.
// (How fast /healthz answers is the benchmark's business: `npm run bench` reports event-loop delay.)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { KEY, MODEL, startUnitServer, type UnitServer } from "../../http/fakes";
import { tokenCountPool } from "../../../../server/tokenizer/token-count-pool";

let s: UnitServer;
before(async () => {
  // Files batched before this one may have started the process's tokenizer: stop it, so this count starts cold.
  await tokenCountPool.stop();
  s = await startUnitServer();
});
after(async () => {
  await tokenCountPool.stop();
  await s.close();
});

test("a /healthz sent during a cold count_tokens is answered while the tokenizer loads, before the count", async () => {
  assert.equal(tokenCountPool.state, "cold", "the count must start without a tokenizer");
  const events: string[] = [];
  const counted = fetch(`${s.base}/v1/messages/count_tokens`, {
    method: "POST",
    headers: { "x-api-key": KEY, "anthropic-version": "2023-06-01", "content-type": "application/json" },
    body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hello world" }] }),
  }).then(async (r) => {
    events.push(`count_tokens answered (tokenizer ${tokenCountPool.state})`);
    return {
      status: r.status,
      body: (await r.json()) as { input_tokens: number },
      method: r.headers.get("x-patchbay-estimate"),
    };
  });
  // The count has reached the worker (bounded poll: 10 s).
  for (let i = 0; i < 1000 && tokenCountPool.state === "cold"; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(tokenCountPool.state, "loading");
  const health = await fetch(`${s.base}/healthz`);
  events.push(`healthz answered (tokenizer ${tokenCountPool.state})`);
  assert.equal(health.status, 200);
  const count = await counted;
  assert.deepEqual(events, ["healthz answered (tokenizer loading)", "count_tokens answered (tokenizer ready)"]);
  assert.equal(count.status, 200);
  assert.equal(count.method, "js-tiktoken o200k_base");
  assert.equal(count.body.input_tokens, 2 + 3, "hello world: 2 tokens and the message framing");
});
