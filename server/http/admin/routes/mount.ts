// Mounts every row of the admin endpoint table on an express router: parse params/query/body with the row's zod
// schemas (400 naming the field), call the row's handler (or stream), validate the output, send it.
import express, { type Request, type RequestHandler, type Response } from "express";
import type { z } from "zod";
import { adminApi, type EndpointDef, type JsonEndpointName } from "../../../../shared/admin-api";
import { PatchbayError, invalidRequest } from "../../../core/errors";
import type { AdminLogins, AdminRequestContext, AdminServices } from "../services";
import { handlers } from "./handlers";

/** Handlers of SSE rows (they own the response). */
export type StreamHandlers = Record<string, (req: Request, res: Response, query: unknown) => void>;

/** Turns the first zod issue into a 400 naming the field (`limits.concurrency`, `models.2`, `since`). */
export function zodToPatchbayError(error: z.ZodError, part: "params" | "query" | "body"): PatchbayError {
  const issue = error.issues[0];
  if (!issue) return invalidRequest(`Invalid ${part}.`, part);
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys" && issue.keys[0] !== undefined) path.push(issue.keys[0]);
  const field = path.length ? path.join(".") : part;
  const message = issue.code === "unrecognized_keys" ? `Unknown field '${field}'.` : `${field}: ${issue.message}`;
  return invalidRequest(message, field);
}

function parsePart<T>(
  schema: z.ZodType<T> | undefined,
  value: unknown,
  part: "params" | "query" | "body",
): T | undefined {
  if (!schema) return undefined;
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw zodToPatchbayError(r.error, part);
  return r.data;
}

/** True when the request carries a body (so its Content-Type matters). */
function hasBody(req: Request): boolean {
  const len = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (len !== undefined && len !== "0");
}

/** Checks and parses a row's input; throws PatchbayError 400/404/415. */
function parseInput(def: EndpointDef, req: Request, s: AdminServices) {
  if (def.desktopOnly && !s.desktop) {
    throw new PatchbayError("not_found", "Desktop actions are only available in the Patchbay desktop app.");
  }
  if (def.body && hasBody(req) && !req.is("application/json")) {
    throw new PatchbayError("unsupported_media_type", "Send the request body as application/json.");
  }
  return {
    params: parsePart(def.params, { ...req.params }, "params"),
    query: parsePart(def.query, { ...(req.query as Record<string, unknown>) }, "query"),
    body: parsePart(def.body, req.body, "body"),
  };
}

/** Builds the router for every row of {@link adminApi}. */
export function mountAdminApi(
  s: AdminServices,
  streams: StreamHandlers,
  log: (line: string) => void,
  logins: AdminLogins,
): express.Router {
  const router = express.Router({ caseSensitive: true, strict: false });
  router.use(express.json({ limit: "1mb", strict: true }));

  for (const [name, def] of Object.entries(adminApi) as [string, EndpointDef][]) {
    const method = def.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
    let route: RequestHandler;
    if (def.sse) {
      const stream = streams[name];
      if (!stream) throw new Error(`No stream handler for SSE endpoint ${name}`);
      route = (req, res) => {
        const input = parseInput(def, req, s);
        stream(req, res, input.query);
      };
    } else {
      const handler = handlers[name as JsonEndpointName] as (
        input: unknown,
        s: AdminServices,
        ctx: AdminRequestContext,
      ) => unknown;
      route = async (req, res) => {
        const input = parseInput(def, req, s);
        const credential = typeof res.locals.adminCredential === "string" ? res.locals.adminCredential : null;
        const result = await handler(input, s, { credential, logins });
        const out = def.output.safeParse(result);
        if (!out.success) {
          log(`admin: ${name} produced output that does not match its schema: ${out.error.message}`);
          throw new PatchbayError("internal_error", "Internal error in Patchbay; see the Patchbay log for details.");
        }
        res.status(def.successStatus ?? 200).setHeader("Cache-Control", "no-store");
        res.json(out.data);
      };
    }
    router[method](def.path, route);
  }
  return router;
}
