// DNS-rebinding guard for the OpenAI listener: on loopback, only loopback Host names are served. A request with more
// than one Host header is refused on either listener (Node keeps only the first, which a smuggler chooses).
import type { Request, RequestHandler } from "express";
import { PatchbayError } from "../../core/errors";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and [::1], with or without a numeric port; anything else in the
 *  header (e.g. `localhost:evil.com`, `[::1]evil.com`) is not a loopback host. */
export function isLoopbackHost(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const m = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(hostHeader.trim().toLowerCase());
  if (!m) return false;
  const host = m[1] ?? "";
  if (LOOPBACK_NAMES.has(host) || host.endsWith(".localhost")) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** How many Host headers the client sent (Node's `req.headers.host` silently keeps only the first). */
export function hostHeaderCount(req: Pick<Request, "rawHeaders">): number {
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]?.toLowerCase() === "host") n++;
  return n;
}

/** 400 for a request with several Host headers (RFC 9112 §3.2: a server must refuse it), else null. */
export function duplicateHostError(req: Pick<Request, "rawHeaders">): PatchbayError | null {
  if (hostHeaderCount(req) <= 1) return null;
  return new PatchbayError("invalid_request_error", "The request has more than one Host header; send exactly one.");
}

/** Refuses requests with several Host headers (400), and (403 `forbidden_host`) those whose Host is not a loopback
 *  name, unless LAN exposure is on. */
export function hostGuard(isLanExposed: () => boolean): RequestHandler {
  return (req, _res, next) => {
    const duplicate = duplicateHostError(req);
    if (duplicate) return next(duplicate);
    if (isLanExposed() || isLoopbackHost(req.headers.host)) return next();
    next(
      new PatchbayError(
        "forbidden_host",
        "This Patchbay API only answers on localhost. To reach it from other machines, turn on LAN exposure in Patchbay's settings.",
      ),
    );
  };
}
