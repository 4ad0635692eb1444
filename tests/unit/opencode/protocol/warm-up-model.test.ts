// The hidden warm-up model (prime-instance.ts primes each instance with one call on it): its upstream is the side
// channel (token required, OpenAI chat completion shapes, streamed and not), its provider block reads the side
// channel from OpenCode's environment, and no model list ever offers it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { Provider } from "@opencode-ai/sdk/v2";
import { SideChannel } from "../../../../server/opencode/protocol/side-channel";
import {
  WARM_UP_MODEL_ID,
  WARM_UP_PROVIDER_ID,
  warmUpProviderConfig,
} from "../../../../server/opencode/protocol/warm-up-model";
import { mapProviders } from "../../../../server/opencode/session/models";

interface Choice {
  index: number;
  delta?: Record<string, unknown>;
  message?: Record<string, unknown>;
  finish_reason: string | null;
}
interface Completion {
  object: string;
  choices: Choice[];
  usage?: Record<string, number>;
}

async function withChannel(fn: (url: string, token: string) => Promise<void>): Promise<void> {
  const sc = new SideChannel();
  const { url, token } = await sc.start();
  try {
    await fn(url, token);
  } finally {
    await sc.stop();
  }
}

const post = (url: string, body: string, token?: string) =>
  fetch(`${url}/warm-up/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { "x-patchbay-token": token } : {}) },
    body,
  });

test("the warm-up upstream answers the token holder only", async () => {
  await withChannel(async (url, token) => {
    const body = JSON.stringify({ model: WARM_UP_MODEL_ID, messages: [{ role: "user", content: "x" }] });
    assert.equal((await post(url, body)).status, 401);
    assert.equal((await post(url, body, "wrong")).status, 401);
    assert.equal((await post(url, body, token)).status, 200);
  });
});

test("streamed: role and content 'ok', then finish_reason stop with usage, then [DONE]", async () => {
  await withChannel(async (url, token) => {
    const res = await post(url, JSON.stringify({ model: WARM_UP_MODEL_ID, stream: true, messages: [] }), token);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    parser.feed(await res.text());
    assert.equal(events.at(-1)?.data, "[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as Completion);
    assert.equal(chunks.length, 2);
    for (const c of chunks) assert.equal(c.object, "chat.completion.chunk");
    assert.deepEqual(chunks[0]!.choices[0]!.delta, { role: "assistant", content: "ok" });
    assert.equal(chunks[0]!.choices[0]!.finish_reason, null);
    assert.equal(chunks[1]!.choices[0]!.finish_reason, "stop");
    assert.deepEqual(chunks[1]!.usage, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 });
  });
});

test("not streamed (or a body that is not JSON): one chat.completion saying 'ok'", async () => {
  await withChannel(async (url, token) => {
    for (const body of [JSON.stringify({ model: WARM_UP_MODEL_ID, messages: [] }), "{not json"]) {
      const res = await post(url, body, token);
      assert.equal(res.status, 200);
      const json = (await res.json()) as Completion;
      assert.equal(json.object, "chat.completion");
      assert.deepEqual(json.choices[0]!.message, { role: "assistant", content: "ok" });
      assert.equal(json.choices[0]!.finish_reason, "stop");
    }
  });
});

test("other paths and methods under the prefix are a 404 in OpenAI's envelope", async () => {
  await withChannel(async (url, token) => {
    const headers = { "x-patchbay-token": token };
    for (const [method, p] of [
      ["GET", "/warm-up/v1/chat/completions"],
      ["POST", "/warm-up/v1/responses"],
      ["GET", "/warm-up/v1/models"],
    ] as const) {
      const res = await fetch(`${url}${p}`, { method, headers });
      assert.equal(res.status, 404, `${method} ${p}`);
      const json = (await res.json()) as { error?: { message?: string } };
      assert.equal(typeof json.error?.message, "string");
    }
  });
});

test("the provider block names the side channel through OpenCode's {env:} substitution, with no secret in it", () => {
  const block = warmUpProviderConfig() as {
    npm: string;
    options: { baseURL: string; headers: Record<string, string> };
    models: Record<string, unknown>;
  };
  assert.equal(block.npm, "@ai-sdk/openai-compatible");
  assert.equal(block.options.baseURL, "{env:PATCHBAY_SIDE_CHANNEL_URL}/warm-up/v1");
  assert.deepEqual(block.options.headers, { "x-patchbay-token": "{env:PATCHBAY_SIDE_CHANNEL_TOKEN}" });
  assert.deepEqual(Object.keys(block.models), [WARM_UP_MODEL_ID]);
});

test("mapProviders never offers the warm-up model", () => {
  const provider = (id: string, models: string[]) =>
    ({ id, name: id, models: Object.fromEntries(models.map((m) => [m, { name: m }])) }) as unknown as Provider;
  const ids = mapProviders([provider(WARM_UP_PROVIDER_ID, [WARM_UP_MODEL_ID]), provider("mock", ["a", "b"])]).map(
    (m) => m.id,
  );
  assert.deepEqual(ids, ["mock/a", "mock/b"]);
});
