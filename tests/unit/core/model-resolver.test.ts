// resolveModel / parseModelRef: aliases, catalog ids, variants, and client input that must not crash or be echoed whole.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { App, AppPatch, isModelAllowed } from "../../../shared/apps";
import type { ModelInfo } from "../../../server/core/contract";
import { PatchbayError } from "../../../server/core/errors";
import { modelsForApp, parseModelRef, resolveModel } from "../../../server/core/model-resolver";
import { modelInfo } from "../../harness/neutral-fixtures";

function model(id: string, variants: string[] = []): ModelInfo {
  return modelInfo(id, { variants });
}

const CATALOG = [model("demo/echo", ["high"]), model("mock/mock-model")];
const APP = App.parse({ id: "app_1", name: "unit", createdAt: 0, aliases: { fast: "demo/echo#high" } });

function rejects(asked: string, code: string): PatchbayError {
  let caught: unknown;
  try {
    resolveModel(APP, asked, CATALOG);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof PatchbayError, `'${asked.slice(0, 40)}' → ${String(caught)}`);
  assert.equal(caught.code, code);
  assert.equal(caught.param, "model");
  return caught;
}

describe("resolveModel", () => {
  test("aliases, provider/model, variants and bare ids resolve, and carry the catalog entry", () => {
    const alias = resolveModel(APP, "fast", CATALOG);
    assert.deepEqual(alias.target, { providerID: "demo", modelID: "echo", variant: "high" });
    assert.equal(alias.info.id, "demo/echo");
    assert.equal(resolveModel(APP, "demo/echo#high", CATALOG).target.variant, "high");
    assert.equal(resolveModel(APP, "mock-model", CATALOG).info.id, "mock/mock-model");
  });

  test("names of built-in object properties are unknown models (404), not a crash", () => {
    for (const asked of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
      rejects(asked, "model_not_found");
    }
  });

  test("an empty variant after '#' is refused, naming model", () => {
    const err = rejects("demo/echo#", "model_not_found");
    assert.match(err.message, /variant/);
    assert.equal(parseModelRef("demo/echo#"), null);
    assert.deepEqual(parseModelRef("demo/echo#high"), { providerID: "demo", modelID: "echo", variant: "high" });
  });

  test("a huge model id is quoted at most ~200 characters in the message", () => {
    const err = rejects(`x/${"y".repeat(20_000)}`, "model_not_found");
    assert.ok(err.message.length < 500, `message length ${err.message.length}`);
    assert.match(err.message, /y…'/);
    const variant = rejects(`demo/echo#${"v".repeat(20_000)}`, "model_not_found");
    assert.ok(variant.message.length < 700, `variant message length ${variant.message.length}`);
  });
});

describe("allowlist patterns and aliases (issue 16 item 15)", () => {
  const catalog = [model("openai/gpt-5"), model("openai/gpt-4.1-mini"), model("openai/o3"), model("anthropic/claude")];
  const allowedBy = (models: string[]) => catalog.filter((m) => isModelAllowed(models, m.id)).map((m) => m.id);

  test("provider/prefix*, provider/*, * and exact ids", () => {
    assert.deepEqual(allowedBy(["openai/gpt*"]), ["openai/gpt-5", "openai/gpt-4.1-mini"]);
    assert.deepEqual(allowedBy(["openai/*"]), ["openai/gpt-5", "openai/gpt-4.1-mini", "openai/o3"]);
    assert.deepEqual(
      allowedBy(["*"]),
      catalog.map((m) => m.id),
    );
    assert.deepEqual(allowedBy(["openai/o3", "anthropic/*"]), ["openai/o3", "anthropic/claude"]);
    const app = App.parse({ id: "a", name: "p", createdAt: 0, models: ["openai/gpt*"] });
    assert.equal(resolveModel(app, "openai/gpt-5", catalog).id, "openai/gpt-5");
  });

  test("other wildcard forms are refused with a message naming the pattern language", () => {
    for (const bad of ["openai/*mini", "*/gpt-5", "open*", "openai/g*t*", "**"]) {
      const r = AppPatch.safeParse({ models: [bad] });
      assert.equal(r.success, false, bad);
      assert.match(r.error?.issues[0]?.message ?? "", /trailing \*|provider\/prefix\*/, bad);
    }
    assert.equal(AppPatch.safeParse({ models: ["openai/gpt*", "openai/*", "*", "a/b"] }).success, true);
  });

  test("/v1/models leaves out aliases whose target does not exist and says which", () => {
    const app = App.parse({
      id: "a",
      name: "p",
      createdAt: 0,
      aliases: { good: "openai/o3", gone: "openai/gpt-9", badVariant: "openai/o3#ultra" },
    });
    const listed = modelsForApp(app, catalog);
    assert.deepEqual(listed.aliases, { good: "openai/o3" });
    assert.deepEqual(listed.unavailable, { gone: "openai/gpt-9", badVariant: "openai/o3#ultra" });
  });

  test("/v1/models lists an alias whose target is gone while a fallback can serve, as that fallback", () => {
    const app = App.parse({
      id: "a",
      name: "p",
      createdAt: 0,
      aliases: { main: "openai/gpt-9", dead: "openai/gpt-9" },
      fallbacks: { main: ["openai/gpt-10", "openai/o3"], dead: ["openai/gpt-10"] },
    });
    const listed = modelsForApp(app, catalog);
    assert.deepEqual(listed.aliases, { main: "openai/o3" });
    assert.deepEqual(listed.unavailable, { dead: "openai/gpt-9" });
  });
});
