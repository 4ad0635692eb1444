// Serves the built renderer (no credentials needed: it holds no secret): files from staticDir, and index.html for any other page path so the
// client-side router can handle it. Never serves anything under /admin/api.
import { existsSync } from "node:fs";
import path from "node:path";
import express, { type NextFunction, type Request, type Response } from "express";
import { ADMIN_API_PREFIX } from "../../../shared/admin-api";
import { notBuiltPage } from "./pages";

/** Static files plus the SPA fallback. */
export function serveRenderer(staticDir: string): express.Router {
  const router = express.Router();
  const root = path.resolve(staticDir);
  router.use(
    express.static(root, {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: (res, file) => {
        // Hashed assets can be cached; index.html must always be fresh (it names the current assets).
        res.setHeader(
          "Cache-Control",
          file.includes(`${path.sep}assets${path.sep}`) ? "private, max-age=31536000, immutable" : "no-cache",
        );
      },
    }),
  );
  router.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.path.startsWith(ADMIN_API_PREFIX)) {
      next();
      return;
    }
    const last = req.path.split("/").pop() ?? "";
    if (last.includes(".")) {
      // A missing file (e.g. an old asset): a plain 404, not the app shell.
      res.status(404).type("text").send("Not found");
      return;
    }
    serveRendererIndex(root, res, next);
  });
  return router;
}

/** The notice for a dashboard that is not built (`serve` prints it at start, not only the page when opened), or null. */
export function rendererNotice(staticDir: string): string | null {
  return existsSync(path.join(path.resolve(staticDir), "index.html"))
    ? null
    : "The dashboard is not built, so its page says so: run `npm run build:renderer` in the Patchbay folder " +
        "(`npm start` builds it on its first run), then open the login URL.";
}

/** Sends the dashboard's index.html (503 with instructions when the renderer is not built). The page holds no
 *  secret, so it is served without credentials: it shows its own sign-in screen when it has no session. */
export function serveRendererIndex(staticDir: string, res: Response, next: NextFunction): void {
  const index = path.join(path.resolve(staticDir), "index.html");
  if (!existsSync(index)) {
    res.status(503).type("html").send(notBuiltPage());
    return;
  }
  if (!res.getHeader("Cache-Control")) res.setHeader("Cache-Control", "no-cache");
  res.sendFile(index, (err?: Error) => {
    if (err) next(err);
  });
}
