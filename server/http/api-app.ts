// The API listener's express app: guards, auth, then every wire's routes mounted from the wire table; the route a
// request takes decides its error envelope. Routes are thin; policy lives in the request runner and model resolver.
import express, { type RequestHandler } from "express";
import type { PatchbayError } from "../core/errors";
import type { AppsStore, KeysStore } from "../stores/types";
import { accessLog } from "./middleware/access-log";
import { apiAuth, authOf } from "./middleware/api-auth";
import { bodyDeadline, type BodyDeadlineOptions } from "./middleware/body-deadline";
import { cors, restrictCorsToApp } from "./middleware/cors";
import { hostGuard } from "./middleware/host-guard";
import { methodNotAllowed, routeNotFound, wireErrorHandler } from "./middleware/wire-errors";
import { routePattern, type Wire, type WireDeps, type WireRoute, type WireTable } from "./wire";

/** Dependencies of the API app. */
export interface ApiAppDeps extends WireDeps {
  apps: AppsStore;
  keys: KeysStore;
  lanExposure: () => boolean;
  /** Reports the backend's health for /healthz. */
  health: () => { ok: boolean; opencode: string };
  /** A client's first sign (`HEAD /`, Claude Code's probe seconds before its first prompt): wake OpenCode early. */
  onClientProbe?: () => void;
  /** Deadlines for receiving a request body (ms); see body-deadline.ts. */
  bodyDeadlines?: BodyDeadlineOptions;
}

/** Hard cap on any body before the app is known (bytes); the app's own limit applies after auth. */
const MAX_BODY_BYTES_CEILING = 100 * 1024 * 1024;

/** A wire's route with its path matcher. */
interface Mounted {
  wire: Wire;
  route: WireRoute;
  pattern: RegExp;
}

/** Builds the express app served on the API port: guards, auth, and every wire of `table`. */
export function createApiApp(deps: ApiAppDeps, table: WireTable): express.Express {
  const mounted: Mounted[] = table.wires.flatMap((wire) =>
    wire.routes(deps).map((route) => ({ wire, route, pattern: routePattern(route.path) })),
  );
  // The route a request takes (or would take, with another method) decides its error envelope, also for errors met
  // before routing (host guard, LAN key check, body deadline).
  const envelope = (req: express.Request): ((err: PatchbayError) => unknown) =>
    mounted.find((m) => m.pattern.test(req.path) && (m.route.accepts?.(req) ?? true))?.wire.errorBody ??
    table.unmatchedErrorBody;

  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");

  app.use(accessLog(deps.requestLog, deps.now));
  app.use(bodyDeadline(deps.bodyDeadlines, (req, err) => envelope(req)(err)));
  app.use(hostGuard(deps.lanExposure));
  app.use(cors(() => deps.apps.list().flatMap((a) => a.limits.corsOrigins)));

  const authenticate = apiAuth(deps.keys, deps.apps, deps.cli);
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

  const json = perAppJsonBody();
  // Anthropic clients (Claude Code probes the base URL) get a 200 on the root.
  app.head("/", (_req, res) => {
    deps.onClientProbe?.();
    res.status(200).end();
  });
  app.get("/", (_req, res) => void res.json({ status: "ok", service: "patchbay" }));
  for (const prefix of ["/v1", ""]) {
    for (const { route } of mounted) {
      const accepts = route.accepts;
      const gate: RequestHandler[] = accepts ? [(req, _res, next) => next(accepts(req) ? undefined : "route")] : [];
      const body = route.method === "post" ? [json] : [];
      app[route.method](`${prefix}${route.path}`, ...gate, auth, ...body, route.handler);
    }
    // Known paths with another method: 405 + Allow, not a misleading 404 (GET routes also answer HEAD).
    for (const [path, methods] of allowedMethods(mounted)) app.all(`${prefix}${path}`, methodNotAllowed(methods));
  }
  app.use(routeNotFound);
  app.use(wireErrorHandler(deps.log, envelope));
  return app;
}

/** Each mounted path with the methods its routes answer (`GET` implies `HEAD`). */
function allowedMethods(mounted: readonly Mounted[]): Map<string, string[]> {
  const byPath = new Map<string, Set<string>>();
  for (const { route } of mounted) {
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method.toUpperCase());
    if (route.method === "get") methods.add("HEAD");
    byPath.set(route.path, methods);
  }
  return new Map([...byPath].map(([path, methods]) => [path, [...methods]]));
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
