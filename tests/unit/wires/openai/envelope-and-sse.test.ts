// The OpenAI error envelope, ModelError conversion, SSE frame formatting and OpenAI-style param paths.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../../server/core/errors";
import { toOpenAiErrorBody } from "../../../../server/wires/openai/error-envelope";
import { modelErrorToPatchbayError } from "../../../../server/core/model-error";
import { formatSseFrame } from "../../../../server/core/sse-frame";
import { formatParam } from "../../../../server/core/wire-parse";
import { reparse } from "./helpers";
import { OpenAiErrorBodySchema } from "./wire-schemas";

test("toOpenAiErrorBody: message, type from status, param, code", () => {
  const cases: [PatchbayError, string][] = [
    [
      new PatchbayError("invalid_request_error", "Bad 'temperature'.", { param: "temperature" }),
      "invalid_request_error",
    ],
    [new PatchbayError("invalid_api_key", "Wrong key."), "authentication_error"],
    [new PatchbayError("model_not_allowed", "Not for this app."), "permission_error"],
    [new PatchbayError("model_not_found", "No model 'x'.", { param: "model" }), "invalid_request_error"],
    [new PatchbayError("upstream_rate_limited", "Slow down."), "rate_limit_error"],
    [new PatchbayError("backend_unavailable", "OpenCode is down."), "service_unavailable"],
    [new PatchbayError("upstream_error", "Upstream failed."), "server_error"],
  ];
  for (const [err, type] of cases) {
    const body = toOpenAiErrorBody(err);
    OpenAiErrorBodySchema.parse(body);
    assert.deepEqual(body, { error: { message: err.message, type, param: err.param, code: err.code } });
  }
});

test("modelErrorToPatchbayError keeps known codes, maps unknown ones to upstream_error, never has an empty message", () => {
  const known = modelErrorToPatchbayError({
    code: "timeout",
    status: 504,
    message: "Too slow.",
    retryAfter: 2,
    param: "x",
  });
  assert.deepEqual(
    [known.code, known.status, known.message, known.retryAfter, known.param],
    ["timeout", 504, "Too slow.", 2, "x"],
  );
  const unknown = modelErrorToPatchbayError({ code: "client_closed", status: 499, message: "" });
  assert.deepEqual([unknown.code, unknown.status], ["upstream_error", 499]);
  assert.match(unknown.message, /client_closed/);
});

test("formatSseFrame writes event and data lines, splitting multi-line data, and parses back", () => {
  assert.equal(formatSseFrame({ data: "[DONE]" }), "data: [DONE]\n\n");
  assert.equal(
    formatSseFrame({ event: "response.created", data: '{"a":1}' }),
    'event: response.created\ndata: {"a":1}\n\n',
  );
  assert.equal(formatSseFrame({ data: "a\nb\r\nc" }), "data: a\ndata: b\ndata: c\n\n");
  const frames = [{ data: "x\ny" }, { event: "e", data: "" }, { data: '{"s":"\\n"}' }];
  assert.deepEqual(reparse(frames), frames);
});

test("formatParam writes OpenAI-style paths", () => {
  assert.equal(formatParam(["messages", 2, "content"]), "messages[2].content");
  assert.equal(formatParam(["tools", 0, "function", "name"]), "tools[0].function.name");
  assert.equal(formatParam(["input", 3]), "input[3]");
  assert.equal(formatParam([]), "");
});
