// The shape of one admin API row (shared/admin-api.ts holds the table), the types a caller and a handler derive
// from a row, and where the API lives (its path prefix, the dashboard's session key). No Node, no DOM.
import type { z } from "zod";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Prefix of every admin API path. */
export const ADMIN_API_PREFIX = "/admin/api";
/** Where the dashboard keeps its session token: `sessionStorage`, which belongs to one origin (scheme, host and
 *  port), so no other local server can read it, and nothing sends it by itself (issue 16 item 9). */
export const SESSION_STORAGE_KEY = "patchbay.session";

/** One admin endpoint. `params`/`query`/`body` are absent when the endpoint takes none. */
export interface EndpointDef {
  method: HttpMethod;
  /** Express-style path with `:param` segments, always under {@link ADMIN_API_PREFIX}. */
  path: `/admin/api${string}`;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** JSON response body; for `sse` rows, the `data` of each event. */
  output: z.ZodType;
  /** HTTP status on success (default 200). */
  successStatus?: number;
  /** Server-sent events (`text/event-stream`), one JSON `data:` per event; not callable through the JSON client. */
  sse?: true;
  /** Callable without credentials (only the login-nonce exchange). */
  public?: true;
  /** Only served when a DesktopHost is present (else 404 `not_found`); the UI hides it when `status.desktop` is false. */
  desktopOnly?: true;
  summary: string;
}

type InputPart<E, K extends "params" | "query" | "body"> = E extends { [P in K]: infer S extends z.ZodType }
  ? object extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: undefined };

/** What a caller passes to an endpoint: `{params, query, body}`, each only where the row has it. */
export type EndpointInput<E> = InputPart<E, "params"> & InputPart<E, "query"> & InputPart<E, "body">;
/** Parsed input as a handler receives it (defaults applied, coerced). */
export type EndpointParsedInput<E> = {
  params: E extends { params: infer S extends z.ZodType } ? z.output<S> : undefined;
  query: E extends { query: infer S extends z.ZodType } ? z.output<S> : undefined;
  body: E extends { body: infer S extends z.ZodType } ? z.output<S> : undefined;
};
/** Response body of an endpoint (for SSE rows: one event's data). */
export type EndpointOutput<E> = E extends { output: infer S extends z.ZodType } ? z.output<S> : never;
