// Typed admin API client derived from the endpoint table: one method per JSON row, outputs parsed with the row's
// zod schema, failures thrown as AdminApiError {code,message}. Works in the browser and in Node (any fetch).
// Must not know about React, the DOM or Node: the caller passes its fetch.
import {
  adminApi,
  buildPath,
  buildQuery,
  type AdminApi,
  type EndpointDef,
  type EndpointInput,
  type EndpointOutput,
  type JsonEndpointName,
} from "../admin-api";
import { AdminApiError } from "./client-error";

export { AdminApiError };

/** The subset of `fetch` the client uses (the browser's and Node's `fetch` both fit). */
export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string;
    credentials?: "same-origin" | "include" | "omit";
  },
) => Promise<{ ok: boolean; status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

type CallArgs<E> = object extends EndpointInput<E> ? [input?: EndpointInput<E>] : [input: EndpointInput<E>];

/** One async method per JSON endpoint of {@link adminApi}. */
export type AdminClient = {
  [K in JsonEndpointName]: (...args: CallArgs<AdminApi[K]>) => Promise<EndpointOutput<AdminApi[K]>>;
};

/** Builds the URL (path + query) of a row, e.g. for an SSE row's `EventSource`. */
export function endpointUrl(
  baseUrl: string,
  def: EndpointDef,
  input: { params?: unknown; query?: unknown } = {},
): string {
  const params = input.params as Record<string, unknown> | undefined;
  const query = input.query as Record<string, unknown> | undefined;
  return baseUrl.replace(/\/+$/, "") + buildPath(def.path, params) + buildQuery(query);
}

function parseErrorBody(text: string): { code: string; message: string; field?: string } | null {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; field?: unknown } };
    const e = body.error;
    if (e && typeof e.code === "string" && typeof e.message === "string") {
      return { code: e.code, message: e.message, field: typeof e.field === "string" ? e.field : undefined };
    }
  } catch {}
  return null;
}

async function call(
  fetchImpl: FetchLike,
  baseUrl: string,
  def: EndpointDef,
  input: Record<string, unknown> = {},
): Promise<unknown> {
  // Validate locally first so the user sees the same field-level message without a round trip.
  for (const part of ["params", "query", "body"] as const) {
    const schema = def[part];
    if (!schema) continue;
    const r = schema.safeParse(input[part] ?? {});
    if (!r.success) {
      const issue = r.error.issues[0];
      const field = issue ? issue.path.map(String).join(".") : "";
      throw new AdminApiError("invalid_request_error", issue?.message ?? "Invalid input", 400, field || undefined);
    }
  }
  const url = endpointUrl(baseUrl, def, { params: input.params, query: input.query });
  const headers: Record<string, string> = { accept: "application/json" };
  let body: string | undefined;
  if (def.body) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(input.body ?? {});
  }
  let res: Awaited<ReturnType<FetchLike>>;
  try {
    res = await fetchImpl(url, { method: def.method, headers, body, credentials: "same-origin" });
  } catch (err) {
    throw new AdminApiError(
      "network_error",
      `Cannot reach Patchbay: ${err instanceof Error ? err.message : String(err)}`,
      0,
    );
  }
  const text = await res.text();
  if (!res.ok) {
    const e = parseErrorBody(text);
    if (e) throw new AdminApiError(e.code, e.message, res.status, e.field);
    throw new AdminApiError("bad_response", `Patchbay answered HTTP ${res.status}`, res.status);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AdminApiError("bad_response", "Patchbay sent a response that is not JSON", res.status);
  }
  const parsed = def.output.safeParse(json);
  if (!parsed.success)
    throw new AdminApiError("bad_response", "Patchbay sent an unexpected response shape", res.status);
  return parsed.data;
}

/** Creates the typed client. `baseUrl` is the admin origin (`""` in the browser for same-origin requests).
 *  Each method resolves with the row's parsed output or throws {@link AdminApiError}. */
export function createAdminClient(fetchImpl: FetchLike, baseUrl: string): AdminClient {
  const client: Record<string, (input?: Record<string, unknown>) => Promise<unknown>> = {};
  for (const [name, def] of Object.entries(adminApi) as [string, EndpointDef][]) {
    if (def.sse) continue;
    client[name] = (input) => call(fetchImpl, baseUrl, def, input);
  }
  return client as unknown as AdminClient;
}
