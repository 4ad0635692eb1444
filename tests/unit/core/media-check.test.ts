// assertModelAcceptsMedia: images/files sent to a model that takes no attachments are refused with a 400 naming the
// first media part (OpenCode would otherwise put an "ERROR: Cannot read file" note into the user's text).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ModelInfo, NeutralRequest } from "../../../server/core/contract";
import { PatchbayError } from "../../../server/core/errors";
import { assertModelAcceptsMedia } from "../../../server/core/media-check";
import { modelInfo, neutralRequest } from "../../harness/neutral-fixtures";

function model(id: string, attachment: boolean): ModelInfo {
  return modelInfo(id, { capabilities: { toolCall: true, attachment, reasoning: false, temperature: true } });
}

const PNG = "data:image/png;base64,iVBORw0KGgo=";
const TEXT_ONLY = model("mock/mock-model", false);
const VISION = model("mock/mock-vision", true);

function request(messages: NeutralRequest["messages"]): NeutralRequest {
  return neutralRequest({ messages, stream: false, includeUsage: false });
}

const withImage = request([
  { role: "user", content: [{ type: "text", text: "hi" }] },
  { role: "assistant", content: [{ type: "text", text: "yo" }], toolCalls: [] },
  {
    role: "user",
    content: [
      { type: "text", text: "what is this?" },
      { type: "media", mediaType: "image/png", url: PNG },
    ],
  },
]);

describe("assertModelAcceptsMedia", () => {
  test("text-only requests pass for any model; media passes for a model with attachments", () => {
    assertModelAcceptsMedia(request([{ role: "user", content: [{ type: "text", text: "hi" }] }]), TEXT_ONLY, []);
    assertModelAcceptsMedia(withImage, VISION, [VISION]);
  });

  test("an image for a text-only model → 400 naming the first media part and the models that take images", () => {
    let caught: unknown;
    try {
      assertModelAcceptsMedia(withImage, TEXT_ONLY, [TEXT_ONLY, VISION]);
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof PatchbayError, String(caught));
    assert.equal(caught.status, 400);
    assert.equal(caught.param, "messages[2].content[1]");
    assert.match(caught.message, /mock\/mock-model/);
    assert.match(caught.message, /does not accept images/);
    assert.match(caught.message, /mock\/mock-vision/);
  });

  test("a file for a text-only model names files; with no capable model the message says so", () => {
    const pdf = request([
      {
        role: "user",
        content: [{ type: "media", mediaType: "application/pdf", url: "data:application/pdf;base64,JVBE" }],
      },
    ]);
    assert.throws(
      () => assertModelAcceptsMedia(pdf, TEXT_ONLY, [TEXT_ONLY]),
      (err: unknown) =>
        err instanceof PatchbayError &&
        err.param === "messages[0].content[0]" &&
        /files/.test(err.message) &&
        /none of the models/i.test(err.message),
    );
  });
});
