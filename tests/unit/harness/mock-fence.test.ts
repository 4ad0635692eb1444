// MockUpstream.fence: what the shared Patchbay relies on between files (tests/harness/shared-patchbay.ts). A fenced-off
// OpenCode session's late call gets a plain answer and leaves the next file's script and recordings alone.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { MockUpstream } from "../../harness/mock-upstream";

let mock: MockUpstream;
before(async () => {
  mock = await new MockUpstream().start();
});
after(async () => {
  await mock.stop();
});

async function call(sessionId: string): Promise<string> {
  const res = await fetch(`${mock.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-session-id": sessionId },
    body: JSON.stringify({ model: "mock-model", messages: [{ role: "user", content: "hi" }] }),
  });
  const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
  return body.choices[0]!.message.content;
}

test("a fenced-off session's late call is answered plainly; the script and recordings stay for the next user", async () => {
  mock.script({ text: "first file's reply" });
  assert.equal(await call("ses_old"), "first file's reply");
  mock.reset();
  mock.fence();
  mock.script({ text: "second file's reply" });
  assert.equal(await call("ses_old"), "MOCK_FENCED_REPLY");
  assert.equal(mock.fencedAnswers, 1);
  assert.equal(mock.chatRequests().length, 0, "the late call is not recorded");
  assert.equal(await call("ses_new"), "second file's reply");
  assert.equal(mock.chatRequests().length, 1);
});
