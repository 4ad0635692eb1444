// POST /v1/responses/input_tokens (OpenAI's "Get input token counts"): decoded like a Responses request (same 400s),
// the model checked under the app's policy when given, tokens estimated; never taken for a stored response's id.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { expectEnvelope } from "../../harness/http-helpers";
import { MODEL, startUnitServer, type UnitServer } from "./fakes";

let s: UnitServer;
before(async () => {
  s = await startUnitServer();
});
after(async () => {
  await s.close();
});

const count = (body: unknown) => s.call("/v1/responses/input_tokens", { method: "POST", body: JSON.stringify(body) });

test("counts the input: more text, more tokens; the model may be left out", async () => {
  const short = await count({ model: MODEL, input: "hello" });
  assert.equal(short.status, 200);
  const a = (await short.json()) as { object: string; input_tokens: number };
  assert.equal(a.object, "response.input_tokens");
  assert.ok(a.input_tokens > 0);
  assert.ok(short.headers.get("x-patchbay-estimate"), "says how it was counted");
  const long = (await (await count({ instructions: "Be terse.", input: "hello ".repeat(500) })).json()) as {
    input_tokens: number;
  };
  assert.ok(long.input_tokens > a.input_tokens + 400, `${long.input_tokens} vs ${a.input_tokens}`);
  assert.equal(s.backend.streams.length, 0, "no model runs for a count");
});

test("bad input is the Responses route's 400; a model the app may not use is refused; an unknown previous response is 400", async () => {
  await expectEnvelope(await count({ model: MODEL, input: [] }), 400, "invalid_request_error");
  await expectEnvelope(await count({ model: MODEL, input: 5 }), 400, "invalid_request_error");
  await expectEnvelope(await count({ model: "nope/nothing", input: "hi" }), 404, "model_not_found");
  // As the create route (and OpenAI) answers an unknown previous response.
  await expectEnvelope(
    await count({ model: MODEL, input: "hi", previous_response_id: "resp_doesnotexist" }),
    400,
    "previous_response_not_found",
  );
  const noKey = await s.call("/v1/responses/input_tokens", { method: "POST", body: "{}", key: null });
  assert.equal(noKey.status, 401);
});

test("GET or DELETE on it is a 405 (Allow: POST), never a stored response named 'input_tokens'", async () => {
  for (const method of ["GET", "DELETE"]) {
    const r = await s.call("/v1/responses/input_tokens", { method });
    assert.equal(r.status, 405, method);
    assert.equal(r.headers.get("allow"), "POST");
    await expectEnvelope(r, 405, "method_not_allowed");
  }
});
