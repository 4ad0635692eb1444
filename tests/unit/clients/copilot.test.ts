// GitHub Copilot CLI's launch plan: Patchbay as its BYOK provider in the environment only (offline, no GitHub login).
import { test } from "node:test";
import assert from "node:assert/strict";
import { copilot } from "../../../server/clients/copilot";

test("launch copilot: provider, key, model and offline mode in the environment; inherited overrides removed", () => {
  const plan = copilot.launch(
    {
      origin: "http://127.0.0.1:4747",
      key: "pb-K",
      model: "openai/gpt-5",
      smallModel: "openai/gpt-5",
      contextWindow: 400_000,
    },
    "/tmp/x",
  );
  assert.deepEqual(plan.env, {
    COPILOT_PROVIDER_BASE_URL: "http://127.0.0.1:4747/v1",
    COPILOT_PROVIDER_TYPE: "openai",
    COPILOT_PROVIDER_WIRE_API: "completions",
    COPILOT_PROVIDER_API_KEY: "pb-K",
    COPILOT_MODEL: "openai/gpt-5",
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PROVIDER_MAX_PROMPT_TOKENS: "400000",
  });
  assert.deepEqual(plan.args, []);
  // A bearer token or key command in the user's shell would win over COPILOT_PROVIDER_API_KEY.
  assert.ok(plan.unsetEnv.includes("COPILOT_PROVIDER_BEARER_TOKEN"));
  assert.ok(plan.unsetEnv.includes("COPILOT_PROVIDER_API_KEY_COMMAND"));
  assert.equal(plan.files, undefined);
});
