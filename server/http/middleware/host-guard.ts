// DNS-rebinding guard for the OpenAI listener: on loopback, only loopback Host names are served.
import type { RequestHandler } from "express";
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

/** Refuses (403 `forbidden_host`) requests whose Host is not a loopback name, unless LAN exposure is on. */
export function hostGuard(isLanExposed: () => boolean): RequestHandler {
  return (req, _res, next) => {
    if (isLanExposed() || isLoopbackHost(req.headers.host)) return next();
    next(
      new PatchbayError(
        "forbidden_host",
        "This Patchbay API only answers on localhost. To reach it from other machines, turn on LAN exposure in Patchbay's settings.",
      ),
    );
  };
}
