// GET /v1/models and GET /v1/models/{id}: the app's allowed models plus its aliases, in the OpenAI list shape.
import type { RequestHandler } from "express";
import type { ModelInfo } from "../../core/contract";
import { PatchbayError } from "../../core/errors";
import { modelsForApp } from "../../core/model-resolver";
import { encodeModel, encodeModelList } from "../../openai/models/encode";
import { authOf } from "../middleware/api-auth";

/** GET /v1/models. */
export function listModelsRoute(catalog: () => Promise<ModelInfo[]>): RequestHandler {
  return async (_req, res) => {
    const { models, aliases } = modelsForApp(authOf(res).app, await catalog());
    res.json(encodeModelList(models, aliases));
  };
}

/** GET /v1/models/{id}; ids contain `/`, sent raw or as `%2F`. */
export function getModelRoute(catalog: () => Promise<ModelInfo[]>): RequestHandler {
  return async (req, res) => {
    const raw = (req.params as Record<string, string | string[]>).id;
    const id = Array.isArray(raw) ? raw.join("/") : (raw ?? "");
    const { models, aliases } = modelsForApp(authOf(res).app, await catalog());
    const list = encodeModelList(models, aliases);
    const found = list.data.find((m) => m.id === id);
    if (!found) {
      throw new PatchbayError("model_not_found", `The model '${id}' does not exist or this key may not use it.`, {
        param: "model",
      });
    }
    res.json(encodeModel(found));
  };
}
