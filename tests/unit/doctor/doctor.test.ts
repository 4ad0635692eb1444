// doctor's pure parts: the checks per client, version parsing, failure details from the request log, the table, and
// the remembered last passing version.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { doctorChecks, DOCTOR_CLIENTS } from "../../../server/doctor/checks";
import { failureDetail, versionOf, type DoctorClientResult } from "../../../server/doctor/run-doctor";
import { doctorTable } from "../../../server/doctor/doctor-table";
import { readDoctorState, rememberPassed } from "../../../server/doctor/doctor-state";
import type { RequestLogEntry } from "../../../shared/log-entry";
import { demoReply } from "../../../server/demo/upstream";

test("each client's tool check asks the demo model for one of its tools by name", () => {
  assert.deepEqual(DOCTOR_CLIENTS, ["claude-code", "codex", "copilot"]);
  for (const [client, tool] of [
    ["claude-code", "Bash"],
    ["codex", "exec_command"],
    ["copilot", "bash"],
  ] as const) {
    const check = doctorChecks(client).find((c) => c.id === "tool")!;
    const prompt = check.args.find((a) => a.includes("tool"))!;
    const reply = demoReply({
      model: "echo",
      messages: [{ role: "user", content: prompt }],
      tools: [{ type: "function", function: { name: tool } }],
    });
    assert.equal(reply.toolCall?.name, tool, client);
  }
  assert.deepEqual(doctorChecks("opencode"), []);
});

test("the image check: Claude Code and Codex read doctor's PNG with their own file tool; Copilot CLI has none", () => {
  for (const [client, tool, pathKey] of [
    ["claude-code", "Read", "file_path"],
    ["codex", "view_image", "path"],
  ] as const) {
    assert.equal(
      doctorChecks(client).find((c) => c.id === "image"),
      undefined,
      "no image check without a PNG",
    );
    const check = doctorChecks(client, "/tmp/pb/work/doctor-check.png").find((c) => c.id === "image")!;
    const prompt = check.args.find((a) => a.includes("tool"))!;
    const reply = demoReply({
      model: "echo",
      messages: [{ role: "user", content: prompt }],
      tools: [
        {
          type: "function",
          function: { name: tool, parameters: { type: "object", required: [pathKey], properties: {} } },
        },
      ],
    });
    assert.deepEqual(JSON.parse(reply.toolCall?.arguments ?? "null"), { [pathKey]: "/tmp/pb/work/doctor-check.png" });
    assert.match("I see an image: image/png, 80 bytes.", check.expect);
  }
  assert.deepEqual(
    doctorChecks("copilot", "/tmp/x.png").map((c) => c.id),
    ["plain", "tool"],
  );
});

test("versionOf reads the version from each CLI's --version line", () => {
  assert.equal(versionOf("2.1.170 (Claude Code)"), "2.1.170");
  assert.equal(versionOf("codex-cli 0.171.0"), "0.171.0");
  assert.equal(versionOf("GitHub Copilot CLI 1.0.102.\nRun 'copilot update'"), "1.0.102");
  assert.equal(versionOf("nothing"), null);
});

const entry = (over: Partial<RequestLogEntry>): RequestLogEntry =>
  ({
    id: "1",
    app: "doctor",
    keyPrefix: null,
    method: "POST",
    endpoint: "/v1/messages",
    modelAsked: "demo/echo",
    modelResolved: null,
    status: 200,
    errorCode: null,
    errorMessage: null,
    ...over,
  }) as RequestLogEntry;

test("a failure names the refused request and Patchbay's reason, else what the client did", () => {
  const refused = failureDetail(
    { code: 1, output: "API Error", timedOut: false },
    [entry({ status: 400, errorCode: "invalid_request_error", errorMessage: "messages: required" })],
    /x/,
  );
  assert.equal(
    refused,
    "Patchbay refused POST /v1/messages (model demo/echo): 400 invalid_request_error: messages: required",
  );
  assert.equal(
    failureDetail({ code: 1, output: "connect ECONNREFUSED 127.0.0.1:9\n", timedOut: false }, [], /x/),
    "no request reached Patchbay; the client exited with 1: connect ECONNREFUSED 127.0.0.1:9",
  );
  assert.match(failureDetail({ code: 0, output: "hi", timedOut: false }, [entry({})], /You said/), /lacks/);
  assert.match(failureDetail({ code: null, output: "", timedOut: true }, [], /x/), /did not finish in time/);
  // --base-url: the client talked to another server; the throwaway Patchbay's empty log says nothing about it.
  assert.equal(
    failureDetail(
      { code: 1, output: "API Error: 401 Incorrect API key\n", timedOut: false },
      [],
      /x/,
      "http://127.0.0.1:4747",
    ),
    "the client exited with 1: API Error: 401 Incorrect API key (its requests went to http://127.0.0.1:4747)",
  );
});

test("the table: one row per client, failures listed under it", () => {
  const row = (ok: boolean): DoctorClientResult => ({
    client: "codex",
    name: "Codex",
    bin: "/bin/codex",
    version: "0.171.0",
    checks: [
      { id: "plain", title: "plain prompt", ok: true, detail: null },
      { id: "tool", title: "tool round trip", ok, detail: ok ? null : "no request reached Patchbay" },
      { id: "image", title: "image", ok: true, detail: null },
    ],
    image: null,
    ok,
    lastPassedVersion: ok ? "0.171.0" : null,
  });
  const copilot: DoctorClientResult = {
    ...row(true),
    client: "copilot",
    name: "GitHub Copilot CLI",
    version: "1.0.102",
    checks: row(true).checks.slice(0, 2),
    image: "no headless way",
  };
  const good = doctorTable([row(true), copilot]);
  assert.match(good, /^client\s+version\s+plain prompt\s+tool round trip\s+image\s+last passed$/m);
  assert.match(good, /^Codex\s+0\.171\.0\s+ok\s+ok\s+ok\s+0\.171\.0$/m);
  assert.match(good, /^GitHub Copilot CLI\s+1\.0\.102\s+ok\s+ok\s+n\/a\s+0\.171\.0$/m);
  assert.match(good, /^GitHub Copilot CLI: no image check \(no headless way\)\.$/m);
  assert.doesNotMatch(good, /Codex: no image check/);
  assert.doesNotMatch(good, /Failures/);
  const bad = doctorTable([row(false)]);
  assert.match(bad, /^Codex\s+0\.171\.0\s+ok\s+FAILED\s+ok\s+never$/m);
  assert.match(bad, /Failures:\n {2}Codex 0\.171\.0 tool round trip: no request reached Patchbay/);
});

test("the last passing version is remembered per client; a damaged file counts as empty", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-doctor-"));
  try {
    assert.deepEqual((await readDoctorState(dir)).clients, {});
    await rememberPassed(dir, "codex", "0.171.0", 5);
    await rememberPassed(dir, "copilot", "1.0.102", 6);
    assert.deepEqual((await readDoctorState(dir)).clients.codex, { lastPassedVersion: "0.171.0", at: 5 });
    assert.equal(fs.statSync(path.join(dir, "doctor.json")).mode & 0o777, 0o600);
    fs.writeFileSync(path.join(dir, "doctor.json"), "{bad");
    assert.deepEqual((await readDoctorState(dir)).clients, {});
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
