// What a wire is to the API app: a set of routes and an error envelope. Each wire (server/wires/*) declares one;
// the app mounts them from one table (server/wires/table.ts), and the route a request matches decides the envelope
// of any error it meets.
import type { Request, RequestHandler } from "express";
import type { PatchbayError } from "../core/errors";
import type { ResponseStore } from "../responses-store/response-store";
import type { ModelRequestDeps } from "./model-run/types";

/** What a wire's route handlers may use; built once in the composition root. */
export interface WireDeps extends ModelRequestDeps {
  /** Stored Responses (previous_response_id, item_reference, GET/DELETE /v1/responses/{id}). */
  responses: ResponseStore;
  log: (line: string) => void;
}

/** One route of a wire. The app mounts it with and without the `/v1` prefix, behind key authentication, and parses
 *  a JSON body (under the app's size limit) for POST. */
export interface WireRoute {
  method: "get" | "post" | "delete";
  /** The path after the optional `/v1`, in express syntax (`:id` one segment, `*id` the rest, `/` included). */
  path: string;
  /** Present: only requests it accepts take this route (a path two wires share, such as `/v1/models`, where
   *  Anthropic's clients are told apart by the `anthropic-version` header they always send). */
  accepts?: (req: Request) => boolean;
  handler: RequestHandler;
}

/** One API dialect: its routes and its error envelope. */
export interface Wire {
  /** Short name for logs and tests (`openai-chat`, `anthropic-messages`). */
  name: string;
  /** The body of an error in this wire's envelope (status and headers are the error writer's). */
  errorBody(err: PatchbayError): unknown;
  routes(deps: WireDeps): WireRoute[];
}

/** The wires the API app mounts, in match order, and the envelope for requests no wire's route matches. */
export interface WireTable {
  wires: readonly Wire[];
  unmatchedErrorBody(err: PatchbayError): unknown;
}

/** A route's path as a RegExp over `req.path`, `/v1` optional, matching like express (case-insensitive, an optional
 *  trailing slash). */
export function routePattern(path: string): RegExp {
  const body = path
    .split("/")
    .map((seg) =>
      seg.startsWith(":") ? "[^/]+" : seg.startsWith("*") ? ".+" : seg.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("/");
  return new RegExp(`^(?:/v1)?${body}/?$`, "i");
}
