// The OpenAI routes both OpenAI wires share: GET /v1/models and GET /v1/models/{id} in OpenAI's list shape, with
// OpenAI's error envelope. (Anthropic's clients take their own /v1/models route first; see anthropic-messages.)
import type { Wire } from "../../http/wire";
import { toOpenAiErrorBody } from "./error-envelope";
import { getModelRoute, listModelsRoute } from "./models.route";

/** OpenAI's models endpoints. */
export const openAiModelsWire: Wire = {
  name: "openai-models",
  errorBody: toOpenAiErrorBody,
  routes: (deps) => [
    { method: "get", path: "/models", handler: listModelsRoute(deps.catalog, deps.log) },
    { method: "get", path: "/models/*id", handler: getModelRoute(deps.catalog) },
  ],
};
