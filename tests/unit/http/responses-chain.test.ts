// Issue 21 item 6, through the real Responses routes (scripted backend): a `previous_response_id` chain costs disk in
// proportion to its turns, not their square (a 150-turn chain; the bytes on disk after 50, 100 and 150 turns are
// printed); a record of the old format (whole input inside) is continued; deleting a response in the middle of a
// chain leaves the later ones whole.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { appDataKey } from "../../../shared/apps";
import { newResponseId } from "../../../server/responses-store/record";
import { MODEL, startUnitServer, textAnswer, type UnitServer } from "./fakes";

let server: UnitServer;

before(async () => {
  server = await startUnitServer({ commitAfterMs: 10 });
});
after(() => server.close());

/** Bytes of every file under `dir` (apparent sizes). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
  return total;
}

/** ~200 characters of a user turn, ~300 of an answer: a short chat. */
const QUESTION = "Tell me one more thing about the history of the city, briefly. ".repeat(3);
const ANSWER = "Here is one more thing about the city's history, told briefly as asked. ".repeat(4);

type Json = Record<string, unknown>;

/** POST /v1/responses answering `answer`; the status and body. */
async function create(body: Json, answer: string): Promise<{ status: number; body: Json }> {
  server.backend.script = () => textAnswer(answer);
  const res = await server.call("/v1/responses", { method: "POST", body: JSON.stringify({ model: MODEL, ...body }) });
  return { status: res.status, body: (await res.json()) as Json };
}

/** The texts of the last upstream request's messages, in order. */
function upstreamTexts(): string[] {
  const request = server.backend.streams.at(-1)!.request.request;
  return [...JSON.stringify(request.messages).matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]!);
}

/** The texts of a response's input items, oldest first. */
async function inputTexts(id: string): Promise<string[]> {
  const res = await server.call(`/v1/responses/${id}/input_items?order=asc&limit=100`);
  assert.equal(res.status, 200);
  const page = (await res.json()) as { data: Json[] };
  return page.data.map((i) =>
    typeof i.content === "string" ? i.content : (i.content as Array<{ text: string }>)[0]!.text,
  );
}

describe("previous_response_id chains through the routes", () => {
  test("a record of the old format (whole input inside) is continued and its input listed", async () => {
    const id = newResponseId(Date.now() - 1000);
    const key = id.slice(5);
    const app = appDataKey(server.apps.app);
    const old = {
      v: 1,
      id,
      app,
      createdAt: Date.now() - 1000,
      sessionId: null,
      input: [
        { id: "msg_old_in0", type: "message", role: "user", content: "q0" },
        { id: "msg_old_0", type: "message", role: "assistant", content: [{ type: "output_text", text: "a0" }] },
        { id: `msg_${key}_in0`, type: "message", role: "user", content: "q1" },
      ],
      response: {
        id,
        object: "response",
        created_at: 0,
        status: "completed",
        model: MODEL,
        output: [
          { id: `msg_${key}_0`, type: "message", role: "assistant", content: [{ type: "output_text", text: "a1" }] },
        ],
        previous_response_id: null,
        instructions: null,
        usage: null,
        store: true,
      },
    };
    const file = path.join(server.responsesDir, "responses", app, id.slice(-2), `${id}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(old));
    assert.deepEqual(await inputTexts(id), ["q0", "a0", "q1"]);
    const next = await create({ previous_response_id: id, input: "q2" }, "a2");
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.deepEqual(upstreamTexts(), ["q0", "a0", "q1", "a1", "q2"]);
    assert.deepEqual(await inputTexts(next.body.id as string), ["q0", "a0", "q1", "a1", "q2"]);
    const ref = await create(
      {
        input: [
          { type: "item_reference", id: `msg_${key}_0` },
          { role: "user", content: "?" },
        ],
      },
      "!",
    );
    assert.equal(ref.status, 200, "an item of the old record is found by reference");
  });

  test("deleting a response in the middle: it is gone, the later ones keep their whole conversation", async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const r = await create({ input: `q${n}`, ...(ids.length ? { previous_response_id: ids.at(-1) } : {}) }, `a${n}`);
      assert.equal(r.status, 200);
      ids.push(r.body.id as string);
    }
    const [r1, r2, r3] = ids as [string, string, string];
    assert.equal((await server.call(`/v1/responses/${r2}`, { method: "DELETE" })).status, 200);
    const gone = await server.call(`/v1/responses/${r2}`);
    assert.equal(gone.status, 404);
    const fromGone = await create({ previous_response_id: r2, input: "x" }, "y");
    assert.equal(fromGone.status, 400);
    assert.equal((fromGone.body.error as Json).code, "previous_response_not_found");
    assert.deepEqual(await inputTexts(r3), ["q1", "a1", "q2", "a2", "q3"]);
    const got = (await (await server.call(`/v1/responses/${r3}`)).json()) as Json;
    assert.equal(got.previous_response_id, r2, "the response object is as it was answered");
    const next = await create({ previous_response_id: r3, input: "q4" }, "a4");
    assert.equal(next.status, 200);
    assert.deepEqual(upstreamTexts(), ["q1", "a1", "q2", "a2", "q3", "a3", "q4"]);
    assert.equal((await server.call(`/v1/responses/${r1}`)).status, 200);
  });

  test("a chain broken by hand (its parent gone): a clear 500 in OpenAI's envelope, nothing sent upstream", async () => {
    const first = await create({ input: "q1" }, "a1");
    const second = await create({ input: "q2", previous_response_id: first.body.id }, "a2");
    const secondId = second.body.id as string;
    const file = path.join(server.responsesDir, "responses", appDataKey(server.apps.app), secondId.slice(-2));
    const record = JSON.parse(fs.readFileSync(path.join(file, `${secondId}.json`), "utf8")) as Json;
    const id = newResponseId(Date.now() - 60_000);
    fs.writeFileSync(path.join(file, `${secondId}.json`), JSON.stringify({ ...record, parent: id }));
    const calls = server.backend.streams.length;
    for (const res of [
      await server.call(`/v1/responses/${second.body.id as string}/input_items`),
      await server.call("/v1/responses", {
        method: "POST",
        body: JSON.stringify({ model: MODEL, input: "q3", previous_response_id: second.body.id }),
      }),
    ]) {
      assert.equal(res.status, 500);
      const error = ((await res.json()) as { error: { code: string; type: string; message: string } }).error;
      assert.equal(error.code, "storage_error");
      assert.match(error.message, new RegExp(`earlier response '${id}' it continues is missing`));
      assert.ok(!error.message.includes(server.responsesDir), "no path of the data folder");
    }
    assert.equal(server.backend.streams.length, calls);
  });

  test("150 turns take about 3 × the bytes of 50 (linear, not quadratic)", async (t) => {
    let previous: string | null = null;
    const at: Record<number, number> = {};
    const records = path.join(server.responsesDir, "responses");
    const others = bytesUnder(records); // the records of the tests above
    for (let turn = 1; turn <= 150; turn++) {
      const { status, body } = await create(
        { input: `${turn}: ${QUESTION}`, previous_response_id: previous },
        `${turn}: ${ANSWER}`,
      );
      assert.equal(status, 200);
      assert.equal(body.store, true);
      previous = body.id as string;
      if (turn % 50 === 0) at[turn] = bytesUnder(records) - others;
    }
    t.diagnostic(`bytes on disk: 50 turns ${at[50]}, 100 turns ${at[100]}, 150 turns ${at[150]}`);
    const items = (await (await server.call(`/v1/responses/${previous}/input_items?limit=100&order=asc`)).json()) as {
      data: Array<{ content: unknown }>;
      has_more: boolean;
    };
    assert.equal(items.data.length, 100);
    assert.equal(items.has_more, true, "the whole conversation (299 items) is listed");
    assert.ok(at[150]! < 3 * at[50]! * 1.2, `150 turns: ${at[150]} bytes, 50 turns: ${at[50]} bytes`);
  });
});

describe("a refused item of a continued conversation is named as the client knows it", () => {
  test("the client's own item by its own index, not the index in the expanded chain", async () => {
    const call = (id: string) => ({ type: "function_call", call_id: id, name: "lookup", arguments: "{}" });
    const tools = [{ type: "function", name: "lookup", parameters: { type: "object" } }];
    const first = await create(
      {
        tools,
        input: [
          { role: "user", content: "hi" },
          call("c1"),
          { type: "function_call_output", call_id: "c1", output: "x" },
        ],
      },
      "done",
    );
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const again = await create({ tools, previous_response_id: first.body.id, input: [call("c1")] }, "never");
    assert.equal(again.status, 400);
    const error = again.body.error as Json;
    assert.equal(error.param, "input[0].call_id");
    assert.match(String(error.message), /^Invalid 'input\[0\]\.call_id': 'c1' is the call_id of an earlier item/);
  });
});
