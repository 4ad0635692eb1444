// Fuzz of the Anthropic routes: generated bad bodies against POST /v1/messages and /v1/messages/count_tokens of a real
// Patchbay (real OpenCode + mock upstream). Properties: never a 5xx, every error is Anthropic's envelope
// `{type:"error", error:{type,message}}` with the type that matches its status, and the server still serves afterwards.
// Bounded: a fixed number of runs and a time budget. Seed: PATCHBAY_FUZZ_SEED (printed on every run).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { z } from "zod";
import { anthropicErrorType } from "../../server/wires/anthropic-messages/error-envelope";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";
import { FUZZ_SCALE, FUZZ_SEED, anyish, openFuzzApp } from "../harness/fuzz";

const RUNS = { messages: 250 * FUZZ_SCALE, countTokens: 150 * FUZZ_SCALE };
/** Stop generating once this much time went by (ms); the runs done so far still count. */
const BUDGET_MS = 100_000;
const ALLOWED = "mock/mock-model";

const AnthropicErrorEnvelope = z
  .object({ type: z.literal("error"), error: z.object({ type: z.string(), message: z.string().min(1) }).strict() })
  .strict();

let fx: PatchbayFixture;
let key: string;
let root: string;
const tally: Record<number, number> = {};

before(async () => {
  fx = await useSharedPatchbay();
  key = await openFuzzApp(fx, "fuzz-anthropic", [ALLOWED]);
  root = fx.apiBase.replace(/\/v1$/, "");
  process.stderr.write(`[fuzz-messages] seed ${FUZZ_SEED}\n`);
});
after(async () => {
  process.stderr.write(`[fuzz-messages] statuses ${JSON.stringify(tally)}\n`);
  await releaseSharedPatchbay(fx);
});

const source = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom<unknown>("base64", "url", "file", "text", "bogus"),
      media_type: fc.constantFrom<unknown>("image/png", "application/pdf", "text/plain", "", 3),
      data: fc.constantFrom<unknown>("iVBORw0KGgo=", "!!!", "", null),
      url: fc.constantFrom<unknown>("https://127.0.0.1/a.png", "file:///etc/passwd", "javascript:x", ""),
      file_id: anyish,
    },
    { requiredKeys: [] },
  ),
  anyish,
);
const inner = fc.record(
  {
    type: fc.constantFrom<unknown>("text", "image", "document", "bogus", 1),
    text: fc.oneof(fc.string({ maxLength: 20 }), anyish),
    source,
  },
  { requiredKeys: [] },
);
const block = fc.record(
  {
    type: fc.constantFrom<unknown>(
      "text",
      "image",
      "document",
      "tool_use",
      "tool_result",
      "thinking",
      "redacted_thinking",
      "server_tool_use",
      "web_search_tool_result",
      "web_fetch_tool_result",
      "bogus",
      null,
    ),
    text: fc.oneof(fc.string({ maxLength: 20 }), anyish),
    source,
    id: fc.oneof(fc.constantFrom<unknown>("toolu_1", ""), anyish),
    name: fc.oneof(fc.constantFrom<unknown>("t", ""), anyish),
    input: anyish,
    tool_use_id: fc.oneof(fc.constantFrom<unknown>("toolu_1", "nope"), anyish),
    content: fc.oneof(fc.string({ maxLength: 20 }), fc.array(inner, { maxLength: 2 }), anyish),
    is_error: anyish,
    thinking: anyish,
    signature: anyish,
    cache_control: anyish,
  },
  { requiredKeys: [] },
);
const message = fc.record(
  {
    role: fc.constantFrom<unknown>("user", "assistant", "system", "tool", "", null),
    content: fc.oneof(fc.string({ maxLength: 30 }), fc.array(block, { maxLength: 3 }), anyish),
  },
  { requiredKeys: ["role"] },
);
const tool = fc.record(
  {
    type: fc.constantFrom<unknown>(undefined, "custom", "web_search_20250305", "bash_20250124", 5),
    name: fc.oneof(fc.constantFrom<unknown>("t", "web_search", ""), anyish),
    input_schema: fc.oneof(fc.constant<unknown>({ type: "object" }), anyish),
    defer_loading: anyish,
  },
  { requiredKeys: [] },
);
const body = fc.record(
  {
    model: fc.oneof(fc.constantFrom<unknown>(ALLOWED, ALLOWED, "mock/nope", "mock/mock-reasoner", ""), anyish),
    max_tokens: fc.oneof(fc.constantFrom<unknown>(16, 0, -1, 1.5, "10"), anyish),
    messages: fc.oneof(fc.array(message, { maxLength: 3 }), anyish),
    system: fc.oneof(fc.string({ maxLength: 20 }), fc.array(block, { maxLength: 2 }), anyish),
    tools: fc.oneof(fc.array(tool, { maxLength: 2 }), anyish),
    tool_choice: fc.oneof(
      fc.constantFrom<unknown>(
        { type: "auto" },
        { type: "any" },
        { type: "tool", name: "t" },
        { type: "none" },
        "auto",
      ),
      anyish,
    ),
    thinking: fc.oneof(
      fc.constantFrom<unknown>({ type: "enabled", budget_tokens: 2048 }, { type: "adaptive" }, { type: "x" }),
      anyish,
    ),
    output_config: anyish,
    temperature: anyish,
    top_k: anyish,
    stop_sequences: anyish,
    metadata: anyish,
    stream: fc.constantFrom<unknown>(false, false, true, "yes"),
  },
  { requiredKeys: [] },
);
/** A valid body with one field replaced by a generated value (reaches policy, OpenCode and the encoder too). */
const VALID = { model: ALLOWED, max_tokens: 16, messages: [{ role: "user", content: "hi" }] };
const nearValid = fc
  .tuple(body, fc.constantFrom(...Object.keys(VALID), "system", "tools", "tool_choice", "thinking", "stream", "top_k"))
  .map(([b, field]) => ({ ...VALID, [field]: (b as Record<string, unknown>)[field] }));
const rawBody = fc.oneof(
  { weight: 4, arbitrary: body.map((b) => JSON.stringify(b)) },
  { weight: 4, arbitrary: nearValid.map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: anyish.map((v) => JSON.stringify(v) ?? "") },
  { weight: 1, arbitrary: fc.constantFrom("{", "[1,", "", "null", '{"model":', "\u0000") },
);

/** Sends one body; asserts the properties; returns the status. */
async function check(path: string, text: string): Promise<void> {
  const res = await fetch(`${root}${path}`, {
    method: "POST",
    headers: { "x-api-key": key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
    body: text,
    signal: AbortSignal.timeout(60_000),
  });
  const payload = await res.text();
  tally[res.status] = (tally[res.status] ?? 0) + 1;
  assert.ok(res.status < 500, `${res.status} for ${path} ${text.slice(0, 300)}\n→ ${payload.slice(0, 300)}`);
  if (res.status === 200) return;
  const parsed = AnthropicErrorEnvelope.safeParse(JSON.parse(payload));
  assert.ok(parsed.success, `not Anthropic's envelope: ${payload.slice(0, 300)}`);
  assert.equal(parsed.data.error.type, anthropicErrorType(res.status), payload.slice(0, 200));
}

test("POST /v1/messages and count_tokens: never 5xx, always Anthropic's envelope", async () => {
  const started = Date.now();
  for (const [path, runs] of [
    ["/v1/messages/count_tokens", RUNS.countTokens],
    ["/v1/messages", RUNS.messages],
  ] as const) {
    await fc.assert(
      fc.asyncProperty(rawBody, async (text) => {
        if (Date.now() - started > BUDGET_MS) return;
        await check(path, text);
      }),
      { seed: FUZZ_SEED, numRuns: runs, endOnFailure: true },
    );
  }
  // The server still serves, and an auth failure on the Messages route is Anthropic's envelope too.
  fx.mock.reset();
  fx.mock.script({ text: "still fine" });
  const ok = await fetch(`${root}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ model: ALLOWED, max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
  });
  assert.equal(ok.status, 200, await ok.clone().text());
  const unauth = await fetch(`${root}/v1/messages`, { method: "POST", body: "{}" });
  assert.equal(unauth.status, 401);
  assert.deepEqual(Object.keys(AnthropicErrorEnvelope.parse(await unauth.json()).error), ["type", "message"]);
});
