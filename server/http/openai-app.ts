// The OpenAI-compatible listener's express app: guards, auth, routes, and the OpenAI error envelope.
// Routes are thin; policy lives in the request runner and model resolver, OpenCode in the backend.
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import type { ModelInfo } from "../core/contract";
import type { AppsStore, KeysStore } from "../stores/types";
import { accessLog } from "./middleware/access-log";
import { anthropicErrorHandler, isAnthropicRequest } from "./middleware/anthropic-errors";
import { apiAuth, authOf } from "./middleware/api-auth";
import { bodyDeadline, type BodyDeadlineOptions } from "./middleware/body-deadline";
import { cors, restrictCorsToApp } from "./middleware/cors";
import { hostGuard } from "./middleware/host-guard";
import { openAiErrorHandler, openAiMethodNotAllowed, openAiNotFound } from "./middleware/openai-errors";
import { chatCompletionsRoute } from "./routes/chat.route";
import type { ModelRequestDeps } from "./model-run/types";
import { getAnthropicModelRoute, listAnthropicModelsRoute } from "./routes/anthropic-models.route";
import { countTokensRoute } from "./routes/count-tokens.route";
import { messagesRoute } from "./routes/messages.route";
import { getModelRoute, listModelsRoute } from "./routes/models.route";
import { responsesRoute } from "./routes/responses.route";
import { CODEX_ONLY_ENDPOINTS, codexOnlyEndpointRoute } from "./routes/codex-endpoints.route";
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
  /** Deadlines for receiving a request body (ms); see body-deadline.ts. */
  bodyDeadlines?: BodyDeadlineOptions;
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
  app.use(bodyDeadline(deps.bodyDeadlines));
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
  const listModels = listModelsRoute(catalog, deps.log);
  const json = perAppJsonBody();
  const postOnly = openAiMethodNotAllowed(["POST"]);
  const getOnly = openAiMethodNotAllowed(["GET", "HEAD"]);
  // Anthropic clients (Claude Code probes the base URL) get a 200 on the root.
  app.head("/", (_req, res) => void res.status(200).end());
  app.get("/", (_req, res) => void res.json({ status: "ok", service: "patchbay" }));
  // `/v1/models` answers in Anthropic's shape for Anthropic-style requests (anthropic-version or x-api-key header).
  const byWire =
    (anthropic: RequestHandler, openai: RequestHandler): RequestHandler =>
    (req, res, next) =>
      (isAnthropicRequest(req) ? anthropic : openai)(req, res, next);
  for (const prefix of ["/v1", ""]) {
    app.get(`${prefix}/models`, auth, byWire(listAnthropicModelsRoute(catalog), listModels));
    app.get(`${prefix}/models/*id`, auth, byWire(getAnthropicModelRoute(catalog), getModelRoute(catalog)));
    app.post(`${prefix}/chat/completions`, auth, json, chatCompletionsRoute(deps));
    app.post(`${prefix}/responses`, auth, json, responsesRoute(deps));
    app.get(`${prefix}/responses/:id`, auth, getStoredResponseRoute(deps.responses));
    app.delete(`${prefix}/responses/:id`, auth, deleteStoredResponseRoute(deps.responses));
    app.get(`${prefix}/responses/:id/input_items`, auth, listInputItemsRoute(deps.responses));
    app.post(`${prefix}/messages`, auth, json, messagesRoute(deps));
    app.post(`${prefix}/messages/count_tokens`, auth, json, countTokensRoute(catalog));
    for (const path of Object.keys(CODEX_ONLY_ENDPOINTS))
      app.post(`${prefix}/${path}`, auth, codexOnlyEndpointRoute(path));
    // Known routes with another method: 405 + Allow, not a misleading 404 (GET routes also answer HEAD).
    for (const route of ["chat/completions", "responses", "messages", "messages/count_tokens"])
      app.all(`${prefix}/${route}`, postOnly);
    for (const route of ["models", "models/*id"]) app.all(`${prefix}/${route}`, getOnly);
  }
  app.use(openAiNotFound);
  const openAiErrors = openAiErrorHandler(deps.log);
  const anthropicErrors = anthropicErrorHandler(deps.log);
  app.use(((err, req, res, next) =>
    (isAnthropicRequest(req) ? anthropicErrors : openAiErrors)(err, req, res, next)) as ErrorRequestHandler);
  return app;
}

/** JSON body parser honouring the authenticated app's `maxBodyBytes`; accepts any content type as JSON because
 *  some clients omit or mislabel it. */
function perAppJsonBody(): RequestHandler {
  const parsers = new Map<number, RequestHandler>();
  return (req, res, next) => {
    const limit = Math.min(authOf(res).app.limits.maxBodyBytes, MAX_BODY_BYTES_CEILING);
    // Refuse an announced body over the limit before reading a byte of it (the error handler closes the connection).
    const announced = Number(req.headers["content-length"]);
    if (Number.isFinite(announced) && announced > limit) {
      return next(Object.assign(new Error("request entity too large"), { type: "entity.too.large", limit }));
    }
    let parser = parsers.get(limit);
    if (!parser) {
      parser = express.json({ limit, strict: false, type: () => true });
      parsers.set(limit, parser);
    }
    parser(req, res, next);
  };
}
