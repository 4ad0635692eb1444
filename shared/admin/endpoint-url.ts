// The admin API's URLs from an endpoint row (shared/admin-api.ts) and a call's input: path parameters and query.

/** Fills `:param` segments of a row's path (values URI-encoded). */
export function buildPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_m, key: string) => {
    const value = params?.[key];
    if (value === undefined || value === null) throw new Error(`Missing path parameter '${key}' for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Encodes a flat query object (`undefined` values skipped) as `?a=1&b=2`, or "" when empty. */
export function buildQuery(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const parts = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join("&")}` : "";
}
