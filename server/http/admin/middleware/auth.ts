// Admin authentication: the per-launch token in the `patchbay_admin` cookie or an `Authorization: Bearer` header,
// and single-use login nonces that trade for the cookie. The admin token itself never appears in a URL.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { ADMIN_API_PREFIX, ADMIN_COOKIE } from "../../../../shared/admin-api";
import { PatchbayError } from "../../../core/errors";
import { WRITE_METHODS, classifyOrigin } from "./security";
import { unauthenticatedPage } from "../pages";

/** How a request proved it may use the admin API. */
export type AdminAuth = "cookie" | "bearer" | null;

/** Constant-time string comparison (false on length mismatch without comparing contents). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** Value of one cookie from a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** Which credential, if any, carries the admin token. */
export function authenticate(req: Request, adminToken: string): AdminAuth {
  const authz = req.headers.authorization;
  if (authz !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
    if (m?.[1] && safeEqual(m[1], adminToken)) return "bearer";
  }
  const cookie = readCookie(req.headers.cookie, ADMIN_COOKIE);
  if (cookie !== undefined && safeEqual(cookie, adminToken)) return "cookie";
  return null;
}

/** Requires auth: 401 JSON `admin_auth_required` on the API, a small HTML page elsewhere. Cookie-authenticated
 *  writes must also prove same origin (Origin or Sec-Fetch-Site); Bearer requests cannot be forged by a browser. */
export function requireAuth(adminToken: string, adminOrigin: () => string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const auth = authenticate(req, adminToken);
    if (auth === null) {
      if (req.path.startsWith(ADMIN_API_PREFIX) || req.method !== "GET") {
        next(
          new PatchbayError(
            "admin_auth_required",
            "Sign in to the Patchbay dashboard first: open it from the tray, use the login URL `patchbay serve` printed, or send Authorization: Bearer <adminToken> from runtime.json in the data folder.",
          ),
        );
        return;
      }
      res.status(401).type("html").setHeader("Cache-Control", "no-store");
      res.send(unauthenticatedPage());
      return;
    }
    if (auth === "cookie" && WRITE_METHODS.has(req.method) && classifyOrigin(req, adminOrigin()) !== "same-origin") {
      next(
        new PatchbayError(
          "forbidden_origin",
          "Changes to Patchbay are only accepted from the Patchbay dashboard itself.",
        ),
      );
      return;
    }
    res.locals.adminAuth = auth;
    next();
  };
}

/** Default nonce source: 32 random bytes, base64url. */
export function randomNonce(): string {
  return randomBytes(32).toString("base64url");
}

/** Single-use login nonces. At most `max` are outstanding; issuing more forgets the oldest. */
export class LoginNonces {
  private readonly live: string[] = [];
  constructor(
    private readonly random: () => string = randomNonce,
    private readonly max = 16,
  ) {}

  /** A new nonce, valid until used once. */
  issue(): string {
    const nonce = this.random();
    this.live.push(nonce);
    if (this.live.length > this.max) this.live.shift();
    return nonce;
  }

  /** True (and forgets it) when `nonce` is outstanding. Compares every entry in constant time. */
  consume(nonce: string): boolean {
    let found = -1;
    this.live.forEach((n, i) => {
      if (safeEqual(n, nonce)) found = i;
    });
    if (found < 0) return false;
    this.live.splice(found, 1);
    return true;
  }
}
