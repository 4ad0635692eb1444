// decodeMessagesRequest: a recorded Claude Code request (tests/fixtures/anthropic/claude-code-request.json, captured
// from `claude -p` 2.1.332) decoded to a golden neutral request, and the mapping rules one by one.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { NeutralRequest } from "../../../../server/core/contract";
import type { PatchbayError } from "../../../../server/core/errors";
import { formatWarning } from "../../../../server/core/warnings";
import { toAnthropicErrorBody } from "../../../../server/wires/anthropic-messages/error-envelope";
import {
  decodeCountTokensRequest,
  decodeMessagesRequest,
  effortOfBudget,
} from "../../../../server/wires/anthropic-messages/decode";
import {
  TOOL_ERROR_PREFIX,
  TOOL_RESULT_IMAGE_PLACEHOLDER,
} from "../../../../server/wires/anthropic-messages/decode-messages";
import { matchGolden } from "../openai/helpers";

const RECORDED = JSON.parse(
  readFileSync(new URL("../../../fixtures/anthropic/claude-code-request.json", import.meta.url), "utf8"),
) as { body: Record<string, unknown> };
const PNG = readFileSync(new URL("../../../fixtures/red16.b64", import.meta.url), "utf8").trim();

const base = { model: "m", max_tokens: 100 };
const decode = (extra: Record<string, unknown>): NeutralRequest => decodeMessagesRequest({ ...base, ...extra });
const user = (content: unknown) => ({ role: "user", content });

/** Asserts a 400 whose param (or message) names `field`. */
function assert400(body: unknown, field: string): void {
  assert.throws(
    () => decodeMessagesRequest(body),
    (e: { status?: number; param?: string | null; message?: string }) => {
      assert.equal(e.status, 400, e.message);
      assert.ok(e.param === field || String(e.message).includes(field), `${field}: ${e.param} ${e.message}`);
      return true;
    },
  );
}

describe("Claude Code request (recorded)", () => {
  test("decodes to the golden neutral request", () => {
    const neutral = decodeMessagesRequest(RECORDED.body);
    matchGolden("anthropic-claude-code-request", neutral);
  });

  test("what matters about it", () => {
    const n = decodeMessagesRequest(RECORDED.body);
    assert.equal(n.stream, true);
    assert.equal(n.generation.maxOutputTokens, 32000);
    assert.equal(n.generation.reasoningEffort, "high", "output_config.effort");
    // The mid-conversation role:"system" environment block joins the system texts.
    assert.ok(n.system.some((s) => s.includes("# Environment")));
    assert.deepEqual(
      n.messages.map((m) => m.role),
      ["user"],
    );
    assert.ok(
      n.tools.some((t) => t.name === "DeferredToolPlaceholder"),
      "defer_loading tools are offered directly",
    );
    assert.match(n.warnings.map(formatWarning).join(";"), /defer_loading ignored/);
    assert.ok(n.tools.some((t) => t.name === "Bash"));
    const w = n.warnings.map(formatWarning).join("; ");
    for (const field of ["metadata", "context_management"]) assert.match(w, new RegExp(field));
    assert.match(w, /role 'system' messages appended/);
  });
});

describe("decode rules", () => {
  test("system: string or text blocks (cache_control ignored)", () => {
    assert.deepEqual(decode({ system: "S", messages: [user("hi")] }).system, ["S"]);
    assert.deepEqual(
      decode({
        system: [
          { type: "text", text: "A", cache_control: { type: "ephemeral" } },
          { type: "text", text: "B" },
        ],
        messages: [user("hi")],
      }).system,
      ["A", "B"],
    );
  });

  test("images: base64 → data URL, url → http(s) media part; PDF document → media part", () => {
    const n = decode({
      messages: [
        user([
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
          {
            type: "document",
            source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" },
            title: "a.pdf",
          },
        ]),
      ],
    });
    const parts = n.messages[0]?.role === "user" ? n.messages[0].content : [];
    assert.deepEqual(
      parts.map((p) => (p.type === "media" ? [p.mediaType, p.url.slice(0, 30)] : p.text)),
      [
        ["image/png", `data:image/png;base64,${PNG.slice(0, 8)}`],
        ["image/png", "https://example.com/a.png"],
        ["application/pdf", "data:application/pdf;base64,JV"],
      ],
    );
  });

  test("tool_use → tool call; tool_result → tool message (is_error prefixed), its images follow as a user message", () => {
    const n = decode({
      messages: [
        user("go"),
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "sig" },
            { type: "thinking", thinking: "unsigned" },
            { type: "redacted_thinking", data: "opaque" },
            { type: "text", text: "Calling." },
            { type: "tool_use", id: "toolu_1", name: "shot", input: { x: 1 } },
            { type: "tool_use", id: "toolu_2", name: "run", input: {} },
          ],
        },
        user([
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            content: [
              { type: "text", text: "here" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
            ],
          },
          { type: "tool_result", tool_use_id: "toolu_2", content: "failed", is_error: true },
          { type: "text", text: "and?" },
        ]),
      ],
    });
    assert.deepEqual(
      n.messages.map((m) => m.role),
      ["user", "assistant", "tool", "tool", "user"],
    );
    const a = n.messages[1];
    assert.ok(a?.role === "assistant");
    assert.deepEqual(a.content, [{ type: "text", text: "Calling." }]);
    // Signed thinking and redacted thinking are kept for an Anthropic upstream; unsigned thinking is dropped.
    assert.deepEqual(a.reasoning, [
      { text: "hmm", signature: "sig" },
      { text: "", redactedData: "opaque" },
    ]);
    assert.deepEqual(a.toolCalls, [
      { id: "toolu_1", name: "shot", arguments: '{"x":1}' },
      { id: "toolu_2", name: "run", arguments: "{}" },
    ]);
    assert.deepEqual(n.messages[2], {
      role: "tool",
      toolCallId: "toolu_1",
      content: `here\n${TOOL_RESULT_IMAGE_PLACEHOLDER}`,
    });
    assert.deepEqual(n.messages[3], { role: "tool", toolCallId: "toolu_2", content: `${TOOL_ERROR_PREFIX}failed` });
    const last = n.messages[4];
    assert.ok(last?.role === "user");
    assert.deepEqual(
      last.content.map((p) => p.type),
      ["text", "media"],
    );
    assert.match(
      n.warnings.map(formatWarning).join(";"),
      /thinking blocks without a signature in assistant history dropped/,
    );
    assert.match(n.warnings.map(formatWarning).join(";"), /images inside tool_result/);
  });

  test("tool_reference blocks (tool search results) become text naming the tool", () => {
    const n = decode({
      messages: [
        user("find"),
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_s", name: "ToolSearch", input: {} }] },
        user([
          {
            type: "tool_result",
            tool_use_id: "toolu_s",
            content: [{ type: "tool_reference", tool_name: "WebFetch" }],
          },
        ]),
      ],
    });
    assert.deepEqual(n.messages[2], { role: "tool", toolCallId: "toolu_s", content: "[tool available: WebFetch]" });
  });

  test("a tool_result for an unknown tool_use id → 400 naming it", () => {
    assert400(
      { ...base, messages: [user([{ type: "tool_result", tool_use_id: "nope" }])] },
      "messages[0].content[0].tool_use_id",
    );
  });

  test("a user message of unsupported blocks only → 400 naming their types, not 'empty'", () => {
    assert.throws(
      () => decodeMessagesRequest({ ...base, messages: [user([{ type: "weird_block" }, { type: "weird_block" }])] }),
      (e: { status?: number; param?: string; message?: string }) =>
        e.status === 400 && e.param === "messages[0].content" && /'weird_block'\)/.test(String(e.message)),
    );
  });

  test("a tool_use id used twice (in one message or across messages) → 400 naming the second", () => {
    const call = (id: string) => ({ type: "tool_use", id, name: "t", input: {} });
    const answer = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "ok" });
    assert400(
      { ...base, messages: [user("hi"), { role: "assistant", content: [call("toolu_1"), call("toolu_1")] }] },
      "messages[1].content[1].id",
    );
    assert400(
      {
        ...base,
        messages: [
          user("hi"),
          { role: "assistant", content: [call("toolu_1")] },
          user([answer("toolu_1")]),
          { role: "assistant", content: [call("toolu_1")] },
        ],
      },
      "messages[3].content[0].id",
    );
  });

  test("tools: custom and deferred kept; web search/fetch run by Patchbay; other server tools dropped; forcing one → 400", () => {
    const tools = [
      { name: "mine", input_schema: { type: "object" } },
      { type: "custom", name: "mine2", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } },
      {
        type: "web_search_20250305",
        name: "web_search",
        max_uses: 2,
        allowed_domains: ["example.com"],
        user_location: { type: "approximate", city: "Oslo" },
      },
      { type: "bash_20250124", name: "bash" },
      { name: "later", input_schema: { type: "object" }, defer_loading: true },
      { type: "web_fetch_20250910", name: "web_fetch", max_content_tokens: 1000, blocked_domains: ["bad.test"] },
    ];
    const n = decode({ tools, messages: [user("x")] });
    assert.deepEqual(
      n.tools.map((t) => t.name),
      ["mine", "mine2", "later"],
    );
    assert.deepEqual(n.serverTools, [
      {
        kind: "web_search",
        name: "web_search",
        maxUses: 2,
        allowedDomains: ["example.com"],
        userLocation: { city: "Oslo" },
      },
      {
        kind: "web_fetch",
        name: "web_fetch",
        blockedDomains: ["bad.test"],
        maxContentChars: 4000,
        // The user's "x" names no URL: nothing is fetchable yet.
        fetchScope: { urls: [], serverToolResults: { type: "all" } },
      },
    ]);
    assert.doesNotMatch(n.warnings.map(formatWarning).join(";"), /web_search/);
    assert.match(n.warnings.map(formatWarning).join(";"), /bash/);
    assert.equal(
      decode({ tools, tool_choice: { type: "tool", name: "web_search" }, messages: [user("x")] }).toolChoice,
      "required",
    );
    assert.throws(
      () => decode({ tools, tool_choice: { type: "tool", name: "bash" }, messages: [user("x")] }),
      (e: { status: number; message: string }) => e.status === 400 && /bash/.test(e.message),
    );
    assert.throws(
      () => decode({ tools: tools.slice(3, 4), tool_choice: { type: "any" }, messages: [user("x")] }),
      (e: { status: number; message: string }) => e.status === 400 && /bash/.test(e.message),
    );
    assert.equal(
      decode({ tools: tools.slice(2, 4), tool_choice: { type: "any" }, messages: [user("x")] }).toolChoice,
      "required",
    );
    assert400(
      { ...base, tools: [{ ...tools[2], blocked_domains: ["x.test"] }], messages: [user("x")] },
      "tools[0].blocked_domains",
    );
    // The envelope reads as one sentence (the field is named once, not prefixed again).
    try {
      decodeMessagesRequest({ ...base, tools: [{ ...tools[2], blocked_domains: ["x.test"] }], messages: [user("x")] });
      assert.fail("expected a 400");
    } catch (err) {
      assert.equal(
        toAnthropicErrorBody(err as PatchbayError).error.message,
        "Invalid 'tools[0].blocked_domains': 'allowed_domains' and 'blocked_domains' cannot be used together; keep one of them.",
      );
    }
    assert400({ ...base, tools: [{ ...tools[2], max_uses: 0 }], messages: [user("x")] }, "tools[0].max_uses");
    // Names are unique across client and server tools: a second web_search (with other filters) is refused, not dropped.
    assert400({ ...base, tools: [tools[2], { ...tools[2], max_uses: 3 }], messages: [user("x")] }, "tools[1].name");
    // Entries no host can match would make a block list block nothing: refused, naming the entry.
    const fetchTool = tools[5] as Record<string, unknown>;
    for (const bad of ["*.evil.test", " evil.test", "ex*.test", "evil.test:8080"])
      assert400(
        { ...base, tools: [{ ...fetchTool, blocked_domains: ["ok.test", bad] }], messages: [user("x")] },
        "tools[0].blocked_domains[1]",
      );
    const ok = ["evil.test", "evil.test/path/*", "https://evil.test", "bücher.test."];
    assert.deepEqual(
      decode({ ...base, tools: [{ ...fetchTool, blocked_domains: ok }], messages: [user("x")] }).serverTools?.[0]
        ?.blockedDomains,
      ok,
    );
  });

  test("tool_choice and disable_parallel_tool_use", () => {
    const tools = [{ name: "t", input_schema: { type: "object" } }];
    const m = [user("x")];
    assert.equal(decode({ tools, messages: m }).toolChoice, "auto");
    assert.equal(decode({ tools, tool_choice: { type: "any" }, messages: m }).toolChoice, "required");
    assert.equal(decode({ tools, tool_choice: { type: "none" }, messages: m }).toolChoice, "none");
    assert.deepEqual(decode({ tools, tool_choice: { type: "tool", name: "t" }, messages: m }).toolChoice, {
      type: "function",
      name: "t",
    });
    const p = decode({ tools, tool_choice: { type: "auto", disable_parallel_tool_use: true }, messages: m });
    assert.equal(p.generation.parallelToolCalls, false);
    assert400({ ...base, tools, tool_choice: { type: "tool", name: "zz" }, messages: m }, "tool_choice.name");
  });

  test("generation: max_tokens, temperature, top_p, top_k, stop_sequences; thinking budget → effort", () => {
    const n = decode({
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ["END", ""],
      thinking: { type: "enabled", budget_tokens: 10000 },
      messages: [user("x")],
    });
    assert.deepEqual(n.generation, {
      maxOutputTokens: 100,
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
      stop: ["END"],
      reasoningEffort: "medium",
    });
    assert.equal(effortOfBudget(1024), "low");
    assert.equal(effortOfBudget(32000), "high");
    assert.equal(
      decode({ thinking: { type: "adaptive" }, messages: [user("x")] }).generation.reasoningEffort,
      undefined,
    );
  });

  test("fields Claude Code sends are tolerated and named in the warnings", () => {
    const n = decode({
      metadata: { user_id: "u" },
      service_tier: "auto",
      container: "c",
      mcp_servers: [],
      context_management: { edits: [] },
      some_future_field: 1,
      messages: [user("x")],
    });
    const w = n.warnings.map(formatWarning).join(";");
    for (const f of ["metadata", "service_tier", "container", "mcp_servers", "context_management", "some_future_field"])
      assert.match(w, new RegExp(f));
  });

  test("validation errors name the field", () => {
    assert400({ model: "m", messages: [user("x")] }, "max_tokens");
    assert400({ max_tokens: 5, messages: [user("x")] }, "model");
    assert400({ ...base, messages: [] }, "messages");
    assert400({ ...base, messages: [{ role: "bot", content: "x" }] }, "messages[0].role");
    assert400({ ...base, temperature: 3, messages: [user("x")] }, "temperature");
    assert400(
      {
        ...base,
        messages: [user([{ type: "image", source: { type: "base64", media_type: "image/png", data: "%%%" } }])],
      },
      "messages[0].content[0].source.data",
    );
    assert400({ ...base, messages: [user([{ type: "text" }])] }, "messages[0].content[0].text");
    assert400({ ...base, messages: [user("")] }, "messages[0].content");
    assert400("nope", "JSON object");
  });

  test("count_tokens: the same decoding without max_tokens", () => {
    const n = decodeCountTokensRequest({ model: "m", messages: [user("hi")] });
    assert.equal(n.messages.length, 1);
  });
});
