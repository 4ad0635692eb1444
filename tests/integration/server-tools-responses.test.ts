// Hosted web search on /v1/responses, end to end: the official `openai` client offers `{type: "web_search"}`, the
// scripted mock model calls it through real OpenCode, Patchbay runs it against a mock SearXNG on loopback, and the
// client reads a native `web_search_call` item (with its `response.web_search_call.*` events when streaming) and
// `url_citation` annotations for the result URLs the answer names.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import { MockSearxng } from "../harness/mock-searxng";

let fx: PatchbayFixture;
let search: MockSearxng;
let client: OpenAI;
const MODEL = "mock/mock-model";
const APP = "web-responses";
const HIT = { url: "https://docs.example.test/release", title: "Patchbay 2.0 release notes", content: "2.0 shipped." };
const ANSWER = `Patchbay 2.0 shipped, see ${HIT.url} for details.`;

before(async () => {
  search = await new MockSearxng().start();
  search.hits = [HIT];
  fx = await startPatchbayFixture({ serverTools: { searchUrl: search.url } });
  client = fx.openai(await fx.createKey(APP));
});
after(async () => {
  await fx?.stop();
  await search?.stop();
});

function scriptSearchThenAnswer(): void {
  fx.mock.reset();
  fx.mock.script(
    { toolCalls: [{ name: "web_search", arguments: { query: "patchbay release" } }], finishReason: "tool_calls" },
    { text: ANSWER },
  );
}

describe("responses web search", () => {
  test("create: a web_search_call item, then the answer with url_citation annotations", async () => {
    scriptSearchThenAnswer();
    search.queries.length = 0;
    const r = await client.responses.create({
      model: MODEL,
      input: "What is new in Patchbay?",
      tools: [{ type: "web_search" }],
    });
    assert.equal(r.status, "completed");
    assert.deepEqual(
      r.output.map((i) => i.type),
      ["web_search_call", "message"],
    );
    const call = r.output[0];
    assert.ok(call?.type === "web_search_call");
    assert.equal(call.status, "completed");
    assert.match(call.id, /^ws_/);
    assert.deepEqual(call.action, { type: "search", query: "patchbay release", queries: ["patchbay release"] });
    assert.equal(r.output_text, ANSWER);
    const msg = r.output[1];
    assert.ok(msg?.type === "message" && msg.content[0]?.type === "output_text");
    const start = ANSWER.indexOf(HIT.url);
    assert.deepEqual(msg.content[0].annotations, [
      { type: "url_citation", start_index: start, end_index: start + HIT.url.length, url: HIT.url, title: HIT.title },
    ]);
    assert.deepEqual(search.queries, ["patchbay release"]);
    const second = fx.mock.chatRequests()[1]?.body.messages as Array<{ role: string; content: unknown }>;
    assert.match(JSON.stringify(second.find((m) => m.role === "tool")?.content), /docs\.example\.test\/release/);
  });

  test("stream: web_search_call events in order, the same final response", async () => {
    scriptSearchThenAnswer();
    const stream = await client.responses.create({
      model: MODEL,
      input: "What is new in Patchbay?",
      tools: [{ type: "web_search_preview" }],
      stream: true,
    });
    const types: string[] = [];
    let final: OpenAI.Responses.Response | null = null;
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === "response.completed") final = e.response;
    }
    const search = types.filter((t) => t.startsWith("response.web_search_call."));
    assert.deepEqual(search, [
      "response.web_search_call.in_progress",
      "response.web_search_call.searching",
      "response.web_search_call.completed",
    ]);
    assert.ok(types.indexOf("response.output_text.annotation.added") < types.indexOf("response.output_text.done"));
    assert.ok(final);
    assert.deepEqual(
      final.output.map((i) => i.type),
      ["web_search_call", "message"],
    );
  });

  test("no backend for the app: a failed web_search_call, never model text; the request completes", async () => {
    await fx.admin.updateApp({ params: { name: APP }, body: { webSearch: false } });
    try {
      scriptSearchThenAnswer();
      const r = await client.responses.create({
        model: MODEL,
        input: "What is new in Patchbay?",
        tools: [{ type: "web_search" }],
      });
      const call = r.output[0];
      assert.ok(call?.type === "web_search_call");
      assert.equal(call.status, "failed");
      assert.equal(r.status, "completed");
    } finally {
      await fx.admin.updateApp({ params: { name: APP }, body: { webSearch: true } });
    }
  });

  test("a web_search_call item sent back in input (Codex's history) is accepted", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "ok" });
    const r = await client.responses.create({
      model: MODEL,
      input: [
        { role: "user", content: "What is new?" },
        {
          type: "web_search_call",
          id: "ws_1",
          status: "completed",
          action: { type: "search", query: "patchbay" },
        } as unknown as OpenAI.Responses.ResponseInputItem,
        { role: "assistant", content: "2.0 shipped." },
        { role: "user", content: "Thanks" },
      ],
      tools: [{ type: "web_search" }],
    });
    assert.equal(r.output_text, "ok");
  });

  test("a web_search_call item with bad fields: 400 in OpenAI's envelope naming the field; the model is never asked", async () => {
    fx.mock.reset();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ status: "done" }, "input[1].status"],
      [{ action: { type: "search", queries: "patchbay" } }, "input[1].action.queries"],
    ];
    for (const [fields, param] of cases) {
      const err = await client.responses
        .create({
          model: MODEL,
          input: [
            { role: "user", content: "What is new?" },
            {
              type: "web_search_call",
              id: "ws_1",
              status: "completed",
              action: { type: "search", query: "patchbay" },
              ...fields,
            } as unknown as OpenAI.Responses.ResponseInputItem,
          ],
          tools: [{ type: "web_search" }],
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      assert.ok(err instanceof OpenAI.BadRequestError, String(err));
      assert.equal(err.status, 400);
      assert.equal(err.param, param);
      assert.equal(err.type, "invalid_request_error");
      assert.ok(err.message.includes(`'${param}'`), err.message);
    }
    assert.equal(fx.mock.chatRequests().length, 0);
  });
});
