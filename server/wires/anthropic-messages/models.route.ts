// GET /v1/models and GET /v1/models/{id} in Anthropic's shape, for Anthropic-style requests (the app's allowed models
// plus its aliases). The OpenAI-shaped routes live in models.route.ts.
import type { RequestHandler } from "express";
import type { ModelInfo } from "../../core/contract";
import { PatchbayError } from "../../core/errors";
import { findListedModel, modelIdParam } from "../../core/model-listing";
import { modelsForApp } from "../../core/model-resolver";
import { encodeAnthropicModelList, encodeAnthropicModels } from "./models-encode";
import { authOf } from "../../http/middleware/api-auth";
import { claudeCodeModelList, isClaudeCodeDiscovery } from "../../core/claude-code-models";

function queryString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** GET /v1/models (`limit`, `after_id`, `before_id`). A bad `limit` → 400. */
export function listAnthropicModelsRoute(catalog: () => Promise<ModelInfo[]>): RequestHandler {
  return async (req, res) => {
    const { models, aliases } = modelsForApp(authOf(res).app, await catalog());
    const rawLimit = queryString(req.query.limit);
    const limit = rawLimit === undefined ? undefined : Number(rawLimit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000)) {
      throw new PatchbayError("invalid_request_error", "limit: must be an integer between 1 and 1000.", {
        param: "limit",
      });
    }
    const afterId = queryString(req.query.after_id);
    const beforeId = queryString(req.query.before_id);
    const all = encodeAnthropicModels(models, aliases);
    // Claude Code's picker keeps only ids naming claude/anthropic: it gets every model under a name it keeps.
    res.json(
      encodeAnthropicModelList(isClaudeCodeDiscovery(req.get("user-agent")) ? claudeCodeModelList(all) : all, {
        ...(limit === undefined ? {} : { limit }),
        ...(afterId === undefined ? {} : { afterId }),
        ...(beforeId === undefined ? {} : { beforeId }),
      }),
    );
  };
}

/** GET /v1/models/{id} (see core/model-listing). */
export function getAnthropicModelRoute(catalog: () => Promise<ModelInfo[]>): RequestHandler {
  return async (req, res) => {
    const { models, aliases } = modelsForApp(authOf(res).app, await catalog());
    res.json(findListedModel(encodeAnthropicModels(models, aliases), modelIdParam(req.params)));
  };
}
