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

const appKey = (name: string) => ["app", name] as const;
const sessionsKey = (app: string) => [...appKey(app), "sessions"] as const;
const prunePreviewsKey = (app: string) => [...appKey(app), "prune-preview"] as const;
const storedResponsesKey = (app: string) => [...appKey(app), "stored-responses"] as const;

/**
 * Every react-query key of the dashboard, in one place so mutations invalidate the right data. Everything that
 * belongs to one app lives under {@link qk.app}, so deleting an app can mark all of it stale with one prefix.
 */
export const qk = {
  status: ["status"] as const,
  apps: ["app-list"] as const,
  /** The app itself, and the prefix of every key below that takes an app name. */
  app: appKey,
  keys: (name: string) => [...appKey(name), "keys"] as const,
  usage: (name: string, days: number) => [...appKey(name), "usage", days] as const,
  models: ["models"] as const,
  settings: ["settings"] as const,
  desktop: ["desktop"] as const,
  logs: (filters: object) => ["logs", filters] as const,
  connectPreview: (client: string, model: string) => ["connect-preview", client, model] as const,
  /** The Connect page's agent check (the last or current `patchbay doctor` run). */
  doctor: ["doctor"] as const,
  /** Every page of an app's sessions (prefix: invalidate this after deletes and prunes). */
  sessions: sessionsKey,
  sessionPages: (app: string, search: string) => [...sessionsKey(app), search] as const,
  sessionMessages: (app: string, session: string) => [...appKey(app), "session-messages", session] as const,
  /** Every prune preview of an app (prefix); {@link qk.prunePreview} is one set of limits. */
  prunePreviews: prunePreviewsKey,
  prunePreview: (app: string, maxSessions: number | "none", maxAgeDays: number | "none") =>
    [...prunePreviewsKey(app), maxSessions, maxAgeDays] as const,
  lastSweep: (app: string) => [...appKey(app), "last-sweep"] as const,
  /** An app's stored Responses, list and details (prefix: invalidate this after a delete or a prune). */
  storedResponses: storedResponsesKey,
  storedResponseList: (app: string) => [...storedResponsesKey(app), "list"] as const,
  storedResponse: (app: string, id: string) => [...storedResponsesKey(app), "detail", id] as const,
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

/**
 * How often the dashboard asks for the runtime status. Status is polled only, never pushed as well: each poll is a
 * new request carrying the session token, so it also finds a stale session (an open event stream would outlive a
 * session that ended, e.g. Patchbay restarted or signed out, and keep the page looking signed in).
 */
export const STATUS_POLL_MS = 2_000;

/** Runtime status, polled every {@link STATUS_POLL_MS}; actions that change it (start/stop API) set it at once. */
export function useStatus() {
  return useQuery({ queryKey: qk.status, queryFn: () => api.getStatus(), refetchInterval: STATUS_POLL_MS });
}

/** A Patchbay command as it runs on this machine, for this data folder (`status.cli`; plain `patchbay` until the
 *  status is known): `cli("launch claude")`. */
export function useCli(): (args: string) => string {
  const prefix = useStatus().data?.cli ?? "patchbay";
  return (args) => `${prefix} ${args}`;
}

/** How often the Connect page asks how a running agent check is going. */
export const DOCTOR_POLL_MS = 1_000;

/** The last or current agent check; polled every {@link DOCTOR_POLL_MS} while it runs, not at all otherwise. */
export function useDoctorRun() {
  return useQuery({
    queryKey: qk.doctor,
    queryFn: () => api.getDoctor(),
    refetchInterval: (q) => (q.state.data?.state === "running" ? DOCTOR_POLL_MS : false),
  });
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
