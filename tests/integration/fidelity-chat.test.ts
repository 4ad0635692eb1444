// Fidelity of chat completions (issue 3): for each conversation the body the mock upstream recorded is compared field
// by field with the client's request, allowing only the documented differences (tests/compat/fidelity.ts). Also: client
// tools are never executed, and concurrent requests across tool sets never see each other's data.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";
import { exchange } from "../compat/exchange";
import { assembleToolCalls, chatStream, expectStatus, streamedText, upstreamBody } from "../compat/expect";
import { DOCUMENTED_DIFFERENCES, diffFields, expectedUpstreamBody } from "../compat/fidelity";
import { clock, conversations, fn, search, weather } from "../compat/fidelity-conversations";

type Json = Record<string, unknown>;

let fx: PatchbayFixture;
let key: string;
let origin: string;
const table: Array<{ name: string; applied: string[] }> = [];

before(async () => {
  fx = await useSharedPatchbay();
  key = await fx.createKey("fidelity");
  await fx.admin.updateApp({ params: { name: "fidelity" }, body: { limits: { concurrency: 16 } } });
  origin = fx.apiBase.replace(/\/v1$/, "");
});
after(async () => {
  if (table.length) {
    const legend = DOCUMENTED_DIFFERENCES.map((d) => d.id);
    process.stdout.write(
      "\n# fidelity table (conversation → documented differences besides model-id/always-streamed)\n" +
        table
          .map(
            (r) =>
              `#   ${r.name}: ${r.applied.filter((a) => a !== "model-id" && a !== "always-streamed").join(", ") || "exact"}`,
          )
          .join("\n") +
        `\n#   (differences known: ${legend.join(", ")})\n`,
    );
  }
  await releaseSharedPatchbay(fx);
});

/** Sends a chat request and returns what the client got, parsed for either mode. */
async function send(body: Json) {
  const res = await exchange(origin, {
    method: "POST",
    path: "/v1/chat/completions",
    headers: { authorization: `Bearer ${key}` },
    body,
  });
  if (body.stream === true) {
    const chunks = chatStream(res);
    return { res, text: streamedText(chunks), toolCalls: assembleToolCalls(chunks) };
  }
  expectStatus(res, 200);
  const msg = res.json<{
    choices: Array<{
      message: {
        content: string | null;
        tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
      };
    }>;
  }>().choices[0]!.message;
  return {
    res,
    text: msg.content ?? "",
    toolCalls: (msg.tool_calls ?? []).map((c) => ({
      id: c.id,
      name: c.function.name,
      arguments: c.function.arguments,
    })),
  };
}

describe("fidelity: the upstream sees exactly the client's conversation (documented differences only)", () => {
  test("covers at least 15 conversations", () => assert.ok(conversations.length >= 15));
  for (const conv of conversations) {
    test(conv.name, async () => {
      const body = { model: "mock/mock-model", ...conv.body };
      fx.mock.reset();
      fx.mock.script(...(conv.script ?? [{ text: "OK." }]));
      const got = await send(body);
      const recorded = upstreamBody(fx.mock.chatRequests());
      const expected = expectedUpstreamBody(body);
      const diff = diffFields(recorded, expected.body);
      assert.deepEqual(diff, [], `undocumented differences for "${conv.name}":\n${diff.join("\n")}`);
      table.push({ name: conv.name, applied: expected.applied });
      conv.check?.(got);
    });
  }
});

describe("client tools are never executed", () => {
  test("a `bash` tool call that would write a file leaves no file and makes exactly one upstream call", async () => {
    const marker = path.join(os.tmpdir(), `x-${crypto.randomBytes(6).toString("hex")}`);
    const bash = fn("bash", { command: { type: "string" } }, { description: "Run a shell command" });
    fx.mock.reset();
    fx.mock.script(
      { toolCalls: [{ id: "call_sh", name: "bash", arguments: { command: `touch ${marker}` } }] },
      { text: "a second call must not happen" },
    );
    const got = await send({
      model: "mock/mock-model",
      messages: [{ role: "user", content: `Create ${marker}` }],
      tools: [bash],
      tool_choice: "required",
    });
    assert.deepEqual(got.toolCalls, [
      { id: "call_sh", name: "bash", arguments: JSON.stringify({ command: `touch ${marker}` }) },
    ]);
    assert.equal(got.res.json<{ choices: Array<{ finish_reason: string }> }>().choices[0]!.finish_reason, "tool_calls");
    await new Promise((r) => setTimeout(r, 1500)); // time for a (forbidden) execution or second step to show up
    assert.equal(fs.existsSync(marker), false, "the tool was not executed");
    assert.equal(fx.mock.chatRequests().length, 1, "exactly one upstream call");
  });
});

describe("concurrency", () => {
  test("8 simultaneous requests across 3 tool sets each see only their own system, messages and tools", async () => {
    const toolSets = [[weather], [clock, search], [fn("lookup_order", { id: { type: "string" } })]];
    fx.mock.reset();
    // The mock answers with the marker it finds in the request, so each client also checks it got its own answer.
    fx.mock.setResponder((req) => {
      const m = /MARK-[0-9a-f]{8}/.exec(req.rawBody);
      return { text: `answer for ${m?.[0] ?? "nobody"}`, paceMs: 30, chunks: 3 };
    });
    const requests = Array.from({ length: 8 }, (_, i) => {
      const mark = `MARK-${crypto.randomBytes(4).toString("hex")}`;
      return {
        mark,
        body: {
          model: "mock/mock-model",
          messages: [
            { role: "system", content: `System for ${mark}` },
            { role: "user", content: `Question ${i} from ${mark}` },
          ],
          tools: toolSets[i % 3],
          stream: i % 2 === 0,
        },
      };
    });
    const results = await Promise.all(requests.map((r) => send(r.body)));
    results.forEach((got, i) =>
      assert.equal(got.text, `answer for ${requests[i]!.mark}`, `request ${i} got its own answer`),
    );
    const recorded = fx.mock.chatRequests();
    assert.equal(recorded.length, 8, "one upstream call per request");
    for (const r of requests) {
      const mine = recorded.filter((u) => u.rawBody.includes(r.mark));
      assert.equal(mine.length, 1, `exactly one upstream body mentions ${r.mark}`);
      const diff = diffFields(mine[0]!.body, expectedUpstreamBody(r.body).body);
      assert.deepEqual(diff, [], `request ${r.mark}: ${diff.join("\n")}`);
    }
  });
});
