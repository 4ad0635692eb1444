// encodeModelList / encodeModel: OpenAI list shape, aliases listed with owned_by patchbay-alias, unique ids.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ModelInfo } from "../../../../server/core/contract";
import { ALIAS_OWNER, encodeAlias, encodeModel, encodeModelList } from "../../../../server/wires/openai/models-encode";
import { modelInfo } from "../../../harness/neutral-fixtures";
import { ModelListSchema, ModelSchema } from "./wire-schemas";

function model(id: string, created = 1_700_000_000): ModelInfo {
  return modelInfo(id, { name: id.split("/")[1] ?? "", created });
}

test("models then sorted aliases, in the OpenAI list shape (MODELS-LIST-SHAPE)", () => {
  const list = encodeModelList([model("openai/gpt-x"), model("anthropic/claude-y", 0)], {
    smart: "anthropic/claude-y",
    fast: "openai/gpt-x#low",
    ghost: "none/missing",
  });
  ModelListSchema.parse(list);
  assert.deepEqual(list, {
    object: "list",
    data: [
      { id: "openai/gpt-x", object: "model", created: 1_700_000_000, owned_by: "openai" },
      { id: "anthropic/claude-y", object: "model", created: 0, owned_by: "anthropic" },
      { id: "fast", object: "model", created: 1_700_000_000, owned_by: ALIAS_OWNER },
      { id: "ghost", object: "model", created: 0, owned_by: ALIAS_OWNER },
      { id: "smart", object: "model", created: 0, owned_by: ALIAS_OWNER },
    ],
  });
});

test("ids are unique: an alias named like a model replaces it; duplicate models are listed once", () => {
  const list = encodeModelList([model("openai/gpt-x"), model("openai/gpt-x"), model("openai/gpt-z")], {
    "openai/gpt-x": "openai/gpt-z",
  });
  assert.deepEqual(
    list.data.map((m) => [m.id, m.owned_by]),
    [
      ["openai/gpt-z", "openai"],
      ["openai/gpt-x", ALIAS_OWNER],
    ],
  );
});

test("encodeModel from a catalog entry or a list entry; encodeAlias", () => {
  const fromInfo = encodeModel(model("openai/gpt-x"));
  ModelSchema.parse(fromInfo);
  assert.deepEqual(encodeModel(fromInfo), fromInfo);
  assert.deepEqual(encodeAlias("a", "openai/gpt-x#high", [model("openai/gpt-x", 5)]), {
    id: "a",
    object: "model",
    created: 5,
    owned_by: ALIAS_OWNER,
  });
  assert.deepEqual(encodeModelList([], {}), { object: "list", data: [] });
});
