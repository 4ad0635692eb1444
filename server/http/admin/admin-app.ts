// createAdminApp: the admin listener's express app (bound to 127.0.0.1 by the composition root). Order of checks:
// security headers → Host (DNS rebinding) → one-time login → Origin on writes → auth → API rows → renderer.
// Must not bind sockets or build stores; no CORS headers, ever.
import express, { type Request, type Response } from "express";
import { ADMIN_API_PREFIX, ADMIN_COOKIE } from "../../../shared/admin-api";
import { LoginNonces, authenticate } from "./middleware/auth";
import { requireAuth } from "./middleware/auth";
import { adminErrorHandler, apiNotFound } from "./middleware/errors";
import { hostGuard, originGuard, securityHeaders } from "./middleware/security";
import { loginFailedPage } from "./pages";
import { mountAdminApi } from "./routes/mount";
import { createStreamHandlers } from "./routes/streams";
import type { AdminApp, AdminAppOptions, AdminServices } from "./services";
import { SseRegistry } from "./sse";
import { serveRenderer } from "./static";

export type { AdminApp, AdminAppOptions, AdminServices } from "./services";

const defaultLog = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Builds the admin app. See {@link AdminServices} for what the caller provides. */
export function createAdminApp(services: AdminServices, options: AdminAppOptions = {}): AdminApp {
  const log = services.log ?? defaultLog;
  const nonces = new LoginNonces(options.randomToken);
  const registry = new SseRegistry();
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

  // One-time login: trades a nonce for the admin cookie, then the nonce is gone.
  app.get("/login", (req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    const token = typeof req.query.token === "string" ? req.query.token : "";
    if (token && nonces.consume(token)) {
      res.cookie(ADMIN_COOKIE, services.adminToken, { httpOnly: true, sameSite: "strict", path: "/" });
      res.redirect(303, "/");
      return;
    }
    if (authenticate(req, services.adminToken) !== null) {
      res.redirect(303, "/");
      return;
    }
    res.status(401).type("html").send(loginFailedPage());
  });

  app.use(originGuard(services.adminOrigin));
  app.use(requireAuth(services.adminToken, services.adminOrigin));
  app.use(mountAdminApi(services, streams, log));
  app.use(ADMIN_API_PREFIX, apiNotFound);
  app.use(serveRenderer(services.staticDir));
  app.use(apiNotFound);
  app.use(adminErrorHandler(log));

  return {
    handler: app,
    createLoginUrl: () => `${services.adminOrigin().replace(/\/+$/, "")}/login?token=${nonces.issue()}`,
    close: () => registry.closeAll(),
  };
}
