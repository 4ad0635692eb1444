// The OpenCode side of thinking signatures: the event mapper turns a reasoning part's
// `metadata.anthropic.signature` into one signed reasoning-delta, and the planner turns signed reasoning in history
// into OpenCode reasoning parts with that metadata (Anthropic providers only; dropped with a warning otherwise).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { BackendRequest, ModelInfo } from "../../../../server/core/contract";
import { formatWarning } from "../../../../server/core/warnings";
import { createMapperState, mapOpenCodeEvent, type MapperInit } from "../../../../server/opencode/session/event-mapper";
import { planBridgeRequest } from "../../../../server/opencode/session/plan/bridge-plan";
import { modelInfo } from "../../../harness/builders";
import { neutralRequest } from "../../../harness/neutral-fixtures";

type OpenCodeEvent = Parameters<typeof mapOpenCodeEvent>[0];
const ev = (type: string, properties: Record<string, unknown>) => ({ type, properties }) as OpenCodeEvent;

describe("event mapper: reasoning signatures", () => {
  const init: MapperInit = { sessionID: "ses_1", toolNames: new Map(), structured: null };
  const part = (metadata?: Record<string, unknown>) =>
    ev("message.part.updated", {
      sessionID: "ses_1",
      part: {
        id: "r1",
        messageID: "msg_a",
        sessionID: "ses_1",
        type: "reasoning",
        text: "Think.",
        ...(metadata ? { metadata } : {}),
      },
    });

  test("the signature is emitted once, after the reasoning text", () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(ev("message.updated", { sessionID: "ses_1", info: { id: "msg_a", role: "assistant" } }), s);
    assert.deepEqual(mapOpenCodeEvent(part(), s), [{ type: "reasoning-delta", delta: "Think." }]);
    const signed = part({ anthropic: { signature: "SIG" } });
    assert.deepEqual(mapOpenCodeEvent(signed, s), [{ type: "reasoning-delta", delta: "", signature: "SIG" }]);
    assert.deepEqual(mapOpenCodeEvent(signed, s), []);
  });

  test("no signature (other providers, or redacted data only): nothing extra", () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(ev("message.updated", { sessionID: "ses_1", info: { id: "msg_a", role: "assistant" } }), s);
    assert.deepEqual(mapOpenCodeEvent(part({ openai: { itemId: "x" } }), s), [
      { type: "reasoning-delta", delta: "Think." },
    ]);
  });
});

describe("planner: signed reasoning in history", () => {
  const anthropic = modelInfo({ providerID: "anthro", modelID: "claude", npm: "@ai-sdk/anthropic" });
  const compat = modelInfo({ providerID: "mock", modelID: "m" });
  const req = (model: ModelInfo): BackendRequest => ({
    app: "a",
    model,
    request: neutralRequest({
      model: `${model.providerID}/${model.modelID}`,
      messages: [
        { role: "user", content: [{ type: "text", text: "Hi" }] },
        {
          role: "assistant",
          content: [{ type: "text", text: "Hello" }],
          toolCalls: [],
          reasoning: [
            { text: "Greet.", signature: "SIG" },
            { text: "", redactedData: "OPAQUE" },
          ],
        },
        { role: "user", content: [{ type: "text", text: "Again" }] },
      ],
    }),
  });
  const ctx = { now: 1_700_000_000_000, idPrefix: "t" };

  test("Anthropic provider: reasoning parts with provider metadata, before the text, on a message of the target model", () => {
    const plan = planBridgeRequest(req(anthropic), ctx);
    const assistant = plan.spec.messages.find((m) => m.info.role === "assistant");
    assert.ok(assistant);
    assert.equal(assistant.info.providerID, "anthro");
    assert.equal(assistant.info.modelID, "claude");
    assert.deepEqual(
      assistant.parts.map((p) => [p.type, p.text, p.metadata]),
      [
        ["reasoning", "Greet.", { anthropic: { signature: "SIG" } }],
        ["reasoning", "", { anthropic: { redactedData: "OPAQUE" } }],
        ["text", "Hello", undefined],
      ],
    );
    assert.ok(!plan.warnings.some((w) => /thinking/.test(formatWarning(w))));
  });

  test("other providers: not sent, warned", () => {
    const plan = planBridgeRequest(req(compat), ctx);
    const assistant = plan.spec.messages.find((m) => m.info.role === "assistant");
    assert.deepEqual(
      assistant?.parts.map((p) => p.type),
      ["text"],
    );
    assert.ok(
      plan.warnings.some((w) => /signed thinking blocks in history dropped/.test(formatWarning(w))),
      plan.warnings.map(formatWarning).join("; "),
    );
  });
});
