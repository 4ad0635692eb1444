// Claude Code's settings.json merge: unrelated settings and formatting survive; Patchbay's variables are set, taken
// out again, read back; broken files (comments included: Claude Code reads plain JSON) are refused with their location.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import {
  claudeCode,
  mergeClaudeSettings,
  readClaudeSettings,
  unmergeClaudeSettings,
} from "../../../server/clients/claude-code";
import { ConfigFileError } from "../../../server/clients/types";

const S = { origin: "http://127.0.0.1:4747", key: "pb-KEY", model: "anthropic/claude-sonnet-4-5", smallModel: "small" };

const USER = `{
  "theme": "dark",
  "permissions": { "allow": ["Bash(ls:*)"] },
  "env": {
    "FOO": "bar"
  }
}
`;

describe("Claude Code settings.json", () => {
  test("merge keeps unrelated settings and formatting and adds the env variables", () => {
    const out = mergeClaudeSettings(USER, S);
    assert.ok(out.startsWith('{\n  "theme": "dark",\n  "permissions": { "allow": ["Bash(ls:*)"] },'));
    assert.match(out, /"FOO": "bar"/);
    const env = JSON.parse(out).env as Record<string, string>;
    assert.equal(env.ANTHROPIC_BASE_URL, "http://127.0.0.1:4747");
    assert.equal(env.ANTHROPIC_AUTH_TOKEN, "pb-KEY");
    assert.equal(env.ANTHROPIC_MODEL, S.model);
    assert.equal(env.ANTHROPIC_DEFAULT_HAIKU_MODEL, "small");
    assert.equal(env.ANTHROPIC_SMALL_FAST_MODEL, "small");
    assert.equal(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, undefined, "it switches off gateway model discovery");
    assert.equal(env.CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY, "1");
    assert.equal(env.DISABLE_TELEMETRY, "1");
    assert.equal(env.DISABLE_AUTOUPDATER, "1");
    assert.equal(env.CLAUDE_CODE_ATTRIBUTION_HEADER, "0");
    assert.equal(env.CLAUDE_CODE_GATEWAY_HINT_HEADERS, "1", "request-class hints for per-role routes");
    assert.equal(env.FOO, "bar");
  });

  test("merge drops CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC an earlier Patchbay wrote; unmerge removes it too", () => {
    const old = '{\n  "env": {\n    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",\n    "FOO": "bar"\n  }\n}\n';
    const env = JSON.parse(mergeClaudeSettings(old, S)).env as Record<string, string>;
    assert.equal(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, undefined);
    assert.equal(env.FOO, "bar");
    assert.deepEqual(JSON.parse(unmergeClaudeSettings(old)), { env: { FOO: "bar" } });
  });

  test("merge is idempotent and replaces earlier Patchbay values", () => {
    const once = mergeClaudeSettings(USER, S);
    assert.equal(mergeClaudeSettings(once, S), once);
    const other = mergeClaudeSettings(once, { ...S, model: "openai/gpt-5" });
    assert.match(other, /"ANTHROPIC_MODEL": "openai\/gpt-5"/);
    assert.equal(other.match(/ANTHROPIC_MODEL/g)?.length, 1);
  });

  test("a missing or empty file becomes a new object ending in a newline", () => {
    for (const start of [null, "", "  \n"]) {
      const out = mergeClaudeSettings(start, S);
      assert.equal((JSON.parse(out) as { env: Record<string, string> }).env.ANTHROPIC_AUTH_TOKEN, "pb-KEY");
      assert.ok(out.endsWith("\n"));
    }
  });

  test("a file with a comment or a trailing comma is refused (Claude Code could not read it); unmerge tolerates them", () => {
    const commented = `{\n  // my settings\n  "theme": "dark"\n}\n`;
    assert.throws(
      () => mergeClaudeSettings(commented, S),
      (e: unknown) =>
        e instanceof ConfigFileError && /a comment, which Claude Code cannot read .* at line 2/.test(e.message),
    );
    assert.throws(() => readClaudeSettings(commented), ConfigFileError);
    assert.throws(
      () => mergeClaudeSettings('{ "theme": "dark", }\n', S),
      (e: unknown) =>
        e instanceof ConfigFileError &&
        /a property name expected: a trailing comma before \}\? at line 1/.test(e.message),
    );
    const ours = mergeClaudeSettings(USER, S).replace("{\n", "{\n  // added later by hand\n");
    assert.doesNotMatch(unmergeClaudeSettings(ours), /ANTHROPIC_/);
  });

  test("unmerge takes exactly Patchbay's variables out (and an env left empty)", () => {
    const back = unmergeClaudeSettings(mergeClaudeSettings(USER, S));
    assert.deepEqual(JSON.parse(back), {
      theme: "dark",
      permissions: { allow: ["Bash(ls:*)"] },
      env: { FOO: "bar" },
    });
    const alone = unmergeClaudeSettings(mergeClaudeSettings('{ "theme": "x" }\n', S));
    assert.deepEqual(JSON.parse(alone), { theme: "x" });
    assert.equal(unmergeClaudeSettings(USER), USER, "nothing of Patchbay's: unchanged");
  });

  test("read gives the Messages URL, key and model; null when not set up", () => {
    assert.deepEqual(readClaudeSettings(mergeClaudeSettings(USER, S)), {
      url: "http://127.0.0.1:4747/v1/messages",
      key: "pb-KEY",
      model: S.model,
    });
    assert.equal(readClaudeSettings(USER), null);
  });

  test("a broken file is refused with its location; a wrong shape too", () => {
    assert.throws(
      () => mergeClaudeSettings('{\n  "theme": "dark"\n  "x": 1\n}\n', S),
      (e: unknown) =>
        e instanceof ConfigFileError && /line 3, column 3/.test(e.message) && /did not change/.test(e.message),
    );
    assert.throws(() => mergeClaudeSettings("[1, 2]", S), /must hold a JSON object/);
    assert.throws(() => mergeClaudeSettings('{ "env": "x" }', S), /"env" entry .* must be an object/);
    assert.throws(() => unmergeClaudeSettings("{ nope"), ConfigFileError);
  });

  test("config path honours CLAUDE_CONFIG_DIR; launch sets the env and drops conflicting variables", () => {
    assert.equal(claudeCode.config?.path({}, "/home/u"), "/home/u/.claude/settings.json");
    assert.equal(claudeCode.config?.path({ CLAUDE_CONFIG_DIR: "/cfg" }, "/home/u"), "/cfg/settings.json");
    const plan = claudeCode.launch(S, "/data/launch/1-ab");
    assert.equal(plan.env.ANTHROPIC_BASE_URL, "http://127.0.0.1:4747");
    assert.equal(plan.env.ANTHROPIC_AUTH_TOKEN, "pb-KEY");
    assert.ok(plan.unsetEnv.includes("ANTHROPIC_API_KEY"));
    assert.equal(plan.env.CLAUDE_CODE_MAX_CONTEXT_TOKENS, undefined, "no window known: not set");
    assert.equal(
      claudeCode.launch({ ...S, contextWindow: 200_000 }, "/d").env.CLAUDE_CODE_MAX_CONTEXT_TOKENS,
      "200000",
    );
    // The same variables in a --settings file, which outranks the env block of ~/.claude/settings.json.
    assert.deepEqual(plan.args, ["--settings", "/data/launch/1-ab/claude-settings.json"]);
    const file = JSON.parse(plan.files?.["/data/launch/1-ab/claude-settings.json"] ?? "null") as {
      env: Record<string, string>;
    };
    assert.deepEqual(file.env, plan.env);
  });
});
