// Codex's config.toml merge: text edits that keep comments, layout and every other table; idempotent; undone by
// unmerge; refused for broken TOML or a provider spelled in a form Patchbay does not edit.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { parse } from "smol-toml";
import {
  codex,
  codexLaunchArgs,
  mergeCodexConfig,
  readCodexConfig,
  unmergeCodexConfig,
} from "../../../server/clients/codex";
import { ConfigFileError } from "../../../server/clients/types";

const S = { origin: "http://127.0.0.1:4747", key: "pb-KEY", model: "openai/gpt-5", smallModel: "openai/gpt-5" };

const USER = `# Codex settings
approval_policy = "on-request"   # ask first

# tools
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[model_providers.other]
name = "Other"
base_url = "https://example.test/v1"
`;

describe("Codex config.toml", () => {
  test("merge adds model, model_provider and the provider table; everything else is kept byte for byte", () => {
    const out = mergeCodexConfig(USER, S);
    const t = parse(out) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(t.model, "openai/gpt-5");
    assert.equal(t.model_provider, "patchbay");
    assert.deepEqual(
      { ...t.model_providers.patchbay },
      {
        name: "Patchbay",
        base_url: "http://127.0.0.1:4747/v1",
        wire_api: "responses",
        supports_websockets: false,
        experimental_bearer_token: "pb-KEY",
      },
    );
    assert.equal(t.approval_policy, "on-request");
    assert.deepEqual(t.mcp_servers.docs.args, ["-y", "docs-mcp"]);
    assert.equal(t.model_providers.other.name, "Other");
    for (const line of USER.split("\n")) assert.ok(out.includes(line), `kept: ${line}`);
  });

  test("merge is idempotent, and replaces an earlier Patchbay table and model in place", () => {
    const once = mergeCodexConfig(USER, S);
    assert.equal(mergeCodexConfig(once, S), once);
    const again = mergeCodexConfig(once, {
      ...S,
      model: "anthropic/claude-sonnet-4-5",
      origin: "http://127.0.0.1:5000",
    });
    assert.equal(again.match(/^model = /gm)?.length, 1);
    assert.equal(again.match(/\[model_providers\.patchbay\]/g)?.length, 1);
    assert.match(again, /base_url = "http:\/\/127\.0\.0\.1:5000\/v1"/);
  });

  test("an existing root model is replaced where it is; the user's own provider table is untouched", () => {
    const src =
      'model = "o3"\nmodel_provider = "openai"\n\n[model_providers.patchbay]\nname = "old"\nextra = 1\n\n[tui]\nx = 1\n';
    const out = mergeCodexConfig(src, S);
    assert.ok(out.startsWith('model = "openai/gpt-5"\nmodel_provider = "patchbay"\n'));
    assert.ok(out.endsWith("\n[tui]\nx = 1\n"));
    assert.doesNotMatch(out, /extra = 1/);
  });

  test("a missing file becomes a small valid config", () => {
    const out = mergeCodexConfig(null, S);
    assert.ok(out.startsWith('model_provider = "patchbay"\nmodel = "openai/gpt-5"\n\n[model_providers.patchbay]\n'));
    assert.deepEqual(readCodexConfig(out), {
      url: "http://127.0.0.1:4747/v1/responses",
      key: "pb-KEY",
      model: S.model,
    });
  });

  test("unmerge restores a file Patchbay merged into (here: byte for byte)", () => {
    assert.equal(unmergeCodexConfig(mergeCodexConfig(USER, S)), USER);
    assert.equal(unmergeCodexConfig(USER), USER);
    assert.equal(readCodexConfig(USER), null);
  });

  test("broken TOML is refused with its location; a provider in another form too", () => {
    assert.throws(
      () => mergeCodexConfig('a = 1\nb = "unterminated\n', S),
      (e: unknown) => e instanceof ConfigFileError && /line 2/.test(e.message) && /did not change/.test(e.message),
    );
    assert.throws(
      () => mergeCodexConfig('model_providers = { patchbay = { name = "x" } }\n', S),
      /form Patchbay does not edit/,
    );
    assert.throws(() => mergeCodexConfig("model_providers = 3\n", S), /must be a table/);
  });

  test("launch passes TOML -c overrides and the key in PATCHBAY_KEY", () => {
    const args = codexLaunchArgs(S);
    assert.deepEqual(
      args.filter((_, i) => i % 2 === 0),
      Array(7).fill("-c"),
    );
    const values = Object.fromEntries(
      args
        .filter((_, i) => i % 2 === 1)
        .map((kv) => [kv.slice(0, kv.indexOf("=")), parse(`v = ${kv.slice(kv.indexOf("=") + 1)}`).v]),
    );
    assert.deepEqual(values, {
      model_provider: "patchbay",
      "model_providers.patchbay.name": "Patchbay",
      "model_providers.patchbay.base_url": "http://127.0.0.1:4747/v1",
      "model_providers.patchbay.env_key": "PATCHBAY_KEY",
      "model_providers.patchbay.wire_api": "responses",
      "model_providers.patchbay.supports_websockets": false,
      model: "openai/gpt-5",
    });
    assert.deepEqual(codex.launch(S, "/d").env, { PATCHBAY_KEY: "pb-KEY" });
    assert.equal(codex.config?.path({ CODEX_HOME: "/c" }, "/h"), "/c/config.toml");
    assert.equal(codex.config?.path({}, "/h"), "/h/.codex/config.toml");
  });
});
