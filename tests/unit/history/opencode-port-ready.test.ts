// The history port waits for a starting OpenCode (as API requests do) instead of failing at once; a down or
// still-starting OpenCode is a clear error, never "not running" while it starts.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { OpencodeClient } from "@opencode-ai/sdk/v2";
import { PatchbayError } from "../../../server/core/errors";
import { createOpenCodeHistoryPort, type OpenCodeClientFactory } from "../../../server/history/opencode-port";

/** A factory whose OpenCode becomes ready after `readyAfterMs`; `client()` throws like the supervisor's until then. */
function startingOpenCode(readyAfterMs: number, outcome: "ready" | "starting" | "failed" = "ready") {
  let ready = false;
  const waits: number[] = [];
  const client = {
    session: {
      status: async () => ({ data: { ses_busy: { type: "busy" }, ses_idle: { type: "idle" } } }),
    },
  } as unknown as OpencodeClient;
  const factory: OpenCodeClientFactory = {
    client() {
      if (!ready) throw new PatchbayError("backend_starting", "OpenCode is still starting; retry in a few seconds.");
      return client;
    },
    async whenReady(timeoutMs) {
      waits.push(timeoutMs);
      if (outcome === "failed") throw new PatchbayError("backend_unavailable", "OpenCode is not available: exit 1.");
      await new Promise((r) => setTimeout(r, readyAfterMs));
      if (outcome === "starting")
        throw new PatchbayError("backend_starting", "OpenCode is still starting; retry in a few seconds.");
      ready = true;
    },
  };
  return { factory, waits };
}

test("a call made while OpenCode starts waits for it and then answers", async () => {
  const { factory, waits } = startingOpenCode(80);
  const port = createOpenCodeHistoryPort(factory);
  const t0 = Date.now();
  const busy = await port.busySessions("/tmp/app");
  assert.deepEqual([...busy], ["ses_busy"]);
  assert.ok(Date.now() - t0 >= 70, "waited for readiness");
  assert.deepEqual(waits, [15_000], "waits as long as the OpenAI routes (15 s)");
});

test("still starting after the wait → backend_starting (503); failed → backend_unavailable with the reason", async () => {
  const slow = createOpenCodeHistoryPort(startingOpenCode(1, "starting").factory);
  await assert.rejects(
    slow.busySessions("/tmp/app"),
    (e: unknown) => e instanceof PatchbayError && e.code === "backend_starting" && e.status === 503,
  );
  const failed = createOpenCodeHistoryPort(startingOpenCode(1, "failed").factory);
  await assert.rejects(
    failed.busySessions("/tmp/app"),
    (e: unknown) => e instanceof PatchbayError && e.code === "backend_unavailable" && /exit 1/.test(e.message),
  );
});
