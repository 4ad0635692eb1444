// decodeResponsesRequest for what agents such as Codex send: namespace, custom and hosted tools, the items they replay
// (ids, statuses, reasoning with encrypted content, namespaced and custom calls and their outputs), and the recorded
// `codex exec` request (@openai/codex 0.171.0) replayed as a golden file.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { PatchbayError } from "../../../../server/core/errors";
import { formatWarning } from "../../../../server/core/warnings";
import { decodeResponsesRequest } from "../../../../server/wires/openai-responses/decode";
import { flattenToolName } from "../../../../server/wires/openai-responses/tools";
import { assert400 } from "./decode-helpers";
import { matchGolden } from "./helpers";

const userItem = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const decode = (extra: Record<string, unknown>) => decodeResponsesRequest({ model: "m/x", input: "Hi", ...extra });

const OBJ = { type: "object", properties: { target: { type: "string" } }, required: ["target"] };
const NAMESPACE = {
  type: "namespace",
  name: "multi_agent_v1",
  description: "Tools for sub-agents.",
  tools: [
    { type: "function", name: "close_agent", description: "Close an agent.", strict: false, parameters: OBJ },
    { type: "custom", name: "note", description: "Free text note." },
  ],
};
const APPLY_PATCH = {
  type: "custom",
  name: "apply_patch",
  description: "Apply a patch.",
  format: { type: "grammar", syntax: "lark", definition: 'start: "*** Begin Patch" /(.|\\n)*/' },
};

describe("Responses tools: namespace, custom, hosted", () => {
  test("namespace members become flat functions; the echo and the name map keep the client's shapes", () => {
    const { request, echo, toolNames } = decode({ tools: [NAMESPACE] });
    assert.deepEqual(
      request.tools.map((t) => t.name),
      ["multi_agent_v1__close_agent", "multi_agent_v1__note"],
    );
    assert.deepEqual(request.tools[0], {
      name: "multi_agent_v1__close_agent",
      description: "Close an agent.",
      parameters: OBJ,
      strict: false,
    });
    assert.deepEqual(toolNames.get("multi_agent_v1__close_agent"), {
      kind: "function",
      name: "close_agent",
      namespace: "multi_agent_v1",
    });
    assert.deepEqual(toolNames.get("multi_agent_v1__note"), {
      kind: "custom",
      name: "note",
      namespace: "multi_agent_v1",
    });
    assert.equal(echo.tools[0]?.type, "namespace");
    assert.deepEqual(echo.tools[0]?.type === "namespace" && echo.tools[0].tools.map((t) => `${t.type}:${t.name}`), [
      "function:close_agent",
      "custom:note",
    ]);
    assert.deepEqual(request.warnings, []);
  });

  test("flat names are provider-safe (<= 64 chars, [A-Za-z0-9_-]) and deterministic", () => {
    const long = flattenToolName("mcp__a_really_long_server_name_that_goes_on", "and_a_long_tool_name_as_well_x");
    assert.ok(long.length <= 64, long);
    assert.match(long, /^[A-Za-z0-9_-]+$/);
    assert.equal(
      long,
      flattenToolName("mcp__a_really_long_server_name_that_goes_on", "and_a_long_tool_name_as_well_x"),
    );
    const dotted = flattenToolName("srv.v1", "get:thing");
    assert.match(dotted, /^srv_v1__get_thing_[0-9a-f]{8}$/);
    assert.notEqual(flattenToolName("a", "b_c"), flattenToolName("a_", "_c"), "different pairs stay apart");
    assert.equal(flattenToolName(undefined, "plain.name"), "plain.name", "top-level names are left alone");
  });

  test("custom tools: one string argument `input`; a grammar is described and named in the warnings", () => {
    const { request, echo, toolNames } = decode({ tools: [APPLY_PATCH, { type: "custom", name: "shout" }] });
    const [patch, shout] = request.tools;
    assert.equal(patch?.name, "apply_patch");
    assert.equal(patch?.description, "Apply a patch.");
    assert.deepEqual(patch?.parameters.required, ["input"]);
    assert.equal(patch?.parameters.additionalProperties, false);
    const input = (patch?.parameters.properties as Record<string, { type: string; description: string }>).input;
    assert.equal(input?.type, "string");
    assert.match(input?.description ?? "", /lark grammar:\nstart: "\*\*\* Begin Patch"/);
    assert.equal(shout?.description, undefined);
    assert.deepEqual(toolNames.get("apply_patch"), { kind: "custom", name: "apply_patch" });
    assert.deepEqual(echo.tools[1], { type: "custom", name: "shout", format: { type: "text" } });
    assert.equal(request.warnings.length, 1);
    assert.match(formatWarning(request.warnings[0]!), /custom tool 'apply_patch': its lark grammar is not enforced/);
  });

  test("offered hosted tools are dropped, each named (type and index) in one warning; the rest is served", () => {
    const hosted = ["web_search", "file_search", "code_interpreter", "image_generation", "tool_search", "local_shell"];
    const { request, echo } = decode({
      tools: [{ type: "function", name: "f", parameters: OBJ }, ...hosted.map((type) => ({ type })), NAMESPACE],
    });
    assert.deepEqual(
      request.tools.map((t) => t.name),
      ["f", "multi_agent_v1__close_agent", "multi_agent_v1__note"],
    );
    // The response echoes the tools Patchbay offered: the client's own, and the web search it runs.
    assert.deepEqual(
      echo.tools.map((t) => t.type),
      ["function", "web_search", "namespace"],
    );
    // web_search is run by Patchbay (server/server-tools/), not dropped.
    assert.deepEqual(request.serverTools, [{ kind: "web_search", name: "web_search" }]);
    const warning = request.warnings.map(formatWarning).find((w) => w.startsWith("hosted tools"));
    assert.equal(
      warning,
      "hosted tools are not available through Patchbay and were not offered to the model: file_search (tools[2]), code_interpreter (tools[3]), image_generation (tools[4]), tool_search (tools[5]), local_shell (tools[6])",
    );
  });

  test("web_search filters of the wrong shape → 400 naming the field (never a search without the asked-for restriction)", () => {
    const ws = (extra: Record<string, unknown>) =>
      decode({
        tools: [
          { type: "function", name: "f", parameters: OBJ },
          { type: "web_search", ...extra },
        ],
      });
    assert400(() => ws({ filters: "example.com" }), { param: "tools[1].filters" });
    for (const allowed of ["example.com", [1], ["example.com", ""], { a: 1 }])
      assert400(() => ws({ filters: { allowed_domains: allowed } }), {
        param: "tools[1].filters.allowed_domains",
        message: /expected an array of domain names/,
      });
    assert.deepEqual(ws({ filters: { allowed_domains: ["example.com"] } }).request.serverTools?.[0]?.allowedDomains, [
      "example.com",
    ]);
    assert.equal(ws({ filters: null }).request.serverTools?.[0]?.allowedDomains, undefined);
    assert.equal(ws({ filters: { allowed_domains: null } }).request.serverTools?.[0]?.allowedDomains, undefined);
    // A second web search tool (with filters of its own) is refused, not silently ignored.
    assert400(
      () =>
        decode({
          tools: [
            { type: "web_search" },
            { type: "web_search_preview", filters: { allowed_domains: ["only.example"] } },
          ],
        }),
      { param: "tools[1]", message: /only one web search tool per request \(tools\[0\] is one already\)/ },
    );
  });

  test("tool_choice 'required' with only hosted tools → 400 saying the hosted tools are not available", () => {
    assert400(() => decode({ tools: [{ type: "file_search" }], tool_choice: "required" }), {
      param: "tool_choice",
      message: /hosted tools are not available through Patchbay: file_search \(tools\[0\]\)/,
    });
    assert.equal(decode({ tools: [{ type: "web_search" }], tool_choice: "required" }).request.toolChoice, "required");
  });

  test("tool_choice names a custom tool or a top-level function; namespace members cannot be forced by name", () => {
    const custom = decode({ tools: [APPLY_PATCH], tool_choice: { type: "custom", name: "apply_patch" } });
    assert.deepEqual(custom.request.toolChoice, { type: "function", name: "apply_patch" });
    assert.deepEqual(custom.echo.tool_choice, { type: "custom", name: "apply_patch" });
    assert400(() => decode({ tools: [APPLY_PATCH], tool_choice: { type: "function", name: "apply_patch" } }), {
      param: "tool_choice",
      message: /function 'apply_patch' is not in 'tools'/,
    });
    assert400(() => decode({ tools: [NAMESPACE], tool_choice: { type: "function", name: "close_agent" } }), {
      param: "tool_choice",
    });
  });

  test("bad namespace and custom tools are refused naming the nested field", () => {
    assert400(() => decode({ tools: [{ ...NAMESPACE, tools: [] }] }), { param: "tools[0].tools" });
    assert400(() => decode({ tools: [{ ...NAMESPACE, tools: [{ type: "web_search" }] }] }), {
      param: "tools[0].tools[0].type",
      code: "unsupported_value",
    });
    assert400(() => decode({ tools: [{ ...NAMESPACE, tools: [{ type: "function", name: "bad name" }] }] }), {
      param: "tools[0].tools[0].name",
    });
    assert400(
      () => decode({ tools: [{ ...APPLY_PATCH, format: { type: "grammar", syntax: "ebnf", definition: "" } }] }),
      {
        param: "tools[0].format.syntax",
      },
    );
    assert400(
      () => decode({ tools: [{ type: "function", name: "multi_agent_v1__close_agent", parameters: OBJ }, NAMESPACE] }),
      { param: "tools[1].tools[0].name", message: /Duplicate/ },
    );
  });
});

describe("Responses input items an agent replays", () => {
  test("ids, statuses, reasoning (with encrypted content), namespaced and custom calls and their outputs", () => {
    const { request } = decode({
      tools: [NAMESPACE, APPLY_PATCH],
      include: ["reasoning.encrypted_content"],
      store: false,
      prompt_cache_key: "thread-1",
      client_metadata: { session_id: "s1", turn_id: "t1" },
      reasoning: { summary: "auto", effort: "medium" },
      input: [
        { type: "message", id: "msg_d1", role: "developer", content: [{ type: "input_text", text: "Be careful." }] },
        { type: "message", id: "msg_u1", role: "user", content: [{ type: "input_text", text: "Fix it." }] },
        {
          type: "reasoning",
          id: "rs_1",
          summary: [{ type: "summary_text", text: "thinking" }],
          encrypted_content: "gAAAA",
        },
        { type: "reasoning", id: "rs_2", summary: [], content: null, encrypted_content: null },
        {
          type: "message",
          id: "msg_a1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "On it.", annotations: [], logprobs: [] }],
        },
        {
          type: "function_call",
          id: "fc_1",
          status: "completed",
          call_id: "call_1",
          namespace: "multi_agent_v1",
          name: "close_agent",
          arguments: '{"target":"a1"}',
        },
        {
          type: "custom_tool_call",
          id: "ctc_1",
          status: "completed",
          call_id: "call_2",
          name: "apply_patch",
          input: "*** Begin Patch\n*** End Patch",
        },
        { type: "function_call_output", id: "fco_1", call_id: "call_1", output: "closed" },
        {
          type: "custom_tool_call_output",
          id: "ctco_1",
          call_id: "call_2",
          output: [{ type: "input_text", text: "Done!" }],
        },
      ],
    });
    assert.deepEqual(request.system, ["Be careful."]);
    assert.deepEqual(request.messages, [
      { role: "user", content: [{ type: "text", text: "Fix it." }] },
      {
        role: "assistant",
        content: [{ type: "text", text: "On it." }],
        toolCalls: [
          { id: "call_1", name: "multi_agent_v1__close_agent", arguments: '{"target":"a1"}' },
          { id: "call_2", name: "apply_patch", arguments: '{"input":"*** Begin Patch\\n*** End Patch"}' },
        ],
      },
      { role: "tool", toolCallId: "call_1", content: "closed" },
      { role: "tool", toolCallId: "call_2", content: "Done!" },
    ]);
    assert.equal(request.promptCacheKey, "thread-1");
    assert.equal(request.generation.reasoningEffort, "medium");
    assert.ok(request.warnings.map(formatWarning).includes("reasoning.encrypted_content not available"));
  });

  test("a custom_tool_call_output must answer an earlier call; unknown item types are refused by name", () => {
    assert400(
      () => decode({ input: [userItem("a"), { type: "custom_tool_call_output", call_id: "nope", output: "x" }] }),
      { param: "input[1].call_id", message: /'nope'.*custom_tool_call/ },
    );
    assert400(() => decode({ input: [userItem("a"), { type: "local_shell_call", call_id: "c" }] }), {
      param: "input[1].type",
      code: "unsupported_value",
      message: /'local_shell_call'/,
    });
    assert400(() => decode({ input: [userItem("a"), { type: "custom_tool_call", call_id: "c", name: "x" }] }), {
      param: "input[1].input",
    });
  });
});

describe("the recorded Codex request (codex exec, @openai/codex 0.171.0)", () => {
  const body = JSON.parse(
    readFileSync(new URL("../../../fixtures/codex/exec-first-request.json", import.meta.url), "utf8"),
  ) as Record<string, unknown>;

  test("decodes without error into the golden neutral request", () => {
    const { request, echo, toolNames } = decodeResponsesRequest(body);
    assert.ok(request.tools.some((t) => t.name === "exec_command"));
    assert.ok(request.tools.some((t) => t.name === "multi_agent_v1__close_agent"));
    // Codex offers web_search on every request: Patchbay runs it (server/server-tools/), it is not dropped.
    assert.deepEqual(
      request.serverTools?.map((t) => t.kind),
      ["web_search"],
    );
    matchGolden("codex-exec-first-request.decoded", {
      request,
      echo,
      toolNames: [...toolNames].map(([flat, wire]) => ({ flat, ...wire })),
    });
  });
});

test("the web search tool is echoed with what Patchbay read only; a deep tool object is a 400 naming it", () => {
  const { echo } = decodeResponsesRequest({
    model: "m/x",
    input: "hi",
    tools: [
      {
        type: "web_search",
        filters: { allowed_domains: ["example.com"] },
        search_context_size: 12345,
        user_location: "x",
        extra: { huge: "y".repeat(1000) },
      },
    ],
  });
  assert.deepEqual(echo.tools, [{ type: "web_search", filters: { allowed_domains: ["example.com"] } }]);
  let deep: unknown = [];
  for (let i = 0; i < 3000; i++) deep = [deep];
  assert.throws(
    () => decodeResponsesRequest({ model: "m/x", input: "hi", tools: [{ type: "web_search", deep }] }),
    (e: unknown) => e instanceof PatchbayError && e.status === 400 && e.param === "tools[0]",
  );
});
