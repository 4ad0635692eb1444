// Compat cases for chat completions, models, errors and HTTP (tests/fixtures/compat-cases.jsonl), each an automated
// test named by its id, run by the case runner (tests/compat/) against Patchbay + real OpenCode + the mock upstream.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";
import { loadCompatCases } from "../compat/cases";
import { exchange } from "../compat/exchange";
import { expectEnvelope } from "../compat/expect";
import { assertSpecsCoverCases, runCompatCase } from "../compat/runner";
import { compatSpecs } from "../compat/specs";

const all = loadCompatCases();
const cases = all.filter((c) => !c.id.startsWith("RESP-"));

let fx: PatchbayFixture;
let key: string;

before(async () => {
  fx = await useSharedPatchbay();
  key = await fx.createKey("compat-chat");
  // Warm up: the first request in a new instance directory boots it; timing cases must not pay for that.
  fx.mock.reset();
  const warm = await fx.api("/v1/chat/completions", {
    method: "POST",
    key,
    body: JSON.stringify({ model: "mock/mock-model", messages: [{ role: "user", content: "warm" }] }),
  });
  assert.equal(warm.status, 200, await warm.text());
});
after(async () => {
  await releaseSharedPatchbay(fx);
});

test("every compat case has exactly one spec", () => {
  assertSpecsCoverCases(all, compatSpecs);
  assert.ok(cases.length >= 29, `chat/models/errors/HTTP cases: ${cases.length}`);
});

describe("compat cases: chat completions, models, errors, HTTP", () => {
  for (const c of cases) {
    test(c.id, async () => {
      const spec = compatSpecs[c.id];
      assert.ok(spec, `no spec for ${c.id}`);
      await runCompatCase(fx, key, c, spec);
    });
  }
});

// The case asks for error.code in ['invalid_api_key', null] when no key is sent (what OpenAI answers).
test("AUTH-401-ENVELOPE: a missing key has error.code invalid_api_key or null", async () => {
  const origin = fx.apiBase.replace(/\/v1$/, "");
  const res = await exchange(origin, {
    method: "POST",
    path: "/v1/chat/completions",
    headers: { "content-type": "application/json" },
    body: { model: "mock/mock-model", messages: [{ role: "user", content: "hi" }] },
  });
  const e = expectEnvelope(res, 401);
  assert.ok(e.code === "invalid_api_key" || e.code === null, `code ${e.code}`);
});

// CC-TOOLCHOICE-NONE-PARALLEL-FALSE-NO-TOOLS: the upstream must not get parallel_tool_calls when it gets no tools
// (OpenAI answers 400 "'parallel_tool_calls' is only allowed when 'tools' are specified").
test("CC-TOOLCHOICE-NONE-PARALLEL-FALSE-NO-TOOLS: no parallel_tool_calls upstream without tools", async () => {
  const origin = fx.apiBase.replace(/\/v1$/, "");
  const tools = [
    { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: {} } } },
  ];
  const bodies = [
    { model: "mock/mock-model", messages: [{ role: "user", content: "hello" }], parallel_tool_calls: false },
    {
      model: "mock/mock-model",
      messages: [{ role: "user", content: "hello" }],
      parallel_tool_calls: false,
      tools,
      tool_choice: "none",
    },
  ];
  for (const body of bodies) {
    fx.mock.reset();
    const res = await exchange(origin, {
      method: "POST",
      path: "/v1/chat/completions",
      headers: { authorization: `Bearer ${key}` },
      body,
    });
    assert.equal(res.status, 200);
    const up = fx.mock.chatRequests()[0]!.body;
    assert.equal(up.tools, undefined);
    assert.equal(
      up.parallel_tool_calls,
      undefined,
      `upstream got parallel_tool_calls without tools for ${JSON.stringify(body).slice(0, 120)}`,
    );
  }
});

// CC-STREAM-PRESTREAM-UPSTREAM-ERROR-STATUS asks for `$.error.param == 'temperature'` when known: the upstream's 400
// names it, and Patchbay relays it (server/opencode/session/upstream-errors.ts).
test("CC-STREAM-PRESTREAM-UPSTREAM-ERROR-STATUS: the upstream's error.param is relayed", async () => {
  const origin = fx.apiBase.replace(/\/v1$/, "");
  fx.mock.reset();
  fx.mock.script({
    error: {
      status: 400,
      body: {
        error: {
          message: "temperature 1.7 is too high for this model",
          type: "invalid_request_error",
          param: "temperature",
          code: null,
        },
      },
    },
  });
  const res = await exchange(origin, {
    method: "POST",
    path: "/v1/chat/completions",
    headers: { authorization: `Bearer ${key}` },
    body: { model: "mock/mock-model", messages: [{ role: "user", content: "hi" }], stream: true, temperature: 1.7 },
  });
  if (res.status === 200) {
    // The upstream answered after Patchbay's 1 s commit hold (a busy machine): the stream had started, so the error
    // is in-band, and it must still name the param. (The status before the hold: the compat case above.)
    assert.ok(res.headersAtMs >= 900, `headers at ${res.headersAtMs} ms, before the commit hold ran out`);
    const event = res.sse().events.find((e) => e.data.includes('"error"'));
    assert.ok(event, `an in-band error event: ${res.body.slice(0, 300)}`);
    assert.equal((JSON.parse(event.data) as { error: { param: unknown } }).error.param, "temperature");
  } else expectEnvelope(res, 400, { param: "temperature" });
});
