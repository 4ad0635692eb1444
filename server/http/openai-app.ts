// The OpenAI-compatible listener's express app: guards, auth, routes, and the OpenAI error envelope.
// Routes are thin; policy lives in the request runner and model resolver, OpenCode in the backend.
import express, { type RequestHandler } from "express";
import type { ModelInfo } from "../core/contract";
import type { AppsStore, KeysStore } from "../stores/types";
import { accessLog } from "./middleware/access-log";
import { apiAuth, authOf } from "./middleware/api-auth";
import { cors, restrictCorsToApp } from "./middleware/cors";
import { hostGuard } from "./middleware/host-guard";
import { openAiErrorHandler, openAiNotFound } from "./middleware/openai-errors";
import { chatCompletionsRoute } from "./routes/chat.route";
import type { ModelRequestDeps } from "./routes/model-request";
import { getModelRoute, listModelsRoute } from "./routes/models.route";
import { responsesRoute } from "./routes/responses.route";
import {
  deleteStoredResponseRoute,
  getStoredResponseRoute,
  listInputItemsRoute,
} from "./routes/stored-responses.route";
import type { ResponseStore } from "../responses-store/response-store";

/** Dependencies of the OpenAI listener. */
export interface OpenAiAppDeps extends ModelRequestDeps {
  apps: AppsStore;
  keys: KeysStore;
  /** Stored Responses (previous_response_id, item_reference, GET/DELETE /v1/responses/{id}). */
  responses: ResponseStore;
  lanExposure: () => boolean;
  /** Reports the backend's health for /healthz. */
  health: () => { ok: boolean; opencode: string };
  log: (line: string) => void;
}

/** Hard cap on any body before the app is known (bytes); the app's own limit applies after auth. */
const MAX_BODY_BYTES_CEILING = 100 * 1024 * 1024;

/** Builds the express app served on the OpenAI port. */
export function createOpenAiApp(deps: OpenAiAppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");

  app.use(accessLog(deps.requestLog, deps.now));
  app.use(hostGuard(deps.lanExposure));
  app.use(cors(() => deps.apps.list().flatMap((a) => a.limits.corsOrigins)));

  const authenticate = apiAuth(deps.keys, deps.apps);
  const appCors = restrictCorsToApp();
  const auth: RequestHandler = (req, res, next) =>
    authenticate(req, res, (err?: unknown) => (err ? next(err) : appCors(req, res, next)));
  const health: RequestHandler = (_req, res) => {
    const h = deps.health();
    res.status(h.ok ? 200 : 503).json({ status: h.ok ? "ok" : "degraded", opencode: h.opencode });
  };
  // With LAN exposure every route needs a key (/healthz and unknown routes too; CORS preflights stay open above).
  // On loopback /healthz is open.
  app.use((req, res, next) => (deps.lanExposure() ? auth(req, res, next) : next()));
  app.get("/healthz", health);

  const catalog = (): Promise<ModelInfo[]> => deps.catalog();
  const json = perAppJsonBody();
  for (const prefix of ["/v1", ""]) {
    app.get(`${prefix}/models`, auth, listModelsRoute(catalog));
    app.get(`${prefix}/models/*id`, auth, getModelRoute(catalog));
    app.post(`${prefix}/chat/completions`, auth, json, chatCompletionsRoute(deps));
    app.post(`${prefix}/responses`, auth, json, responsesRoute(deps));
    app.get(`${prefix}/responses/:id`, auth, getStoredResponseRoute(deps.responses));
    app.delete(`${prefix}/responses/:id`, auth, deleteStoredResponseRoute(deps.responses));
    app.get(`${prefix}/responses/:id/input_items`, auth, listInputItemsRoute(deps.responses));
  }
  app.use(openAiNotFound);
  app.use(openAiErrorHandler(deps.log));
  return app;
}

/** JSON body parser honouring the authenticated app's `maxBodyBytes`; accepts any content type as JSON because
 *  some clients omit or mislabel it. */
function perAppJsonBody(): RequestHandler {
  const parsers = new Map<number, RequestHandler>();
  return (req, res, next) => {
    const limit = Math.min(authOf(res).app.limits.maxBodyBytes, MAX_BODY_BYTES_CEILING);
    let parser = parsers.get(limit);
    if (!parser) {
      parser = express.json({ limit, strict: false, type: () => true });
      parsers.set(limit, parser);
    }
    parser(req, res, next);
  };
}
