// planBridgeRequest / promptToolsMap: NeutralRequest → companion spec, tool set, permissions, params and warnings.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import type { BackendRequest, ModelInfo, NeutralRequest } from "../../../../server/core/contract";
import { PatchbayError } from "../../../../server/core/errors";
import { formatWarning, warn } from "../../../../server/core/warnings";
import { neutralRequest } from "../../../harness/neutral-fixtures";
import { planBridgeRequest, type PlanContext } from "../../../../server/opencode/session/plan/bridge-plan";
import { promptToolsMap, toolsetHash } from "../../../../server/opencode/session/plan/tools";
import { modelInfo } from "../../../harness/builders";

const ctx = { now: 1_700_000_000_000, idPrefix: "t" };
const compat = modelInfo({ providerID: "mock", modelID: "m", variants: ["low", "high"] });
const anthropic = modelInfo({
  providerID: "anthropic",
  modelID: "claude",
  npm: "@ai-sdk/anthropic",
  variants: ["high"],
});
const openai = modelInfo({ providerID: "openai", modelID: "gpt-5", npm: "@ai-sdk/openai" });
const weather = {
  name: "get_weather",
  description: "Weather",
  parameters: { type: "object", properties: { city: { type: "string" } } },
};
const time = { name: "get_time", parameters: { type: "object", properties: {} } };

/** A backend request without its model (each test plans it for one). */
type PlanInput = Omit<BackendRequest, "model">;

/** Plans `r` for `model`. */
function planFor(r: PlanInput, model: ModelInfo, c: PlanContext) {
  return planBridgeRequest({ ...r, model }, c);
}

function req(p: Partial<NeutralRequest> = {}, variant?: string): PlanInput {
  return {
    app: "a",
    ...(variant ? { variant } : {}),
    request: neutralRequest({
      model: "mock/m",
      system: ["S1", "S2"],
      messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
      ...p,
    }),
  };
}

describe("planBridgeRequest", () => {
  test("system texts pass as given; a plain request clears OpenCode's defaults and has no warnings", () => {
    const plan = planFor(req(), compat, ctx);
    assert.deepEqual(plan.spec.system, ["S1", "S2"]);
    assert.deepEqual(plan.spec.params, {
      temperature: null,
      topP: null,
      topK: null,
      maxOutputTokens: null,
      options: {},
      dropOptions: [],
    });
    assert.equal(plan.spec.singleStep, true);
    assert.deepEqual(plan.warnings, []);
    assert.equal(plan.triggerText, "Hi");
    assert.equal(plan.format, undefined);
  });

  test("history becomes OpenCode-internal messages: user text/media, assistant text + tool parts with results", () => {
    const plan = planFor(
      req({
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Look" },
              { type: "media", mediaType: "image/png", url: "data:image/png;base64,AAA" },
            ],
          },
          {
            role: "assistant",
            content: [{ type: "text", text: "Calling" }],
            toolCalls: [
              { id: "c1", name: "write", arguments: '{"a":1}' },
              { id: "c2", name: "get_time", arguments: "" },
            ],
          },
          { role: "tool", toolCallId: "c1", content: "done" },
          { role: "user", content: [{ type: "text", text: "Next" }] },
        ],
      }),
      compat,
      ctx,
    );
    const [u1, a1, u2] = plan.spec.messages;
    assert.equal(plan.spec.messages.length, 3);
    assert.deepEqual(u1?.info, {
      id: u1?.info.id,
      role: "user",
      time: { created: ctx.now },
      agent: "bridge",
      model: { providerID: "mock", modelID: "m" },
    });
    assert.deepEqual(
      u1?.parts.map((p) => p.type),
      ["text", "file"],
    );
    assert.deepEqual(u1?.parts[1], {
      id: u1?.parts[1]?.id,
      type: "file",
      mime: "image/png",
      url: "data:image/png;base64,AAA",
      filename: "file",
    });
    assert.equal(a1?.info.parentID, u1?.info.id);
    assert.equal(a1?.info.finish, "tool-calls");
    const [text, t1, t2] = a1!.parts;
    assert.deepEqual(text, { id: text!.id, type: "text", text: "Calling" });
    assert.equal(t1?.tool, "client_write", "clashing name renamed in history too");
    assert.deepEqual((t1?.state as Record<string, unknown>).status, "completed");
    assert.deepEqual((t1?.state as Record<string, unknown>).output, "done");
    assert.deepEqual((t2?.state as Record<string, unknown>).status, "error");
    assert.deepEqual((t2?.state as Record<string, unknown>).input, {});
    assert.equal(u2?.parts[0]?.text, "Next");
    assert.equal(
      new Set(plan.spec.messages.flatMap((m) => [m.info.id, ...m.parts.map((p) => p.id)])).size,
      9,
      "ids are unique",
    );
  });

  test("tools: renamed, sorted, hashed independent of order; every client tool allowed under auto", () => {
    const a = planFor(req({ tools: [weather, time, { name: "task", parameters: {} }] }), compat, ctx);
    assert.deepEqual(
      a.toolset.map((t) => t.name),
      ["client_task", "get_time", "get_weather"],
    );
    assert.deepEqual(
      a.toolNames,
      new Map([
        ["client_task", "task"],
        ["get_time", "get_time"],
        ["get_weather", "get_weather"],
      ]),
    );
    assert.equal(a.toolset[1]?.description, "");
    const b = planFor(req({ tools: [{ name: "task", parameters: {} }, time, weather] }), compat, ctx);
    assert.equal(a.toolsetHash, b.toolsetHash);
    assert.notEqual(a.toolsetHash, toolsetHash([]));
    assert.deepEqual(a.permission, [
      { permission: "client_task", pattern: "*", action: "allow" },
      { permission: "get_time", pattern: "*", action: "allow" },
      { permission: "get_weather", pattern: "*", action: "allow" },
    ]);
  });

  test("two tools mapping to one OpenCode name are a 400", () => {
    assert.throws(
      () =>
        planFor(
          req({
            tools: [
              { name: "edit", parameters: {} },
              { name: "client_edit", parameters: {} },
            ],
          }),
          compat,
          ctx,
        ),
      (e: unknown) => e instanceof PatchbayError && e.param === "tools",
    );
  });

  test("tool_choice: required forces via format and hides StructuredOutput; named/none approximate with warnings", () => {
    const required = planFor(req({ tools: [weather, time], toolChoice: "required" }), compat, ctx);
    assert.deepEqual(required.format, { type: "json_schema", schema: { type: "object", properties: {} } });
    assert.deepEqual(required.permission.at(-1), { permission: "StructuredOutput", pattern: "*", action: "deny" });
    assert.deepEqual(required.warnings, []);

    const named = planFor(
      req({ tools: [weather, time], toolChoice: { type: "function", name: "get_time" } }),
      compat,
      ctx,
    );
    assert.deepEqual(
      named.permission.filter((r) => r.action === "allow").map((r) => r.permission),
      ["get_time"],
    );
    assert.ok(named.format);
    assert.match(named.warnings.map(formatWarning).join(), /approximated/);

    const none = planFor(req({ tools: [weather], toolChoice: "none" }), compat, ctx);
    assert.deepEqual(none.permission, [{ permission: "get_weather", pattern: "*", action: "deny" }]);
    assert.equal(none.format, undefined);
    assert.match(none.warnings.map(formatWarning).join(), /approximated/);
  });

  test("structured output: passthrough for OpenAI-compatible, native format (StructuredOutput allowed) otherwise", () => {
    const schema = { type: "object", properties: { a: { type: "number" } } };
    const rf = { type: "json_schema" as const, name: "ans", schema, strict: true };
    const pass = planFor(req({ responseFormat: rf }), compat, ctx);
    assert.equal(pass.structured, "passthrough");
    assert.deepEqual(pass.spec.params.options.response_format, {
      type: "json_schema",
      json_schema: { name: "ans", schema, strict: true },
    });
    assert.equal(pass.format, undefined);
    const native = planFor(req({ responseFormat: rf }), anthropic, ctx);
    assert.equal(native.structured, "native");
    assert.deepEqual(native.format, { type: "json_schema", schema });
    assert.deepEqual(native.permission, [{ permission: "StructuredOutput", pattern: "*", action: "allow" }]);
    assert.match(native.warnings.map(formatWarning).join(), /structured-output tool/);
    const jsonObject = planFor(req({ responseFormat: { type: "json_object" } }), compat, ctx);
    assert.deepEqual(jsonObject.spec.params.options.response_format, { type: "json_object" });
  });

  test("generation params: verbatim for OpenAI-compatible, dropped with warnings elsewhere; Anthropic keeps a max_tokens", () => {
    const g = {
      temperature: 0.2,
      topP: 0.9,
      maxOutputTokens: 10,
      stop: ["X"],
      seed: 1,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      parallelToolCalls: false,
    };
    const c = planFor(req({ generation: g, tools: [weather] }), compat, ctx);
    assert.deepEqual(c.spec.params, {
      temperature: 0.2,
      topP: 0.9,
      topK: null,
      maxOutputTokens: 10,
      options: { stop: ["X"], seed: 1, presence_penalty: 0.1, frequency_penalty: 0.2, parallel_tool_calls: false },
      dropOptions: [],
    });
    const a = planFor(req({ generation: { stop: ["X"], seed: 1 } }), anthropic, ctx);
    assert.equal("maxOutputTokens" in a.spec.params, false, "OpenCode's default max_tokens stays for Anthropic");
    assert.deepEqual(a.spec.params.options, {});
    assert.equal(a.warnings.length, 2);
    assert.match(formatWarning(a.warnings[0]!), /^stop is not supported .*anthropic/);
    assert.deepEqual(
      a.warnings.map((w) => [w.kind, w.param]),
      [
        ["dropped", "stop"],
        ["dropped", "seed"],
      ],
    );
    // parallel_tool_calls only goes upstream with tools (OpenAI refuses it otherwise).
    const none = planFor(req({ generation: { parallelToolCalls: false } }), compat, ctx);
    assert.equal("parallel_tool_calls" in (none.spec.params.options ?? {}), false);
    const o = planFor(req({ generation: { parallelToolCalls: true }, tools: [weather] }), openai, ctx);
    assert.equal(o.spec.params.options.parallelToolCalls, true);
    assert.deepEqual(o.spec.params.dropOptions, ["textVerbosity", "reasoningSummary", "reasoningEffort"]);
    assert.equal(typeof o.spec.params.options.promptCacheKey, "string");
  });

  test("reasoning_effort: a matching variant, else a provider option, else a warning; alias variant wins", () => {
    assert.equal(planFor(req({ generation: { reasoningEffort: "high" } }), compat, ctx).variant, "high");
    const opt = planFor(req({ generation: { reasoningEffort: "medium" } }), compat, ctx);
    assert.equal(opt.variant, undefined);
    assert.equal(opt.spec.params.options.reasoningEffort, "medium");
    const dropped = planFor(req({ generation: { reasoningEffort: "low" } }), anthropic, ctx);
    assert.match(dropped.warnings.map(formatWarning).join(), /reasoning_effort "low" dropped/);
    const alias = planFor(req({ generation: { reasoningEffort: "low" } }, "high"), compat, ctx);
    assert.equal(alias.variant, "high");
    assert.match(alias.warnings.map(formatWarning).join(), /ignored/);
  });

  test("the plan carries only the bridge's own warnings (the runner already has the decoder's)", () => {
    const fromDecoder = warn.ignored("from_decoder");
    assert.deepEqual(planFor(req({ warnings: [fromDecoder] }), compat, ctx).warnings, []);
    const named = planFor(req({ warnings: [fromDecoder], tools: [weather], toolChoice: "none" }), compat, ctx);
    assert.ok(named.warnings.length > 0 && !named.warnings.some((w) => w.param === "from_decoder"));
  });
});

describe("client-controlled names and values", () => {
  /** `{a:{a:…}}`, `levels` deep, built without recursion. */
  const nested = (levels: number): Record<string, unknown> => {
    let v: Record<string, unknown> = {};
    for (let i = 0; i < levels; i++) v = { a: v };
    return v;
  };
  const isBadRequest = (param: string) => (e: unknown) =>
    e instanceof PatchbayError && e.status === 400 && e.code === "invalid_request_error" && e.param === param;
  const protoTools = ["constructor", "toString", "__proto__", "hasOwnProperty"].map((name) => ({
    name,
    parameters: { type: "object", properties: {} },
  }));

  test("tools named after Object.prototype keys are accepted and keep their names (no inherited lookups)", () => {
    const plan = planFor(req({ tools: protoTools }), compat, ctx);
    // `__proto__` is renamed like a clashing built-in: OpenCode's own tool map would drop it before the upstream call.
    assert.deepEqual(
      [...plan.toolNames.entries()],
      [
        ["constructor", "constructor"],
        ["toString", "toString"],
        ["client___proto__", "__proto__"],
        ["hasOwnProperty", "hasOwnProperty"],
      ],
    );
    assert.deepEqual(
      plan.permission.map((r) => [r.permission, r.action]),
      [
        ["client___proto__", "allow"],
        ["constructor", "allow"],
        ["hasOwnProperty", "allow"],
        ["toString", "allow"],
      ],
    );
    const map = promptToolsMap(plan, ["bash", "toString"]);
    assert.deepEqual(
      { ...map },
      { bash: false, client___proto__: true, constructor: true, hasOwnProperty: true, toString: true },
    );
    const chosen = planFor(
      req({ tools: protoTools, toolChoice: { type: "function", name: "constructor" } }),
      compat,
      ctx,
    );
    assert.deepEqual(
      chosen.permission.filter((r) => r.action === "allow").map((r) => r.permission),
      ["constructor"],
    );
    const proto = planFor(req({ tools: protoTools, toolChoice: { type: "function", name: "__proto__" } }), compat, ctx);
    assert.deepEqual(
      proto.permission.filter((r) => r.action === "allow").map((r) => r.permission),
      ["client___proto__"],
    );
  });

  // A named tool_choice outside tools (also one called `constructor`) never reaches the planner: the neutral
  // invariants refuse it (tests/unit/core/neutral-invariants.test.ts).
  test("a built-in called like an Object.prototype key is an own key of the prompt's tools map", () => {
    const plain = planFor(req(), compat, ctx);
    assert.deepEqual(JSON.parse(JSON.stringify(promptToolsMap(plain, ["toString", "constructor"]))), {
      toString: false,
      constructor: false,
    });
  });

  test("10,000-level tool schemas are a 400 naming `tools`, not a stack overflow", () => {
    const deep = [{ name: "deep", description: "", parameters: { type: "object", properties: { x: nested(10_000) } } }];
    assert.throws(() => toolsetHash(deep), isBadRequest("tools"));
    assert.throws(() => planFor(req({ tools: deep }), compat, ctx), isBadRequest("tools"));
    const fine = [{ name: "ok", description: "", parameters: nested(200) }];
    assert.match(toolsetHash(fine), /^[0-9a-f]{16}$/);
  });

  test("10,000-level history arguments and response_format schemas are 400s naming the field", () => {
    const deepArgs = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);
    const history = req({
      messages: [
        { role: "user", content: [{ type: "text", text: "Hi" }] },
        { role: "assistant", content: [], toolCalls: [{ id: "c1", name: "get_weather", arguments: deepArgs }] },
        { role: "tool", toolCallId: "c1", content: "ok" },
      ],
    });
    assert.throws(() => planFor(history, compat, ctx), isBadRequest("messages"));
    const rf = { type: "json_schema" as const, name: "deep", schema: nested(10_000) };
    assert.throws(() => planFor(req({ responseFormat: rf }), compat, ctx), isBadRequest("response_format"));
    assert.throws(() => planFor(req({ responseFormat: rf }), anthropic, ctx), isBadRequest("response_format"));
  });
});

describe("promptToolsMap", () => {
  test("built-ins off, client tools per plan, a client tool overriding a built-in stays on, and never a wildcard", () => {
    const plan = planFor(
      req({ tools: [{ name: "bash", parameters: {} }, weather], toolChoice: { type: "function", name: "bash" } }),
      compat,
      ctx,
    );
    const map = promptToolsMap(plan, ["bash", "read", "edit", "StructuredOutput"]);
    assert.deepEqual({ ...map }, { read: false, edit: false, StructuredOutput: false, bash: true, get_weather: false });
    assert.equal("*" in map, false);
    assert.equal("patchbay_client_tool" in map, false, "the client-tool permission must stay `ask`");
  });
});
