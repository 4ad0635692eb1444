// GET /v1/models and GET /v1/models/{id}: the app's allowed models plus its aliases, in the OpenAI list shape.
import type { RequestHandler } from "express";
import type { ModelInfo } from "../../core/contract";
import { findListedModel, modelIdParam } from "../../core/model-listing";
import { modelsForApp } from "../../core/model-resolver";
import { encodeModel, encodeModelList } from "./models-encode";
import { authOf } from "../../http/middleware/api-auth";

/** GET /v1/models. Aliases whose target no provider offers are left out; `log` hears of each such alias once per
 *  app and target. */
export function listModelsRoute(
  catalog: () => Promise<ModelInfo[]>,
  log: (line: string) => void = () => undefined,
): RequestHandler {
  const reported = new Set<string>();
  return async (_req, res) => {
    const app = authOf(res).app;
    const { models, aliases, unavailable } = modelsForApp(app, await catalog());
    for (const [alias, target] of Object.entries(unavailable)) {
      const key = JSON.stringify([app.id, alias, target]);
      if (reported.has(key)) continue;
      reported.add(key);
      log(
        `app ${app.name}: alias "${alias}" points to ${target}, which no connected provider offers; not listed in /v1/models`,
      );
    }
    res.json(encodeModelList(models, aliases));
  };
}

/** GET /v1/models/{id} (see core/model-listing). */
export function getModelRoute(catalog: () => Promise<ModelInfo[]>): RequestHandler {
  return async (req, res) => {
    const { models, aliases } = modelsForApp(authOf(res).app, await catalog());
    res.json(encodeModel(findListedModel(encodeModelList(models, aliases).data, modelIdParam(req.params))));
  };
}
