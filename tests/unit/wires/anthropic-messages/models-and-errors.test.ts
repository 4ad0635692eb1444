// Anthropic models list (shape, aliases, pagination) and the error envelope's status → type mapping.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ModelInfo } from "../../../../server/core/contract";
import { PatchbayError } from "../../../../server/core/errors";
import {
  encodeAnthropicModelList,
  encodeAnthropicModels,
} from "../../../../server/wires/anthropic-messages/models-encode";
import { anthropicErrorType, toAnthropicErrorBody } from "../../../../server/wires/anthropic-messages/error-envelope";

const info = (id: string, created = 0): ModelInfo => {
  const [providerID = "", modelID = ""] = id.split("/");
  return {
    id,
    providerID,
    modelID,
    name: modelID.toUpperCase(),
    providerName: providerID,
    variants: [],
    capabilities: { toolCall: true, attachment: false, reasoning: false, temperature: true },
    limit: { context: 1000, output: 100 },
    npm: null,
    created,
  };
};

describe("Anthropic models", () => {
  const all = encodeAnthropicModels([info("p/a", 1700000000), info("p/b"), info("p/c")], {
    fast: "p/a#low",
    "p/c": "p/b",
  });

  test("models then aliases; an alias named like a model replaces it; RFC 3339 dates", () => {
    assert.deepEqual(
      all.map((m) => m.id),
      ["p/a", "p/b", "fast", "p/c"],
    );
    assert.deepEqual(all[0], { type: "model", id: "p/a", display_name: "A (p)", created_at: "2023-11-14T22:13:20Z" });
    assert.equal(all[1]?.created_at, "1970-01-01T00:00:00Z");
    assert.equal(all[2]?.created_at, "2023-11-14T22:13:20Z", "an alias carries its target's date");
  });

  test("pagination: limit, after_id, before_id", () => {
    const first = encodeAnthropicModelList(all, { limit: 2 });
    assert.deepEqual(
      [first.data.map((m) => m.id), first.has_more, first.first_id, first.last_id],
      [["p/a", "p/b"], true, "p/a", "p/b"],
    );
    const next = encodeAnthropicModelList(all, { limit: 2, afterId: "p/b" });
    assert.deepEqual([next.data.map((m) => m.id), next.has_more], [["fast", "p/c"], false]);
    const prev = encodeAnthropicModelList(all, { limit: 1, beforeId: "fast" });
    assert.deepEqual([prev.data.map((m) => m.id), prev.has_more], [["p/b"], true]);
    const empty = encodeAnthropicModelList([], {});
    assert.deepEqual(empty, { data: [], has_more: false, first_id: null, last_id: null });
  });
});

describe("Anthropic error envelope", () => {
  test("status → type (Anthropic API reference, Errors)", () => {
    const table: Array<[number, string]> = [
      [400, "invalid_request_error"],
      [409, "invalid_request_error"],
      [415, "invalid_request_error"],
      [401, "authentication_error"],
      [403, "permission_error"],
      [404, "not_found_error"],
      [413, "request_too_large"],
      [429, "rate_limit_error"],
      [500, "api_error"],
      [502, "api_error"],
      [503, "overloaded_error"],
      [529, "overloaded_error"],
      [504, "timeout_error"],
    ];
    for (const [status, type] of table) assert.equal(anthropicErrorType(status), type, String(status));
  });

  test("the field at fault is named in the message", () => {
    const body = toAnthropicErrorBody(
      new PatchbayError("invalid_request_error", "must be an integer", { param: "max_tokens" }),
    );
    assert.deepEqual(body, {
      type: "error",
      error: { type: "invalid_request_error", message: "max_tokens: must be an integer" },
    });
    const named = toAnthropicErrorBody(
      new PatchbayError("invalid_request_error", "Missing 'model'.", { param: "model" }),
    );
    assert.equal(named.error.message, "Missing 'model'.");
  });
});
