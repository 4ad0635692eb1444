// The count_tokens estimate (server/wires/anthropic-messages/count-tokens.ts): exact for ordinary requests, and for huge or
// pathological text (long runs without spaces, megabytes of input) an extrapolation from what was encoded exactly, so
// one request cannot block the server. How long it takes is the benchmark's business, not this test's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { estimateInputTokens } from "../../../../server/wires/anthropic-messages/count-tokens";
import { neutralRequest } from "../../../harness/neutral-fixtures";

const ask = (text: string) =>
  estimateInputTokens(neutralRequest({ messages: [{ role: "user", content: [{ type: "text", text }] }] }));

test("a short message counts its tokens plus the per-message framing", () => {
  assert.equal(ask("hello world"), 2 + 3);
});

test("text beyond the exact budget is extrapolated at the measured ratio", () => {
  const unit = "hello world ";
  const n = ask(unit.repeat(200_000)); // 2.4 MB: ~2 tokens per 12 characters
  const expected = 400_000;
  assert.ok(Math.abs(n - expected) / expected < 0.05, `got ${n}, expected about ${expected}`);
});

test("a long run without spaces is counted in pieces, close to its exact count", () => {
  const n = ask("a".repeat(20_000));
  // o200k_base encodes runs of "a" at about 8 characters a token; pieces add at most one token each.
  assert.ok(n > 2_000 && n < 3_000, `got ${n}`);
});
