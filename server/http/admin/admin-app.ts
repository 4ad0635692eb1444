// createAdminApp: the admin listener's express app (bound to 127.0.0.1 by the composition root). Order of checks:
// security headers → Host (DNS rebinding) → login page → Origin on writes → auth (API only) → API rows → renderer.
// Must not bind sockets or build stores; no CORS headers, ever.
import express, { type Request, type Response } from "express";
import { ADMIN_API_PREFIX } from "../../../shared/admin-api";
import { DashboardSessions, LoginNonces, requireAuth } from "./middleware/auth";
import { adminErrorHandler, apiNotFound } from "./middleware/errors";
import { hostGuard, originGuard, securityHeaders } from "./middleware/security";
import { loginFailedPage } from "./pages";
import { mountAdminApi } from "./routes/mount";
import { createStreamHandlers } from "./routes/streams";
import type { AdminApp, AdminAppOptions, AdminLogins, AdminServices } from "./services";
import { SseRegistry } from "./sse";
import { serveRenderer, serveRendererIndex } from "./static";

export type { AdminApp, AdminAppOptions, AdminServices } from "./services";

const defaultLog = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Builds the admin app. See {@link AdminServices} for what the caller provides. */
export function createAdminApp(services: AdminServices, options: AdminAppOptions = {}): AdminApp {
  const log = services.log ?? defaultLog;
  const nonces = new LoginNonces(options.randomToken);
  const sessions = new DashboardSessions();
  const createLoginUrl = (): string => `${services.adminOrigin().replace(/\/+$/, "")}/login?token=${nonces.issue()}`;
  const logins: AdminLogins = {
    exchange: (nonce) => (nonces.consume(nonce) ? sessions.open() : null),
    revoke: (token) => sessions.revoke(token),
    createLoginUrl,
  };
  const registry = new SseRegistry();
  sessions.onEnd((token) => registry.closeFor(token)); // a stream is authorised when it opens: end it with its session
  const streams = createStreamHandlers(services, registry, {
    heartbeatMs: options.heartbeatMs ?? 15_000,
    slowClientMs: options.slowClientMs ?? 1_000,
    replay: options.replay ?? 100,
  });

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", false);
  app.set("query parser", "simple");

  app.use(securityHeaders);
  app.use(hostGuard(services.adminOrigin));

  // The login link's page: the dashboard itself, which trades the nonce for a session token (POST
  // /admin/api/dashboard-session) and keeps that in sessionStorage. Nothing here sets a cookie (issue 16 item 9). The nonce is
  // only checked, not used up, so a used or unknown link gets the "expired" page at once.
  app.get("/login", (req: Request, res: Response, next) => {
    res.setHeader("Cache-Control", "no-store");
    const token = typeof req.query.token === "string" ? req.query.token : "";
    if (token && nonces.has(token)) {
      serveRendererIndex(services.staticDir, res, next);
      return;
    }
    res
      .status(401)
      .type("html")
      .send(loginFailedPage(services.cli("dashboard")));
  });

  app.use(originGuard(services.adminOrigin));
  app.use(requireAuth(services.adminToken, sessions, () => services.status().api.baseUrl, services.cli));
  app.use(mountAdminApi(services, streams, log, logins));
  app.use(ADMIN_API_PREFIX, apiNotFound);
  app.use((req, _res, next) => {
    if (req.method === "GET" && req.accepts("html") && !req.path.startsWith(ADMIN_API_PREFIX)) services.onVisit?.();
    next();
  });
  app.use(serveRenderer(services.staticDir));
  app.use(apiNotFound);
  app.use(adminErrorHandler(log));

  return {
    handler: app,
    createLoginUrl,
    secrets: () => [...nonces.outstanding(), ...sessions.tokens()],
    close: () => registry.closeAll(),
  };
}
