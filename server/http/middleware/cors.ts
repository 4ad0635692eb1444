// CORS for the OpenAI listener: no CORS headers at all unless an app lists the request's Origin.
// Preflights carry no key, so they are answered for origins that any app allows; real responses too
// (so a browser client can read a 401), and the app's own list decides once a key is known.
import type { RequestHandler } from "express";
import { BUDGET_HEADER_NAMES } from "../../budgets/headers";

/** Response headers a browser client may read: Patchbay's own, retry and request ids, and every budget header. */
const EXPOSED_HEADERS = [
  "x-patchbay-session",
  "x-patchbay-warnings",
  "x-patchbay-served-model",
  "x-patchbay-skipped",
  "retry-after",
  "x-request-id",
  ...BUDGET_HEADER_NAMES,
].join(", ");

/** Returns the origins allowed by any app (`*` allowed as a wildcard). */
export type AllowedOrigins = () => readonly string[];

function originAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.includes("*") || allowed.includes(origin);
}

/** Adds CORS headers for listed origins and answers preflight `OPTIONS` (204) without auth. */
export function cors(allowedOrigins: AllowedOrigins): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (!origin || !originAllowed(origin, allowedOrigins())) {
      if (req.method === "OPTIONS") {
        res.status(204).end();
        return;
      }
      return next();
    }
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.append("Vary", "Origin");
    res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    if (req.method === "OPTIONS") {
      res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      const requested = req.headers["access-control-request-headers"];
      res.setHeader(
        "Access-Control-Allow-Headers",
        requested && requested.length ? requested : "authorization, content-type",
      );
      res.append("Vary", "Access-Control-Request-Headers");
      res.setHeader("Access-Control-Max-Age", "600");
      res.status(204).end();
      return;
    }
    next();
  };
}

/** After authentication: the app's own `corsOrigins` decide. Removes the CORS headers {@link cors} added for an origin
 *  that another app allows but this key's app does not. */
export function restrictCorsToApp(): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    const auth = res.locals.auth as { app: { limits: { corsOrigins: readonly string[] } } } | undefined;
    if (
      origin &&
      auth &&
      res.getHeader("Access-Control-Allow-Origin") &&
      !originAllowed(origin, auth.app.limits.corsOrigins)
    ) {
      res.removeHeader("Access-Control-Allow-Origin");
      res.removeHeader("Access-Control-Expose-Headers");
    }
    next();
  };
}
