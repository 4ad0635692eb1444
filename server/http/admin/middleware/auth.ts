// Admin authentication: `Authorization: Bearer` carrying the per-launch admin token (scripts, the CLI) or a dashboard
// session token (issue 16 item 9), and single-use login nonces that trade for a session token. No cookies at all:
// browsers send cookies to every port of 127.0.0.1, so another local server would receive them. The admin token
// itself never appears in a URL.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { ADMIN_API_PREFIX, adminApi, type EndpointDef } from "../../../../shared/admin-api";
import { PatchbayError } from "../../../core/errors";
import { bareCli, type CliCommand } from "../../../core/cli-command";

/** How a request proved it may use the admin API: the admin token, or a dashboard session's token. */
export type AdminAuth = "bearer" | "session" | null;

/** Constant-time string comparison (false on length mismatch without comparing contents). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(req: Request): string | null {
  const authz = req.headers.authorization;
  if (authz === undefined) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
  return m?.[1] ?? null;
}

/** Which credential, if any, the request's Bearer token is. */
export function authenticate(req: Request, adminToken: string, sessions?: DashboardSessions): AdminAuth {
  const token = bearerToken(req);
  if (token === null) return null;
  if (safeEqual(token, adminToken)) return "bearer";
  if (sessions?.isLive(token)) return "session";
  return null;
}

/** `METHOD path` of the rows callable without credentials (trading a login nonce for a session). */
const PUBLIC_ROWS: ReadonlySet<string> = new Set(
  (Object.values(adminApi) as EndpointDef[]).filter((d) => d.public).map((d) => `${d.method} ${d.path}`),
);

/** Paths of the client API (OpenAI's and Anthropic's), as a client sends them with or without `/v1`, and the API's
 *  `/healthz` (an uptime check on the wrong port must not see the dashboard page as healthy). */
const CLIENT_API_PATH =
  /^\/((v1\/)?(chat\/completions|responses|messages|completions|embeddings|models)(\/|$)|healthz$)/;

/** Requires auth on the admin API (401 JSON `admin_auth_required`). Page loads (GET/HEAD outside the API) pass: the
 *  dashboard's files hold no secret, and the page itself shows the sign-in screen when it has no session. Every
 *  credential travels in a header a browser never adds by itself, so a forged cross-site request carries none
 *  (the Origin check on writes still runs before this, as defence in depth). */
export function requireAuth(
  adminToken: string,
  sessions: DashboardSessions,
  apiBaseUrl: () => string | null = () => null,
  cli: CliCommand = bareCli,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const isApi = req.path.startsWith(ADMIN_API_PREFIX);
    if (!isApi && CLIENT_API_PATH.test(req.path)) {
      // A client pointed at the dashboard's port (its URL is the one a newcomer sees first): say where the API is.
      const api = apiBaseUrl();
      next(
        new PatchbayError(
          "admin_auth_required",
          `This is Patchbay's dashboard port, not its API: point the client at ${api ?? "the OpenAI API URL"}` +
            `${api ? "" : ` (\`${cli("serve")}\` prints it; the API is stopped now)`} (the Anthropic SDK and Claude Code: ` +
            `the same URL without /v1).`,
        ),
      );
      return;
    }
    if (!isApi && (req.method === "GET" || req.method === "HEAD")) return next();
    if (PUBLIC_ROWS.has(`${req.method} ${req.path.replace(/\/+$/, "")}`)) return next();
    const auth = authenticate(req, adminToken, sessions);
    if (auth === null) {
      next(
        new PatchbayError(
          "admin_auth_required",
          `Sign in to the Patchbay dashboard first: open it from the tray, use a login URL (\`${cli("serve")}\` prints ` +
            `one; \`${cli("dashboard")}\` makes a new one), or send Authorization: Bearer <adminToken> from ` +
            "runtime.json in the data folder.",
        ),
      );
      return;
    }
    res.locals.adminAuth = auth;
    res.locals.adminCredential = bearerToken(req);
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

  /** True when `nonce` is outstanding, without using it up (the login page checks before the page trades it). */
  has(nonce: string): boolean {
    let found = false;
    for (const n of this.live) if (safeEqual(n, nonce)) found = true;
    return found;
  }

  /** Outstanding nonces (for redaction). */
  outstanding(): string[] {
    return [...this.live];
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

/** Dashboard sessions: random tokens handed out for a consumed login nonce, held in memory only, so a restart of
 *  Patchbay ends every session (the dashboard then shows its sign-in screen). At most `max` live at once; more
 *  forgets the oldest. */
export class DashboardSessions {
  private readonly live: string[] = [];
  private readonly endListeners = new Set<(token: string) => void>();
  constructor(
    private readonly random: () => string = randomNonce,
    private readonly max = 32,
  ) {}

  /** Calls `listener` with each session token that ends (signed out or pushed out by newer sessions). */
  onEnd(listener: (token: string) => void): void {
    this.endListeners.add(listener);
  }

  /** A new session token. */
  open(): string {
    const token = this.random();
    this.live.push(token);
    if (this.live.length > this.max) this.ended(this.live.shift()!);
    return token;
  }

  private ended(token: string): void {
    for (const l of this.endListeners) l(token);
  }

  /** True when `token` is a live session. Compares every entry in constant time. */
  isLive(token: string): boolean {
    let found = false;
    for (const t of this.live) if (safeEqual(t, token)) found = true;
    return found;
  }

  /** Ends the session of `token` (sign out); unknown tokens are ignored. */
  revoke(token: string): void {
    const i = this.live.findIndex((t) => safeEqual(t, token));
    if (i >= 0) this.ended(this.live.splice(i, 1)[0]!);
  }

  /** Live session tokens (for redaction). */
  tokens(): string[] {
    return [...this.live];
  }
}
