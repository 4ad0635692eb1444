// Conversation keys, the request index and the admin view over them (issue 21 §3.1, §3.3, §3.4): which conversation
// a request joins, what the index keeps and forgets, client tool calls shown as returned with their later result.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { NeutralMessage, NeutralRequest } from "../../../server/core/contract";
import { conversationKey } from "../../../server/conversations/conversation-key";
import { RequestIndex } from "../../../server/conversations/request-index";
import { waitFor } from "../../harness/wait-for";
import { createRequestRecorder } from "../../../server/conversations/record-request";
import { markReturnedCalls, withConversations } from "../../../server/history/with-conversations";
import type { AdminHistory } from "../../../server/history";
import type { SessionMessage, SessionSummary } from "../../../shared/admin/history";

const user = (text: string): NeutralMessage => ({ role: "user", content: [{ type: "text", text }] });
const req = (messages: NeutralMessage[], system: string[] = []): Pick<NeutralRequest, "system" | "messages"> => ({
  system,
  messages,
});
const noChain = () => null;

function tmpIndex(): RequestIndex {
  return new RequestIndex({ dir: fs.mkdtempSync(path.join(os.tmpdir(), "pb-conv-")) });
}

describe("conversation keys", () => {
  test("client session headers win: Claude Code, then Codex's session and thread ids", () => {
    const r = req([user("hi")]);
    assert.equal(
      conversationKey({ headers: { "x-claude-code-session-id": "abc" }, body: {}, request: r }, noChain),
      "claude-code:abc",
    );
    assert.equal(conversationKey({ headers: { "session-id": "s1" }, body: {}, request: r }, noChain), "codex:s1");
    assert.equal(conversationKey({ headers: { "thread-id": "t1" }, body: {}, request: r }, noChain), "codex:t1");
  });

  test("a previous_response_id chain joins the conversation of the response it continues", () => {
    const r = req([user("next")]);
    const key = conversationKey({ headers: {}, body: { previous_response_id: "resp_1" }, request: r }, (id) =>
      id === "resp_1" ? "prefix:first" : null,
    );
    assert.equal(key, "prefix:first");
  });

  test("without either, requests that open the same way are one conversation, others are not", () => {
    const a1 = conversationKey({ headers: {}, body: {}, request: req([user("Plan a trip")], ["sys"]) }, noChain);
    const a2 = conversationKey(
      {
        headers: {},
        body: {},
        request: req(
          [
            user("Plan a trip"),
            { role: "assistant", content: [{ type: "text", text: "Where?" }], toolCalls: [] },
            user("Oslo"),
          ],
          ["sys"],
        ),
      },
      noChain,
    );
    const b = conversationKey({ headers: {}, body: {}, request: req([user("Plan a party")], ["sys"]) }, noChain);
    assert.equal(a1, a2);
    assert.notEqual(a1, b);
  });
});

describe("request index", () => {
  test("records survive a new index on the same folder; forget removes them from disk", async () => {
    const idx = tmpIndex();
    const dir = path.dirname(idx.file("a"));
    await idx.add("a", { session: "ses_1", receivedAt: 10, conversation: "c1", conversationTitle: "t" });
    await idx.add("a", {
      session: "ses_2",
      receivedAt: 20,
      conversation: "c1",
      conversationTitle: "t",
      results: { call_1: "x".repeat(20_000) },
    });
    const again = new RequestIndex({ dir });
    const recs = await again.records("a");
    assert.deepEqual([...recs.keys()], ["ses_1", "ses_2"]);
    assert.equal((await again.results("a")).get("call_1")?.length, 8_000, "results are cut to the cap");
    await again.forget("a", ["ses_2"]);
    assert.deepEqual([...(await new RequestIndex({ dir }).records("a")).keys()], ["ses_1"]);
    assert.ok(!fs.readFileSync(idx.file("a"), "utf8").includes("xxxx"), "the forgotten result is gone from disk");
  });

  test("recording does not hold the app's records in memory; a read holds them until they idle out", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-conv-"));
    const idx = new RequestIndex({ dir, cacheIdleMs: 50 });
    await idx.add("a", { session: "ses_1", receivedAt: 1, conversation: "c", conversationTitle: null });
    assert.deepEqual(idx.heldApps(), [], "add read the records into memory");
    assert.deepEqual([...(await idx.records("a")).keys()], ["ses_1"]);
    assert.deepEqual(idx.heldApps(), ["a"]);
    // Held records stay current through later adds, and through another writer's change of the file.
    await idx.add("a", { session: "ses_2", receivedAt: 2, conversation: "c", conversationTitle: null });
    await new RequestIndex({ dir }).add("a", {
      session: "ses_3",
      receivedAt: 3,
      conversation: "c",
      conversationTitle: null,
    });
    await idx.add("a", { session: "ses_4", receivedAt: 4, conversation: "c", conversationTitle: null });
    assert.deepEqual([...(await idx.records("a")).keys()], ["ses_1", "ses_2", "ses_3", "ses_4"]);
    await waitFor("the held records to idle out", () => idx.heldApps().length === 0);
    assert.deepEqual([...(await idx.records("a")).keys()], ["ses_1", "ses_2", "ses_3", "ses_4"]);
  });

  test("a damaged line is skipped, the rest is read", async () => {
    const idx = tmpIndex();
    await idx.add("a", { session: "ses_1", receivedAt: 1, conversation: "c", conversationTitle: null });
    fs.appendFileSync(idx.file("a"), '{"session":"ses_2","rec');
    assert.deepEqual([...(await tmpIndexAt(idx).records("a")).keys()], ["ses_1"]);
  });

  test("the recorder keys a Responses chain to the first response's conversation and keeps carried results", async () => {
    const idx = tmpIndex();
    const record = createRequestRecorder(idx, (l) => assert.fail(l));
    const base = { app: "a", headers: {}, request: { ...fullReq([user("Write a haiku")]) } };
    await record({ ...base, sessionId: "ses_1", receivedAt: 1, body: {}, responseId: "resp_1" });
    await record({
      ...base,
      sessionId: "ses_2",
      receivedAt: 2,
      body: { previous_response_id: "resp_1" },
      request: fullReq([
        user("<system-reminder>r</system-reminder>"),
        { role: "tool", toolCallId: "call_9", content: "sunny" },
      ]),
    });
    const recs = await idx.records("a");
    assert.equal(recs.get("ses_2")?.conversation, recs.get("ses_1")?.conversation);
    assert.equal(recs.get("ses_1")?.conversationTitle, "Write a haiku");
    assert.deepEqual(recs.get("ses_2")?.results, { call_9: "sunny" });
  });
});

function tmpIndexAt(idx: RequestIndex): RequestIndex {
  return new RequestIndex({ dir: path.dirname(idx.file("x")) });
}

function fullReq(messages: NeutralMessage[]): NeutralRequest {
  return {
    model: "m",
    system: [],
    messages,
    tools: [],
    toolChoice: "auto",
    generation: {},
    responseFormat: { type: "text" },
    stream: false,
    includeUsage: false,
    warnings: [],
  } as NeutralRequest;
}

const REJECTED = "Error: The user rejected permission to use this specific tool call.";

function toolMessage(status: "error" | "completed", output: string): SessionMessage {
  return {
    id: "msg_1",
    role: "assistant",
    createdAt: 1,
    completedAt: 2,
    model: null,
    finish: "tool-calls",
    error: null,
    tokens: null,
    parts: [{ type: "tool", callId: "call_1", tool: "lookup", status, input: '{"q":"x"}', output, truncated: false }],
  };
}

describe("admin view", () => {
  test("OpenCode's permission rejection of a client tool call reads as returned, with the later result", () => {
    const [withResult] = markReturnedCalls([toolMessage("error", REJECTED)], new Map([["call_1", "42"]]));
    assert.deepEqual(withResult?.parts[0], {
      type: "tool",
      callId: "call_1",
      tool: "lookup",
      status: "returned",
      input: '{"q":"x"}',
      output: "42",
      truncated: false,
    });
    const [without] = markReturnedCalls([toolMessage("error", REJECTED)], new Map());
    assert.equal(without?.parts[0]?.type === "tool" && without.parts[0].output, null);
    const [realError] = markReturnedCalls([toolMessage("error", "upstream timed out")], new Map());
    assert.equal(realError?.parts[0]?.type === "tool" && realError.parts[0].status, "error", "other errors stay");
  });

  test("list shows arrival time, conversation and the title without its old prefix; deleting a conversation deletes its requests", async () => {
    const idx = tmpIndex();
    await idx.add("a", { session: "ses_1", receivedAt: 111, conversation: "c1", conversationTitle: "First" });
    await idx.add("a", { session: "ses_2", receivedAt: 222, conversation: "c1", conversationTitle: "First" });
    await idx.add("a", { session: "ses_3", receivedAt: 333, conversation: "c2", conversationTitle: "Other" });
    const summary = (id: string): SessionSummary => ({
      id,
      title: `patchbay: q ${id}`,
      directory: "/d",
      toolSet: "d",
      createdAt: 5,
      updatedAt: 6,
      model: null,
      tokens: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
      cost: 0,
      running: false,
    });
    const deleted: string[][] = [];
    const fake = {
      service: {
        list: async () => ({ sessions: ["ses_1", "ses_4"].map(summary), nextCursor: null }),
        delete: async (_app: string, ids: readonly string[]) => {
          deleted.push([...ids]);
          return { deleted: [...ids], missing: [], running: [], failed: [] };
        },
      },
    } as unknown as AdminHistory;
    const view = withConversations(fake, idx);
    const page = await view.service.list("a", {});
    assert.equal(page.sessions[0]?.receivedAt, 111);
    assert.deepEqual(page.sessions[0]?.conversation, { id: "c1", title: "First" });
    assert.equal(page.sessions[0]?.title, "q ses_1");
    assert.equal(page.sessions[1]?.conversation, undefined, "no record, no conversation");

    const r = await view.deleteConversations("a", ["c1", "nope"]);
    assert.deepEqual(deleted, [["ses_1", "ses_2"]]);
    assert.deepEqual(r.deleted, ["ses_1", "ses_2"]);
    assert.deepEqual(r.missing, ["nope"]);
    assert.deepEqual([...(await idx.records("a")).keys()], ["ses_3"], "their records are gone");
  });
});
