// The request runner's model checks over a scripted backend: a model id named like an object property is a 404
// (not a 500), a huge id is quoted short, and images for a text-only model are refused before the backend is asked.
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { expectEnvelope } from "../../harness/http-helpers";
import { MODEL, startUnitServer, type UnitServer } from "./fakes";

const PNG = "data:image/png;base64,iVBORw0KGgo=";

let s: UnitServer;
before(async () => {
  s = await startUnitServer({ commitAfterMs: 200 });
});
after(async () => {
  await s.close();
});
beforeEach(() => {
  s.backend.streams = [];
  s.log.entries = [];
});

const post = (body: unknown) => s.call("/v1/chat/completions", { method: "POST", body: JSON.stringify(body) });

describe("model checks in the request runner", () => {
  test("`constructor`, `toString`, `__proto__` → 404 model_not_found naming model", async () => {
    for (const model of ["constructor", "toString", "__proto__"]) {
      const err = await expectEnvelope(
        await post({ model, messages: [{ role: "user", content: "hi" }] }),
        404,
        "model_not_found",
      );
      assert.equal(err.param, "model");
    }
    assert.equal(s.backend.streams.length, 0);
  });

  test("a 20 000-character model id is quoted short in the error", async () => {
    const model = `x/${"y".repeat(20_000)}`;
    const err = await expectEnvelope(
      await post({ model, messages: [{ role: "user", content: "hi" }] }),
      404,
      "model_not_found",
    );
    assert.ok(err.message.length < 500, `message of ${err.message.length} characters`);
  });

  test("an image for a model without attachments → 400 naming the part; the backend is not asked", async () => {
    const content = [
      { type: "text", text: "what is this?" },
      { type: "image_url", image_url: { url: PNG } },
    ];
    const err = await expectEnvelope(
      await post({ model: MODEL, messages: [{ role: "user", content }] }),
      400,
      "invalid_request_error",
    );
    assert.equal(err.param, "messages[0].content[1].image_url.url");
    assert.match(err.message, /does not accept images/);
    assert.equal(s.backend.streams.length, 0);
    assert.equal(s.log.entries[0]?.status, 400);
  });
});
