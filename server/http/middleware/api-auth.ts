// Bearer-key authentication for the OpenAI listener: key → app. Keys are never echoed or logged.
import type { Request, RequestHandler, Response } from "express";
import type { App } from "../../../shared/apps";
import { PatchbayError } from "../../core/errors";
import type { AppsStore, KeysStore } from "../../stores/types";
import type { CliCommand } from "../../core/cli-command";

/** What a successful authentication leaves in `res.locals.auth`. */
export interface ApiAuth {
  app: App;
  keyPrefix: string;
}

/** Extracts the presented key from `Authorization: Bearer <key>` (scheme case-insensitive), else from `x-api-key`
 *  (the Anthropic SDK's header), else null. */
export function presentedKey(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) {
    const apiKey = req.headers["x-api-key"];
    const value = (Array.isArray(apiKey) ? apiKey[0] : apiKey)?.trim();
    return value ? value : null;
  }
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

/** Authenticates the request or fails with 401 `missing_api_key` / `invalid_api_key`; `cli` names the key command. */
export function apiAuth(keys: KeysStore, apps: AppsStore, cli: CliCommand): RequestHandler {
  return (req, res, next) => {
    if (res.locals.auth) return next(); // already authenticated (LAN mode checks every route up front)
    const key = presentedKey(req);
    const header = req.headers.authorization;
    if (!key && header) {
      // A header that is not `Bearer <key>` (a bare key, another scheme): say so, rather than that no key came.
      const scheme = /^\s*(\S+)(\s|$)/.exec(header)?.[1] ?? "";
      return next(
        new PatchbayError(
          "invalid_api_key",
          /^pb-/.test(scheme)
            ? "The Authorization header holds a bare key: send 'Authorization: Bearer <key>' (or 'x-api-key: <key>')."
            : "The Authorization header is not 'Bearer <key>': send 'Authorization: Bearer <key>' (or 'x-api-key: <key>') with a key created for your app in Patchbay.",
        ),
      );
    }
    if (!key) {
      return next(
        // OpenAI answers a missing key with the same 401 code as a wrong one; clients branch on it.
        new PatchbayError(
          "invalid_api_key",
          "Missing API key. Send 'Authorization: Bearer <key>' (or 'x-api-key: <key>') with a key created for your app in Patchbay.",
        ),
      );
    }
    const match = keys.verify(key);
    const app = match ? apps.get(match.app) : undefined;
    if (!match || !app) {
      return next(
        new PatchbayError(
          "invalid_api_key",
          `Incorrect API key provided. Create a key for your app in the Patchbay dashboard (or \`${cli("key create <app>")}\`).`,
        ),
      );
    }
    const auth: ApiAuth = { app, keyPrefix: match.prefix };
    res.locals.auth = auth;
    next();
  };
}

/** The authenticated app of a request that passed {@link apiAuth}. */
export function authOf(res: Response): ApiAuth {
  const auth = res.locals.auth as ApiAuth | undefined;
  if (!auth) throw new PatchbayError("missing_api_key", "Missing API key.");
  return auth;
}
