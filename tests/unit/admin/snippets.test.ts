// Connect snippets and "Copy as curl": filled with the base URL and model, never a key.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { buildSnippets, KEY_ENV, shellQuote } from "../../../shared/admin/snippets";
import { curlForEntry, redactSecrets } from "../../../shared/admin/curl";
import { parse as parseToml } from "smol-toml";
import { logEntry } from "./fakes";

describe("connect snippets", () => {
  const snippets = buildSnippets({ baseUrl: "http://127.0.0.1:4747/v1/", model: "fast", app: "notes" });

  test("one snippet per client, each with the base URL and the model", () => {
    assert.deepEqual(
      snippets.map((s) => s.id),
      [
        "curl",
        "openai-python",
        "openai-js",
        "ai-sdk-compatible",
        "ai-sdk-responses",
        "claude-code",
        "anthropic-python",
        "anthropic-js",
        "langchain-python",
        "langchain-js",
        "n8n",
        "continue",
        "codex",
      ],
    );
    const anthropic = new Set(["claude-code", "anthropic-python", "anthropic-js"]);
    for (const s of snippets) {
      if (anthropic.has(s.id)) {
        // Anthropic clients add /v1 themselves: the server root, never /v1.
        assert.ok(s.code.includes("http://127.0.0.1:4747"), s.id);
        assert.ok(!s.code.includes("4747/v1"), `${s.id}: no /v1`);
      } else assert.ok(s.code.includes("http://127.0.0.1:4747/v1"), s.id);
      assert.ok(!s.code.includes('/v1/"'), `${s.id}: no trailing slash`);
      assert.ok(s.code.includes("fast"), s.id);
      assert.ok(
        s.code.includes(KEY_ENV) || s.hint.includes(KEY_ENV) || s.id === "n8n",
        `${s.id} reads the key from ${KEY_ENV}`,
      );
    }
  });

  test("client-specific details", () => {
    const by = (id: string) => snippets.find((s) => s.id === id)?.code ?? "";
    assert.match(by("codex"), /wire_api = "responses"/);
    assert.match(by("codex"), /env_key = "PATCHBAY_KEY"/);
    assert.match(by("codex"), /supports_websockets = false/);
    assert.match(by("ai-sdk-responses"), /store: false/);
    assert.match(by("ai-sdk-responses"), /patchbay\.responses\("fast"\)/);
    assert.match(by("ai-sdk-compatible"), /createOpenAICompatible/);
    assert.match(by("continue"), /apiBase: http:\/\/127\.0\.0\.1:4747\/v1/);
    assert.match(by("curl"), /Authorization: Bearer \$PATCHBAY_KEY/);
    const claude = by("claude-code");
    assert.match(claude, /^export ANTHROPIC_BASE_URL='http:\/\/127\.0\.0\.1:4747'$/m);
    assert.match(claude, /^export ANTHROPIC_AUTH_TOKEN="\$PATCHBAY_KEY"$/m);
    assert.match(claude, /^export ANTHROPIC_MODEL='fast'$/m);
    assert.match(claude, /^export ANTHROPIC_DEFAULT_HAIKU_MODEL='fast'$/m);
    assert.match(claude, /^export CLAUDE_CODE_ATTRIBUTION_HEADER=0$/m);
    assert.match(claude, /^export DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1$/m);
    assert.match(claude, /^export CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY=1$/m);
    assert.doesNotMatch(claude, /NONESSENTIAL/, "it would switch off the /model picker's discovery");
    assert.match(claude, /\nclaude$/);
    assert.doesNotMatch(claude, /CLAUDE_CODE_MAX_CONTEXT_TOKENS/, "no window given: none guessed");
    const withWindow = buildSnippets({ baseUrl: "http://h:1/v1", model: "fast", contextTokens: 200000 }).find(
      (s) => s.id === "claude-code",
    )!.code;
    assert.match(withWindow, /^export CLAUDE_CODE_MAX_CONTEXT_TOKENS=200000$/m);
    assert.match(withWindow, /\nclaude$/);
    assert.match(by("anthropic-js"), /baseURL: "http:\/\/127\.0\.0\.1:4747"/);
    assert.match(by("anthropic-python"), /max_tokens=1024/);
  });

  test("the Codex snippet is valid TOML with a complete custom provider", () => {
    const config = JSON.parse(JSON.stringify(parseToml(snippets.find((s) => s.id === "codex")?.code ?? ""))) as Record<
      string,
      unknown
    >;
    assert.equal(config.model, "fast");
    assert.equal(config.model_provider, "patchbay");
    assert.equal(config.web_search, undefined, "Codex's default tools stay on: Patchbay drops hosted ones itself");
    assert.deepEqual(config.model_providers, {
      patchbay: {
        name: "Patchbay",
        base_url: "http://127.0.0.1:4747/v1",
        env_key: "PATCHBAY_KEY",
        wire_api: "responses",
        supports_websockets: false,
      },
    });
    const quoted = buildSnippets({ baseUrl: "http://h:1/v1", model: 'we"ird\\model' }).find((s) => s.id === "codex");
    assert.equal(
      (parseToml(quoted?.code ?? "") as { model?: string }).model,
      'we"ird\\model',
      "model is a TOML string",
    );
  });

  test("shellQuote survives single quotes", () => {
    assert.equal(shellQuote("it's"), `'it'\\''s'`);
  });
});

describe("copy as curl", () => {
  test("uses $PATCHBAY_KEY and never a key, even one that leaked into a logged body", () => {
    const key = "pb-notes-AbCdEfGhIjKlMnOpQrSt123";
    const entry = logEntry({
      keyPrefix: "notes-AbCdEf",
      stream: true,
      requestBody: {
        model: "fast",
        messages: [{ role: "user", content: `my key is ${key}, auth Bearer sk-live-1234567890` }],
      },
    });
    const cmd = curlForEntry(entry, "http://127.0.0.1:4747/v1");
    assert.ok(cmd.startsWith("curl -N -X POST 'http://127.0.0.1:4747/v1/chat/completions'"));
    assert.match(cmd, /Authorization: Bearer \$PATCHBAY_KEY/);
    assert.ok(!cmd.includes(key));
    assert.ok(!cmd.includes("sk-live-1234567890"));
    assert.ok(!cmd.includes("notes-AbCdEf"), "not even the key prefix");
    assert.match(cmd, /"model": "fast"/);
  });

  test("without logged bodies it builds a minimal body for the endpoint", () => {
    const chat = curlForEntry(logEntry({ modelAsked: "mock/zeta" }), "http://h:1/v1");
    assert.match(chat, /"messages"/);
    assert.match(chat, /"model": "mock\/zeta"/);
    const resp = curlForEntry(logEntry({ endpoint: "/v1/responses", modelAsked: "m/x" }), "http://h:1/v1");
    assert.match(resp, /"input": "Hello!"/);
    assert.match(resp, /"store": false/);
    // Anthropic Messages: max_tokens (required by that API), its version header, and a JSON content type.
    const messages = curlForEntry(
      logEntry({ endpoint: "/v1/messages", modelAsked: "m/x", stream: true }),
      "http://h:1/v1",
    );
    assert.equal(
      messages,
      [
        "curl -N -X POST 'http://h:1/v1/messages'",
        '  -H "Authorization: Bearer $PATCHBAY_KEY"',
        "  -H 'anthropic-version: 2023-06-01'",
        "  -H 'Content-Type: application/json'",
        `  -d '${JSON.stringify({ model: "m/x", max_tokens: 1024, messages: [{ role: "user", content: "Hello!" }], stream: true }, null, 2)}'`,
      ].join(" \\\n"),
    );
    const count = curlForEntry(logEntry({ endpoint: "/v1/messages/count_tokens", modelAsked: "m/x" }), "http://h:1/v1");
    assert.match(count, /anthropic-version: 2023-06-01/);
    assert.match(count, /"messages"/);
    assert.doesNotMatch(count, /max_tokens/);
    const models = curlForEntry(logEntry({ method: "GET", endpoint: "/v1/models" }), "http://h:1/v1");
    assert.equal(models, `curl -X GET 'http://h:1/v1/models' \\\n  -H "Authorization: Bearer $PATCHBAY_KEY"`);
  });

  test("redactSecrets", () => {
    assert.equal(redactSecrets("x pb-app-1-abcdefghijklmnop y"), "x <redacted> y");
    assert.equal(redactSecrets("no secrets here"), "no secrets here");
  });
});
