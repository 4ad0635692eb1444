// The admin API's check of the models an app's routes and fallback chains name (server/http/admin/routes/
// routing-check.ts): refused with the field named while the model list is known, saved with a warning while OpenCode
// cannot say, and an unrelated edit never refused for an entry that was already saved.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../server/core/errors";
import { App } from "../../../shared/apps";
import { unknownRoutingModels } from "../../../server/routing/validate";
import { errorOf, MODELS, startAdmin, type StartedAdmin } from "./fakes";
import { bareCli } from "../../../server/core/cli-command";

let s: StartedAdmin;
before(async () => {
  s = await startAdmin();
  s.fakes.apps.apps.set(
    "cc",
    App.parse({ id: "app_cc", name: "cc", createdAt: 0, models: ["mock/*"], aliases: { fast: "mock/zeta" } }),
  );
});
after(async () => {
  await s.close();
});

test("a route or fallback to a model no provider offers is refused, naming the field; nothing is saved", async () => {
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [
      { routes: { subagent: "mock/nonesuch" } },
      "routes.subagent",
      /route for subagent names mock\/nonesuch, which no connected provider offers/,
    ],
    [{ routes: { review: "mock/zeta#max" } }, "routes.review", /mock\/zeta#max, which no connected provider offers/],
    [
      { fallbacks: { fast: ["mock/alpha", "mock/gone"] } },
      "fallbacks.fast[1]",
      /fallback mock\/gone of "fast" is a model no connected provider offers/,
    ],
  ];
  for (const [body, field, message] of cases) {
    const patches = s.fakes.apps.patches.length;
    const res = await s.request("PATCH", "/admin/api/apps/cc", { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    const err = errorOf(res);
    assert.equal(err.code, "invalid_request_error");
    assert.equal(err.field, field);
    assert.match(err.message, message);
    assert.equal(s.fakes.apps.patches.length, patches, "nothing saved");
  }
  const created = await s.request("POST", "/admin/api/apps", {
    body: { name: "new", routes: { compaction: "anthropic/nope" } },
  });
  assert.equal(created.status, 400);
  assert.equal(errorOf(created).field, "routes.compaction");
  assert.equal(s.fakes.apps.get("new"), undefined);

  const ok = await s.request("PATCH", "/admin/api/apps/cc", {
    body: { routes: { subagent: "mock/alpha", main: "fast" }, fallbacks: { fast: ["mock/zeta#high"] } },
  });
  assert.equal(ok.status, 200);
  assert.equal((ok.json() as { warnings?: string[] }).warnings, undefined);
});

test("while the model list is unavailable the change is saved with a warning naming the unchecked models", async () => {
  s.fakes.listModels = async () => {
    throw new PatchbayError("backend_starting", "OpenCode is starting.");
  };
  try {
    const res = await s.request("PATCH", "/admin/api/apps/cc", { body: { routes: { subagent: "mock/later" } } });
    assert.equal(res.status, 200);
    const warnings = (res.json() as { warnings?: string[] }).warnings ?? [];
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0]!,
      /without checking that a provider offers mock\/later: the model list is unavailable \(OpenCode is starting\.\)/,
    );
  } finally {
    s.fakes.listModels = async () => MODELS;
  }
});

test("only what a change newly names is checked: an entry saved before stays editable around", () => {
  const previous = App.parse({
    id: "1",
    name: "a",
    createdAt: 0,
    aliases: { fast: "mock/zeta" },
    routes: { subagent: "mock/gone" },
    fallbacks: { fast: ["mock/old"] },
  });
  assert.deepEqual(
    unknownRoutingModels(
      {
        routes: { subagent: "mock/gone", review: "fast", main: "nothing-like-a-model" },
        fallbacks: { fast: ["mock/old", "mock/alpha"] },
      },
      previous,
      MODELS,
      bareCli,
    ),
    [],
  );
  assert.deepEqual(
    unknownRoutingModels({ routes: { compaction: "mock/new" } }, previous, MODELS, bareCli).map((u) => [
      u.param,
      u.model,
    ]),
    [["routes.compaction", "mock/new"]],
  );
  // A model the allowlist refuses is left to checkRouting (it says "may not use").
  assert.deepEqual(
    unknownRoutingModels({ routes: { main: "other/x" }, models: ["mock/*"] }, previous, MODELS, bareCli),
    [],
  );
});

test("an alias to a model no provider offers is saved with a warning saying where its requests go", async () => {
  const withFallback = await s.request("PATCH", "/admin/api/apps/cc", {
    body: { aliases: { fast: "mock/zeta", ghost: "mock/gone" }, fallbacks: { ghost: ["mock/alpha"] } },
  });
  assert.equal(withFallback.status, 200);
  const warned = (withFallback.json() as { warnings?: string[] }).warnings ?? [];
  assert.ok(
    warned.some((w) => /"ghost" points to mock\/gone, .* its requests go to its fallback mock\/alpha\./.test(w)),
    JSON.stringify(warned),
  );
  const alone = await s.request("PATCH", "/admin/api/apps/cc", {
    body: { aliases: { fast: "mock/zeta", lonely: "mock/gone" } },
  });
  const said = (alone.json() as { warnings?: string[] }).warnings ?? [];
  assert.ok(
    said.some((w) =>
      /"lonely" points to mock\/gone, .* its requests are refused and \/v1\/models leaves it out/.test(w),
    ),
    JSON.stringify(said),
  );
});
