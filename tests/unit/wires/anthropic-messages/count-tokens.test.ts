// The count_tokens estimate (count-tokens.ts's texts, counted by the tokenizer worker in server/tokenizer/): exact for ordinary requests, and for huge or
// pathological text (long runs without spaces, megabytes of input) an extrapolation from what was encoded exactly, so
// one request cannot block the server. How long it takes is the benchmark's business, not this test's.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { textsOf } from "../../../../server/tokenizer/request-texts";
import { countInputTokens, tokenCountPool } from "../../../../server/tokenizer/token-count-pool";
import { neutralRequest } from "../../../harness/neutral-fixtures";

const ask = async (text: string) => {
  const counted = await countInputTokens(
    textsOf(neutralRequest({ messages: [{ role: "user", content: [{ type: "text", text }] }] })),
  );
  assert.equal(counted.method, "js-tiktoken o200k_base", "the tokenizer worker did not count");
  return counted.tokens;
};
after(() => tokenCountPool.stop());

test("a short message counts its tokens plus the per-message framing", async () => {
  assert.equal(await ask("hello world"), 2 + 3);
});

test("text beyond the exact budget is extrapolated at the measured ratio", async () => {
  const unit = "hello world ";
  const n = await ask(unit.repeat(200_000)); // 2.4 MB: ~2 tokens per 12 characters
  const expected = 400_000;
  assert.ok(Math.abs(n - expected) / expected < 0.05, `got ${n}, expected about ${expected}`);
});

test("a long run without spaces is counted in pieces, close to its exact count", async () => {
  const n = await ask("a".repeat(20_000));
  // o200k_base encodes runs of "a" at about 8 characters a token; pieces add at most one token each.
  assert.ok(n > 2_000 && n < 3_000, `got ${n}`);
});
