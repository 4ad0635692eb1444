// expandStoredInput: previous_response_id chains, item references, ids for stored items, errors naming the field.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../server/core/errors";
import {
  expandStoredInput,
  inClientTerms,
  type StoredResponseReader,
} from "../../../server/responses-store/expand-input";
import { responseNotFound } from "../../../server/responses-store/response-store";
import type { StoredResponseRecord } from "../../../server/responses-store/record";

const KEY_A = "0".repeat(12) + "a".repeat(20);
const A = `resp_${KEY_A}`;
const NEW = `resp_${"1".repeat(12)}${"b".repeat(20)}`;

const recordA: StoredResponseRecord = {
  v: 2,
  id: A,
  app: "app",
  createdAt: 0,
  sessionId: null,
  parent: null,
  input: [{ id: `msg_${KEY_A}_in0`, type: "message", role: "user", content: "Hello" }],
  inputItems: 1,
  response: {
    id: A,
    object: "response",
    created_at: 0,
    status: "completed",
    model: "m",
    output: [
      { id: `msg_${KEY_A}_0`, type: "message", role: "assistant", content: [{ type: "output_text", text: "Hi" }] },
      { id: `fc_${KEY_A}_1`, type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
    ],
    previous_response_id: null,
    instructions: "old instructions",
    usage: null,
    store: true,
  },
};

const reader: StoredResponseReader = {
  async get(app, id, param = null) {
    if (app === "app" && id === A) return structuredClone(recordA);
    throw responseNotFound(id, param);
  },
};

function code(err: unknown): string {
  return err instanceof PatchbayError ? `${err.status} ${err.code} ${err.param}` : String(err);
}

describe("expandStoredInput", () => {
  test("a body with nothing stored in it passes through unchanged; stored input gets ids", async () => {
    const body = { model: "m", input: "Hi there", instructions: "x" };
    const r = await expandStoredInput(body, "app", reader, NEW);
    assert.equal(r.body, body);
    assert.equal(r.previousResponseId, null);
    assert.deepEqual(r.input, [{ type: "message", role: "user", content: "Hi there", id: `msg_${NEW.slice(5)}_in0` }]);
  });

  test("previous_response_id: its input and output, then the new input; its instructions are not carried", async () => {
    const r = await expandStoredInput(
      { model: "m", previous_response_id: A, input: [{ type: "function_call_output", call_id: "c1", output: "r" }] },
      "app",
      reader,
      NEW,
    );
    const body = r.body as Record<string, unknown>;
    assert.equal("previous_response_id" in body, false);
    assert.equal("instructions" in body, false);
    assert.deepEqual(
      (body.input as Array<{ type: string }>).map((x) => x.type),
      ["message", "message", "function_call", "function_call_output"],
    );
    assert.equal(r.previousResponseId, A);
    assert.deepEqual(
      r.input?.map((x) => x.id),
      [`msg_${KEY_A}_in0`, `msg_${KEY_A}_0`, `fc_${KEY_A}_1`, `fco_${NEW.slice(5)}_in0`],
    );
  });

  test("item_reference and the bare {id} form resolve to stored input and output items", async () => {
    const r = await expandStoredInput(
      {
        model: "m",
        input: [
          { type: "item_reference", id: `msg_${KEY_A}_in0` },
          { id: `msg_${KEY_A}_0` },
          { role: "user", content: "?" },
        ],
      },
      "app",
      reader,
      NEW,
    );
    const input = (r.body as { input: Array<Record<string, unknown>> }).input;
    assert.deepEqual(
      input.map((x) => x.content),
      ["Hello", [{ type: "output_text", text: "Hi" }], "?"],
    );
  });

  test("errors name the field: unknown previous response (400), unknown or foreign item (404), bad types", async () => {
    await assert.rejects(
      expandStoredInput({ previous_response_id: NEW, input: "x" }, "app", reader, NEW),
      (e: unknown) => code(e) === "400 previous_response_not_found previous_response_id",
    );
    await assert.rejects(
      expandStoredInput({ previous_response_id: A, input: "x" }, "other", reader, NEW),
      (e: unknown) => code(e) === "400 previous_response_not_found previous_response_id",
    );
    for (const bad of [5, "", {}]) {
      await assert.rejects(
        expandStoredInput({ previous_response_id: bad, input: "x" }, "app", reader, NEW),
        (e: unknown) => code(e) === "400 invalid_request_error previous_response_id",
      );
    }
    for (const id of [`msg_${KEY_A}_9`, "msg_1", `msg_${"f".repeat(32)}_0`]) {
      await assert.rejects(
        expandStoredInput(
          {
            input: [
              { role: "user", content: "a" },
              { type: "item_reference", id },
            ],
          },
          "app",
          reader,
          NEW,
        ),
        (e: unknown) => code(e) === "404 item_not_found input[1].id",
      );
    }
    await assert.rejects(
      expandStoredInput({ input: [{ type: "item_reference", id: `msg_${KEY_A}_0` }] }, "other", reader, NEW),
      (e: unknown) => code(e) === "404 item_not_found input[0].id",
    );
    await assert.rejects(
      expandStoredInput({ input: [{ type: "item_reference" }] }, "app", reader, NEW),
      (e: unknown) => code(e) === "400 invalid_request_error input[0].id",
    );
  });
});

describe("inClientTerms", () => {
  const expanded = { storedItems: 4, previousResponseId: "resp_abc" };
  const bad = (param: string, message: string) => new PatchbayError("invalid_request_error", message, { param });

  test("an item of the stored conversation names previous_response_id", () => {
    const e = inClientTerms(bad("input[2].call_id", "Invalid 'input[2].call_id': 'c' repeats."), expanded);
    assert.ok(e instanceof PatchbayError);
    assert.equal(e.param, "previous_response_id");
    assert.equal(e.status, 400);
    assert.equal(
      e.message,
      "The conversation stored for previous_response_id 'resp_abc' cannot be continued: its item 2 is refused " +
        "(Invalid 'input[2].call_id': 'c' repeats.)",
    );
  });

  test("the client's own items are shifted back; other errors and chains without stored items are untouched", () => {
    const e = inClientTerms(bad("input[6].arguments", "Invalid 'input[6].arguments': too deep."), expanded);
    assert.ok(e instanceof PatchbayError);
    assert.equal(e.param, "input[2].arguments");
    assert.equal(e.message, "Invalid 'input[2].arguments': too deep.");
    const other = bad("tools[0]", "x");
    assert.equal(inClientTerms(other, expanded), other);
    const plain = bad("input[6]", "y");
    assert.equal(inClientTerms(plain, { storedItems: 0, previousResponseId: null }), plain);
  });
});
