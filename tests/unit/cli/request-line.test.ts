// `serve`'s line per API request: the role and route of a routed request; client text can neither forge a line nor reach the terminal as escape sequences.
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

test("a request with a role names it, and the route its app applied", () => {
  const base = { method: "POST", endpoint: "/v1/messages", app: "cc", status: 200, totalMs: 2000 };
  assert.equal(
    requestLine(logEntry({ ...base, modelAsked: "opus", modelResolved: "mock/mock-model", role: "main" })),
    "POST /v1/messages app=cc role=main model=mock/mock-model 200 2.0s",
  );
  const routed = logEntry({
    ...base,
    modelAsked: "opus",
    modelResolved: "mock/mock-small",
    role: "subagent",
    agentType: "general-purpose",
    routedTo: "fast",
  });
  assert.equal(
    requestLine(routed),
    "POST /v1/messages app=cc role=subagent/general-purpose routed=fast model=mock/mock-small 200 2.0s",
  );
  // The agent type is the client's header: escaped like the model.
  const line = requestLine(logEntry({ ...base, role: "subagent", agentType: "x\n\u001b[31m" }));
  assert.ok(!line.includes("\n") && !line.includes("\u001b"), JSON.stringify(line));
});

test("newlines, escape sequences and bidi controls in the model are escaped; long ones shortened", () => {
  for (const model of ["x\nPOST /v1/chat/completions app=admin 200", "\u001b[31mRED", "a\u202eb", "m".repeat(5000)]) {
    const line = requestLine(logEntry({ modelAsked: model, modelResolved: null }));
    for (const c of ["\n", "\r", "\u001b", "\u202e"]) assert.ok(!line.includes(c), JSON.stringify(line));
    assert.ok(line.length < 200, `line of ${line.length} characters`);
  }
});
