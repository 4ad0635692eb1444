// `serve`'s line per API request: client text can neither forge a line nor reach the terminal as escape sequences.
import { test } from "node:test";
import assert from "node:assert/strict";
import { requestLine } from "../../../server/cli/commands/serve";
import { logEntry } from "../../harness/builders";

test("a plain model id is printed as is", () => {
  const line = requestLine(
    logEntry({
      method: "POST",
      endpoint: "/v1/chat/completions",
      app: "a",
      modelAsked: "demo/echo",
      modelResolved: null,
      status: 200,
      totalMs: 1234,
    }),
  );
  assert.equal(line, "POST /v1/chat/completions app=a model=demo/echo 200 1.2s");
});

test("newlines, escape sequences and bidi controls in the model are escaped; long ones shortened", () => {
  for (const model of ["x\nPOST /v1/chat/completions app=admin 200", "\u001b[31mRED", "a\u202eb", "m".repeat(5000)]) {
    const line = requestLine(logEntry({ modelAsked: model, modelResolved: null }));
    for (const c of ["\n", "\r", "\u001b", "\u202e"]) assert.ok(!line.includes(c), JSON.stringify(line));
    assert.ok(line.length < 200, `line of ${line.length} characters`);
  }
});
