// Issue 21 item 4.6: logged bodies never keep the user's upstream credentials (OpenCode logins, provider keys in the
// config or the environment), even where they do not look like keys (an OAuth token, a custom gateway key).
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { logEntry } from "../../harness/builders";
import { providerSecrets } from "../../../server/opencode/process/home/provider-secrets";
import { redactEntry } from "../../../server/stores/redact";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-secrets-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test("auth.json logins, config keys and key variables are known, and scrubbed from a logged body", () => {
  const authFile = path.join(dir, "auth.json");
  const configFile = path.join(dir, "opencode.jsonc");
  fs.writeFileSync(
    authFile,
    JSON.stringify({
      anthropic: { type: "oauth", access: "oauthAccessValue42", refresh: "oauthRefreshValue42", expires: 1 },
      gateway: { type: "api", key: "gatewayLoginKey42" },
    }),
  );
  fs.writeFileSync(
    configFile,
    `{ // custom providers
      "provider": { "corp": { "options": { "apiKey": "corpLiteralKey42", "baseURL": "http://127.0.0.1:1" } },
                    "other": { "options": { "apiKey": "{env:CORP_GATEWAY}" } } } }`,
  );
  const env = { OPENAI_API_KEY: "envOpenAiKey42", CORP_GATEWAY: "envGatewayValue42", PATH: "/usr/bin" };
  const secrets = providerSecrets({ user: { authFile, configFile }, env })();
  for (const s of [
    "oauthAccessValue42",
    "oauthRefreshValue42",
    "gatewayLoginKey42",
    "corpLiteralKey42",
    "envOpenAiKey42",
    "envGatewayValue42",
  ])
    assert.ok(secrets.includes(s), `${s} is known`);
  assert.ok(!secrets.includes("/usr/bin"), "ordinary variables are not secrets");

  const body = {
    messages: [{ role: "user", content: "my keys: oauthAccessValue42 corpLiteralKey42 envGatewayValue42" }],
  };
  const logged = redactEntry(logEntry({ requestBody: body }), { maxBodyStringChars: 10_000, secrets });
  const text = JSON.stringify(logged.requestBody);
  assert.doesNotMatch(text, /oauthAccessValue42|corpLiteralKey42|envGatewayValue42/);
  assert.match(text, /my keys: \[redacted\]/);
});

test("missing or broken files give no secrets and never throw", () => {
  const broken = path.join(dir, "broken.json");
  fs.writeFileSync(broken, "{not json");
  assert.deepEqual(providerSecrets({ user: { authFile: broken, configFile: broken }, env: {} })(), []);
  assert.deepEqual(providerSecrets({ user: { authFile: null, configFile: null }, env: {} })(), []);
});
