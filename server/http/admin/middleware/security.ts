// Admin listener guards that run before auth: security headers, the Host check (DNS rebinding) and the Origin check
// on writes (CSRF). Never sets CORS headers: the admin API is same-origin only (DESIGN §1).
import type { NextFunction, Request, Response } from "express";
import { PatchbayError } from "../../../core/errors";
import { duplicateHostError } from "../../middleware/host-guard";

/** Methods that change state and therefore need a same-origin proof. */
export const WRITE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Content Security Policy of the dashboard: own scripts only; inline styles allowed (charts set style attributes). */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

/** Sets headers every admin response carries. `Referrer-Policy: no-referrer` keeps a login URL's nonce out of
 *  Referer headers; CORP/COOP stop other origins from embedding or opening our responses. */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Content-Security-Policy", CSP);
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  next();
}

/** `host:port` of an origin such as `http://127.0.0.1:53111`, lowercased. */
export function originHost(origin: string): string {
  return new URL(origin).host.toLowerCase();
}

/** 400 for several Host headers; 403 `forbidden_host` unless the Host header is exactly the admin origin's host:port. A DNS-rebinding page reaches
 *  us with its own host name in Host, so this alone defeats it. */
export function hostGuard(adminOrigin: () => string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const duplicate = duplicateHostError(req);
    if (duplicate) return next(duplicate);
    const host = (req.headers.host ?? "").toLowerCase();
    if (host !== originHost(adminOrigin())) {
      next(
        new PatchbayError(
          "forbidden_host",
          "This address is not allowed for the Patchbay dashboard; open it through the URL Patchbay printed.",
        ),
      );
      return;
    }
    next();
  };
}

/** Outcome of the Origin check for one request. */
export type OriginVerdict = "same-origin" | "cross-origin" | "unknown";

/** Classifies a request by its `Origin`, else `Sec-Fetch-Site`. Browsers send at least one of them on every
 *  write; scripts (curl with a Bearer token) send neither, which is "unknown". */
export function classifyOrigin(req: Request, adminOrigin: string): OriginVerdict {
  const origin = req.headers.origin;
  if (origin !== undefined) return origin.toLowerCase() === adminOrigin.toLowerCase() ? "same-origin" : "cross-origin";
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined) return site === "same-origin" ? "same-origin" : "cross-origin";
  return "unknown";
}

/** 403 `forbidden_origin` for writes from another origin (before auth, so a forged cookie request learns nothing). */
export function originGuard(adminOrigin: () => string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (WRITE_METHODS.has(req.method) && classifyOrigin(req, adminOrigin()) === "cross-origin") {
      next(
        new PatchbayError(
          "forbidden_origin",
          "Changes to Patchbay are only accepted from the Patchbay dashboard itself.",
        ),
      );
      return;
    }
    next();
  };
}
