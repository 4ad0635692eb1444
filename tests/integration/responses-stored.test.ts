// Stored Responses end to end (issue 13): the AI SDK's default provider (store on, item references) and the official
// `openai` client (`previous_response_id`, retrieve, delete, input items) and the Agents SDK (`previousResponseId`)
// hold multi-turn chats through Patchbay; the upstream sees the same conversation as when it is sent inline; another
// app sees nothing; pruning, a damaged record, the per-app switch and a restart behave.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { generateText, stepCountIs, tool, type ModelMessage } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from "@openai/agents";
import type OpenAI from "openai";
import { z } from "zod";
import { createPatchbay } from "../../server/index";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import type { MockReply } from "../harness/mock-upstream";

type Json = Record<string, unknown>;

let fx: PatchbayFixture;
let key: string;
let otherKey: string;
const MODEL = "mock/mock-model";

before(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  setTracingDisabled(true);
  fx = await startPatchbayFixture();
  key = await fx.createKey("stored");
  otherKey = await fx.createKey("other");
});
after(async () => {
  await fx?.stop();
});

/** The upstream bodies since the last reset, without the per-request fields that differ between runs. */
function upstreamBodies(): Json[] {
  return fx.mock.chatRequests().map((r) => {
    const { prompt_cache_key: _k, user: _u, ...rest } = r.body;
    return rest;
  });
}

async function getJson(pathname: string, k = key, init: RequestInit = {}): Promise<{ status: number; body: Json }> {
  const res = await fx.api(pathname, { key: k, ...init });
  return { status: res.status, body: (await res.json()) as Json };
}

function errorOf(body: Json): { message: string; code: string | null; param: string | null; type: string } {
  return body.error as { message: string; code: string | null; param: string | null; type: string };
}

describe("Vercel AI SDK default provider (store on: item references)", () => {
  const openai = () => createOpenAI({ baseURL: fx.apiBase, apiKey: key });

  /** A three-turn chat with `providerOptions`; returns the texts and the upstream bodies. */
  async function threeTurns(store: boolean): Promise<{ texts: string[]; bodies: Json[] }> {
    fx.mock.reset();
    fx.mock.script({ text: "Hi, I am Bot." }, { text: "Paris." }, { text: "About 2.1 million." });
    const messages: ModelMessage[] = [];
    const texts: string[] = [];
    for (const q of ["Hello, who are you?", "Capital of France?", "Its population?"]) {
      messages.push({ role: "user", content: q });
      const r = await generateText({
        model: openai()(MODEL),
        system: "Be brief.",
        messages,
        maxRetries: 0,
        ...(store ? {} : { providerOptions: { openai: { store: false } } }),
      });
      texts.push(r.text);
      messages.push(...r.response.messages);
    }
    return { texts, bodies: upstreamBodies() };
  }

  test("a three-turn chat: the upstream sees the full conversation each turn, as with store: false", async () => {
    const stored = await threeTurns(true);
    const inline = await threeTurns(false);
    assert.deepEqual(stored.texts, ["Hi, I am Bot.", "Paris.", "About 2.1 million."]);
    assert.equal(stored.bodies.length, 3);
    assert.deepEqual(stored.bodies, inline.bodies, "same upstream requests with and without stored items");
    assert.deepEqual(stored.bodies[2]?.messages, [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hello, who are you?" },
      { role: "assistant", content: "Hi, I am Bot." },
      { role: "user", content: "Capital of France?" },
      { role: "assistant", content: "Paris." },
      { role: "user", content: "Its population?" },
    ]);
  });

  /** A tool loop over two steps; returns the text and the upstream bodies. */
  async function toolLoop(store: boolean): Promise<{ text: string; ran: string[]; bodies: Json[] }> {
    fx.mock.reset();
    fx.mock.script(
      { text: "Let me check.", toolCalls: [{ id: "call_quito", name: "get_weather", arguments: { city: "Quito" } }] },
      { text: "Quito: 14°C." },
    );
    const ran: string[] = [];
    const r = await generateText({
      model: openai()(MODEL),
      prompt: "Weather in Quito?",
      tools: {
        get_weather: tool({
          description: "Current weather for a city",
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            ran.push(city);
            return { city, tempC: 14 };
          },
        }),
      },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      ...(store ? {} : { providerOptions: { openai: { store: false } } }),
    });
    return { text: r.text, ran, bodies: upstreamBodies() };
  }

  test("a tool loop: the second step's item references expand to the same upstream request", async () => {
    const stored = await toolLoop(true);
    const inline = await toolLoop(false);
    assert.equal(stored.text, "Quito: 14°C.");
    assert.deepEqual(stored.ran, ["Quito"]);
    assert.equal(stored.bodies.length, 2);
    assert.deepEqual(stored.bodies, inline.bodies);
    assert.deepEqual((stored.bodies[1]?.messages as Json[]).slice(1), [
      {
        role: "assistant",
        content: "Let me check.",
        tool_calls: [
          { id: "call_quito", type: "function", function: { name: "get_weather", arguments: '{"city":"Quito"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_quito", content: '{"city":"Quito","tempC":14}' },
    ]);
  });
});

describe("official openai client", () => {
  let client: OpenAI;
  before(() => {
    client = fx.openai(key);
  });

  test("previous_response_id chain of three turns (JSON): the upstream gets what the inline conversation gives", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "One." }, { text: "Two." }, { text: "Three." });
    const r1 = await client.responses.create({ model: MODEL, instructions: "Count.", input: "Start" });
    assert.equal((r1 as unknown as Json).store, true);
    assert.equal(r1.previous_response_id, null);
    const r2 = await client.responses.create({ model: MODEL, previous_response_id: r1.id, input: "Next" });
    assert.equal(r2.previous_response_id, r1.id);
    const r3 = await client.responses.create({
      model: MODEL,
      instructions: "Count louder.",
      previous_response_id: r2.id,
      input: [{ role: "user", content: "Last" }],
    });
    assert.deepEqual([r1.output_text, r2.output_text, r3.output_text], ["One.", "Two.", "Three."]);
    const chained = upstreamBodies();
    // Instructions come from the new request only (OpenAI semantics): none on turn 2, "Count louder." on turn 3.
    assert.deepEqual(chained[1]?.messages, [
      { role: "user", content: "Start" },
      { role: "assistant", content: "One." },
      { role: "user", content: "Next" },
    ]);

    // Fidelity: the same third turn sent inline (store: false) reaches the upstream as the same request.
    fx.mock.reset();
    fx.mock.script({ text: "Three." });
    await client.responses.create({
      model: MODEL,
      instructions: "Count louder.",
      store: false,
      input: [
        { role: "user", content: "Start" },
        { role: "assistant", content: "One." },
        { role: "user", content: "Next" },
        { role: "assistant", content: "Two." },
        { role: "user", content: "Last" },
      ],
    });
    assert.deepEqual(chained[2], upstreamBodies()[0]);
    assert.deepEqual((chained[2]?.messages as Json[])[0], { role: "system", content: "Count louder." });
  });

  test("previous_response_id chain of three turns (streaming)", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "Alpha.", chunks: 3 }, { text: "Beta.", chunks: 2 }, { text: "Gamma.", chunks: 2 });
    let previous: string | undefined;
    const texts: string[] = [];
    for (const q of ["a", "b", "c"]) {
      const stream = await client.responses.create({
        model: MODEL,
        input: q,
        stream: true,
        ...(previous ? { previous_response_id: previous } : {}),
      });
      let done: OpenAI.Responses.Response | null = null;
      for await (const e of stream) if (e.type === "response.completed") done = e.response;
      assert.ok(done, "completed");
      assert.equal((done as unknown as Json).store, true);
      assert.equal(done.previous_response_id, previous ?? null);
      texts.push(done.output_text ?? "");
      previous = done.id;
    }
    assert.deepEqual(upstreamBodies()[2]?.messages, [
      { role: "user", content: "a" },
      { role: "assistant", content: "Alpha." },
      { role: "user", content: "b" },
      { role: "assistant", content: "Beta." },
      { role: "user", content: "c" },
    ]);
    const got = await client.responses.retrieve(previous as string);
    assert.equal(got.status, "completed");
    assert.equal(got.output_text, "Gamma.");
  });

  test("a tool call answered through previous_response_id", async () => {
    fx.mock.reset();
    fx.mock.script(
      { toolCalls: [{ id: "call_oslo", name: "get_weather", arguments: { city: "Oslo" } }] },
      { text: "9°C in Oslo." },
    );
    const tools: OpenAI.Responses.Tool[] = [
      { type: "function", name: "get_weather", strict: false, parameters: { type: "object", properties: {} } },
    ];
    const first = await client.responses.create({ model: MODEL, input: "Weather in Oslo?", tools });
    const call = first.output.find((i) => i.type === "function_call");
    assert.ok(call && call.type === "function_call");
    const second = await client.responses.create({
      model: MODEL,
      previous_response_id: first.id,
      tools,
      input: [{ type: "function_call_output", call_id: call.call_id, output: "9C" }],
    });
    assert.equal(second.output_text, "9°C in Oslo.");
    assert.deepEqual((upstreamBodies()[1]?.messages as Json[]).slice(1), [
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call_oslo", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_oslo", content: "9C" },
    ]);
  });

  test("retrieve, inputItems.list (order, limit, after) and delete", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "First." }, { text: "Second." });
    const r1 = await client.responses.create({ model: MODEL, input: "q1" });
    const r2 = await client.responses.create({
      model: MODEL,
      previous_response_id: r1.id,
      input: [
        { role: "developer", content: "Be nice." },
        { role: "user", content: "q2" },
      ],
    });
    const got = await client.responses.retrieve(r2.id);
    assert.equal(got.id, r2.id);
    assert.equal(got.output_text, "Second.");
    assert.equal(got.previous_response_id, r1.id);
    assert.deepEqual(got.output, r2.output);

    // Effective input: q1, First., developer, q2 (ascending); the default order is desc.
    const desc = await client.responses.inputItems.list(r2.id);
    const texts = (items: OpenAI.Responses.ResponseItem[]) =>
      items.map((i) => {
        const c = (i as { content?: unknown }).content;
        return typeof c === "string" ? c : ((c as Array<{ text: string }>)[0]?.text ?? "");
      });
    assert.deepEqual(texts(desc.data), ["q2", "Be nice.", "First.", "q1"]);
    assert.ok(
      desc.data.every((i) => typeof i.id === "string" && i.id.length > 0),
      "every input item has an id",
    );
    assert.equal(desc.data[2]?.id, r1.output[0]?.id, "the previous output item keeps its id");
    const page1 = await client.responses.inputItems.list(r2.id, { order: "asc", limit: 2 });
    assert.deepEqual(texts(page1.data), ["q1", "First."]);
    assert.equal(page1.has_more, true);
    const raw = await getJson(`/v1/responses/${r2.id}/input_items?order=asc&limit=2&after=${page1.data[1]!.id}`);
    assert.equal(raw.status, 200);
    assert.deepEqual(texts(raw.body.data as OpenAI.Responses.ResponseItem[]), ["Be nice.", "q2"]);
    assert.equal(raw.body.has_more, false);
    assert.equal(raw.body.first_id, (raw.body.data as Json[])[0]?.id);
    const bad = await getJson(`/v1/responses/${r2.id}/input_items?limit=500`);
    assert.equal(bad.status, 400);
    assert.equal(errorOf(bad.body).param, "limit");

    const deleted: unknown = await client.responses.delete(r1.id);
    assert.deepEqual(deleted, { id: r1.id, object: "response.deleted", deleted: true });
    const del = await getJson(`/v1/responses/${r2.id}`, key, { method: "DELETE" });
    assert.deepEqual(del.body, { id: r2.id, object: "response.deleted", deleted: true });
    for (const id of [r1.id, r2.id]) {
      const again = await getJson(`/v1/responses/${id}`);
      assert.equal(again.status, 404);
      assert.equal(errorOf(again.body).message, `Response with id '${id}' not found.`);
      assert.equal(errorOf(again.body).type, "invalid_request_error");
    }
    const chained = await getJson("/v1/responses", key, {
      method: "POST",
      body: JSON.stringify({ model: MODEL, previous_response_id: r1.id, input: "more" }),
    });
    assert.equal(chained.status, 400);
    assert.equal(errorOf(chained.body).code, "previous_response_not_found");
    assert.equal(errorOf(chained.body).param, "previous_response_id");
  });

  test("store: false keeps nothing and says so; the log entry links a stored response", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "Not kept." }, { text: "Kept." });
    const r = await client.responses.create({ model: MODEL, input: "x", store: false });
    assert.equal((r as unknown as Json).store, false);
    assert.equal((await getJson(`/v1/responses/${r.id}`)).status, 404);
    const kept = await client.responses.create({ model: MODEL, input: "y" });
    const logs = await fx.admin.queryLogs({ query: { app: "stored", limit: 5 } });
    const entry = logs.entries.find((e) => e.responseId === kept.id);
    assert.ok(entry, "the request log entry names the stored response");
    assert.ok(!logs.entries.some((e) => e.responseId === r.id));
  });

  test("Agents SDK: previousResponseId carries the conversation", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "I am Agent." }, { text: "You asked who I am." });
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: key, baseURL: fx.apiBase, useResponses: true }),
      tracingDisabled: true,
    });
    const agent = new Agent({ name: "Helper", instructions: "Be helpful.", model: MODEL });
    const first = await runner.run(agent, "Who are you?");
    assert.equal(first.finalOutput, "I am Agent.");
    assert.ok(first.lastResponseId?.startsWith("resp_"));
    const second = await runner.run(agent, "What did I ask?", { previousResponseId: first.lastResponseId });
    assert.equal(second.finalOutput, "You asked who I am.");
    assert.deepEqual(upstreamBodies()[1]?.messages, [
      { role: "system", content: "Be helpful." },
      { role: "user", content: "Who are you?" },
      { role: "assistant", content: "I am Agent." },
      { role: "user", content: "What did I ask?" },
    ]);
  });
});

describe("per app: isolation, switch, pruning, damage, restart", () => {
  async function create(k: string, body: Json, reply: MockReply = { text: "ok" }): Promise<Json> {
    fx.mock.reset();
    fx.mock.script(reply);
    const res = await getJson("/v1/responses", k, { method: "POST", body: JSON.stringify({ model: MODEL, ...body }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }

  test("another app gets 404 for the response and its items, and cannot chain from it", async () => {
    const a = await create(key, { input: "secret of A" }, { text: "A's answer" });
    const id = a.id as string;
    const outId = (a.output as Json[])[0]?.id as string;
    for (const p of [`/v1/responses/${id}`, `/v1/responses/${id}/input_items`]) {
      const r = await getJson(p, otherKey);
      assert.equal(r.status, 404);
      assert.match(errorOf(r.body).message, new RegExp(id));
    }
    assert.equal((await getJson(`/v1/responses/${id}`, otherKey, { method: "DELETE" })).status, 404);
    const ref = await getJson("/v1/responses", otherKey, {
      method: "POST",
      body: JSON.stringify({
        model: MODEL,
        input: [
          { role: "user", content: "hi" },
          { type: "item_reference", id: outId },
          { role: "user", content: "?" },
        ],
      }),
    });
    assert.equal(ref.status, 404);
    assert.equal(errorOf(ref.body).param, "input[1].id");
    assert.equal(errorOf(ref.body).message, `Item with id '${outId}' not found.`);
    const prev = await getJson("/v1/responses", otherKey, {
      method: "POST",
      body: JSON.stringify({ model: MODEL, previous_response_id: id, input: "x" }),
    });
    assert.equal(prev.status, 400);
    assert.equal(errorOf(prev.body).code, "previous_response_not_found");
    assert.doesNotMatch(JSON.stringify([ref.body, prev.body]), /secret of A|A's answer/);
    // The owner still has it.
    assert.equal((await getJson(`/v1/responses/${id}`)).status, 200);
  });

  test("the app's 'store responses' switch off: store is false and nothing is kept", async () => {
    await fx.admin.updateApp({ params: { name: "other" }, body: { storeResponses: false } });
    try {
      const r = await create(otherKey, { input: "x", store: true });
      assert.equal(r.store, false);
      assert.equal((await getJson(`/v1/responses/${r.id as string}`, otherKey)).status, 404);
    } finally {
      await fx.admin.updateApp({ params: { name: "other" }, body: { storeResponses: true } });
    }
  });

  test("pruning: a response beyond maxSessions is gone after a prune and its id gives 404", async () => {
    const pk = await fx.createKey("prune");
    const old = await create(pk, { input: "old" });
    await new Promise((r) => setTimeout(r, 5));
    const fresh = await create(pk, { input: "new" });
    await fx.admin.updateApp({ params: { name: "prune" }, body: { history: { maxSessions: 1 } } });
    const preview = await fx.admin.previewPrune({ params: { name: "prune" }, query: {} });
    assert.equal(preview.responses, 1);
    const sweep = await fx.admin.pruneNow({ params: { name: "prune" }, body: {} });
    assert.equal(sweep.responsesRemoved, 1);
    assert.equal((await getJson(`/v1/responses/${old.id as string}`, pk)).status, 404);
    assert.equal((await getJson(`/v1/responses/${fresh.id as string}`, pk)).status, 200);
  });

  test("a damaged record gives a clear error for its id; others still work; the dashboard lists it", async () => {
    const bad = await create(key, { input: "to be damaged" });
    const good = await create(key, { input: "fine" });
    const id = bad.id as string;
    // Records are filed under the app's data key (apps.json), not its bare name.
    const apps = JSON.parse(fs.readFileSync(path.join(fx.dataDir, "apps.json"), "utf8")) as {
      data: { apps: Array<{ name: string; dataKey?: string }> };
    };
    const dataKey = apps.data.apps.find((a) => a.name === "stored")?.dataKey ?? "stored";
    const file = path.join(fx.dataDir, "responses", dataKey, id.slice(-2), `${id}.json`);
    // The disk write finishes in the background: wait for the file before damaging it.
    for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(fs.existsSync(file), `record at ${file}`);
    await new Promise((r) => setTimeout(r, 50));
    fs.writeFileSync(file, '{"v":1,"id":"');
    const r = await getJson(`/v1/responses/${id}`);
    assert.equal(r.status, 500);
    assert.equal(errorOf(r.body).code, "storage_error");
    assert.match(errorOf(r.body).message, new RegExp(`Stored response '${id}' is damaged`));
    assert.ok(!errorOf(r.body).message.includes(fx.dataDir), "the client never learns the data folder's path");
    assert.equal((await getJson(`/v1/responses/${good.id as string}`)).status, 200);
    const page = await fx.admin.listStoredResponses({ params: { name: "stored" }, query: { limit: 200 } });
    assert.match(page.responses.find((x) => x.id === id)?.error ?? "", /damaged/);
    const detail = await fx.admin.getStoredResponse({ params: { name: "stored", id: good.id as string } });
    assert.equal(detail.output.length, 1);
    assert.equal((await getJson(`/v1/responses/${id}`, key, { method: "DELETE" })).status, 200);
  });

  test("stored responses survive a Patchbay restart", async () => {
    const kept = await create(key, { input: "remember me" }, { text: "remembered" });
    await fx.pb.stop();
    const pb2 = await createPatchbay({
      dataDir: fx.dataDir,
      port: 0,
      host: "127.0.0.1",
      userOpenCode: { authFile: null, configFile: fx.user.configFile },
      log: () => {},
    });
    try {
      const urls = await pb2.start();
      const res = await fetch(`${urls.openaiUrl}/responses/${kept.id as string}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as Json;
      assert.deepEqual(body.output, kept.output);
    } finally {
      await pb2.stop();
    }
  });
});
