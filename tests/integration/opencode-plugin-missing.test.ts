// Fail closed when the companion plugin cannot load (e.g. a transpile error after an OpenCode upgrade): without its
// hooks OpenCode would send its own prompt and history, so the backend must refuse before anything goes upstream.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PatchbayError } from "../../server/core/errors";
import {
  backendRequest,
  neutralRequest,
  runStream,
  startBridgeStack,
  type BridgeStack,
} from "../harness/opencode-stack";

let stack: BridgeStack;
let brokenDir: string;

describe("OpenCode backend with a companion plugin that fails to load", () => {
  before(async () => {
    brokenDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-broken-plugin-"));
    const broken = path.join(brokenDir, "companion.ts");
    fs.writeFileSync(
      broken,
      "export const PatchbayCompanion = async (input: { directory: string }) => { this is not typescript };\n",
    );
    stack = await startBridgeStack({ supervisor: { pluginSource: broken } });
  });
  after(async () => {
    await stack?.stop();
    fs.rmSync(brokenDir, { recursive: true, force: true });
  });

  test("the request is refused with 503 backend_unavailable and nothing reaches the upstream", async () => {
    await assert.rejects(
      runStream(stack.backend, backendRequest(neutralRequest({ system: ["secret system prompt"] }))),
      (err: unknown) =>
        err instanceof PatchbayError && err.code === "backend_unavailable" && /companion plugin/.test(err.message),
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(stack.mock.chatRequests().length, 0);
    assert.equal(stack.sideChannel.size(), 0);
  });
});
