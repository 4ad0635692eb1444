// The dashboard's admin API access: one typed client from the shared endpoint table, query keys, and the query hooks
// every page shares. Same-origin HTTP only, authenticated by the session token in a header (session.ts); no IPC.
import { QueryClient, useQuery } from "@tanstack/react-query";
import { AdminApiError, createAdminClient } from "../../shared/admin/client";
import { authHeaders } from "./session";

/** Same-origin client: the admin listener serves this page, so the base URL is "". Every call carries the session
 *  token as `Authorization`; `credentials: "omit"` because the dashboard has no cookie to send. */
export const api = createAdminClient(
  (url, init) => fetch(url, { ...init, headers: { ...init.headers, ...authHeaders() }, credentials: "omit" }),
  "",
);

/** Every react-query key of the dashboard, in one place so mutations invalidate the right data. */
export const qk = {
  status: ["status"] as const,
  apps: ["app-list"] as const,
  app: (name: string) => ["app", name] as const,
  keys: (name: string) => ["keys", name] as const,
  usage: (name: string, days: number) => ["usage", name, days] as const,
  models: ["models"] as const,
  settings: ["settings"] as const,
  desktop: ["desktop"] as const,
  logs: (filters: object) => ["logs", filters] as const,
  /** Every page of an app's sessions (prefix: invalidate this after deletes and prunes). */
  sessions: (app: string) => ["sessions", app] as const,
  sessionPages: (app: string, search: string) => ["sessions", app, search] as const,
  sessionMessages: (app: string, session: string) => ["session-messages", app, session] as const,
  /** Every prune preview of an app (prefix); {@link qk.prunePreview} is one set of limits. */
  prunePreviews: (app: string) => ["prune-preview", app] as const,
  prunePreview: (app: string, maxSessions: number | "none", maxAgeDays: number | "none") =>
    ["prune-preview", app, maxSessions, maxAgeDays] as const,
  lastSweep: (app: string) => ["last-sweep", app] as const,
};

/** Client errors (4xx) are not retried: they will not fix themselves. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        retry: (count, err) => !(err instanceof AdminApiError && err.status >= 400 && err.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}

/** A readable message for any error thrown by the client or a component. */
export function errorMessage(err: unknown): string {
  if (err instanceof AdminApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Runtime status, refreshed every 2 s (the status stream also pushes changes at once). The poll also finds a stale
 *  session: an open event stream keeps working after the session ended (Patchbay restarted, signed out), a new
 *  request does not. */
export function useStatus() {
  return useQuery({ queryKey: qk.status, queryFn: () => api.getStatus(), refetchInterval: 2_000 });
}

export function useApps() {
  return useQuery({ queryKey: qk.apps, queryFn: () => api.listApps() });
}

export function useApp(name: string) {
  return useQuery({ queryKey: qk.app(name), queryFn: () => api.getApp({ params: { name } }) });
}

/** Model catalog; OpenCode may be starting, so keep retrying quietly in the background. */
export function useModels() {
  return useQuery({
    queryKey: qk.models,
    queryFn: () => api.getModels(),
    staleTime: 60_000,
    retry: (count, err) => (err instanceof AdminApiError && err.status === 503 ? count < 20 : count < 2),
    retryDelay: 2_000,
  });
}

export function useSettings() {
  return useQuery({ queryKey: qk.settings, queryFn: () => api.getSettings() });
}

/** The OpenAI base URL: the running listener's, else the configured one (for snippets while stopped). */
export function useBaseUrl(): string {
  const status = useStatus().data;
  if (status?.api.baseUrl) return status.api.baseUrl;
  const host = status?.api.host ?? "127.0.0.1";
  const port = status?.api.port ?? 4747;
  const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return `http://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${port}/v1`;
}
