// Opens one request-log entry named in the URL (`/logs?entry=<id>&at=<epoch ms>`), as the Overview links a provider's
// refusal to its request. The entry is looked up around `at` (it was written when the request ended).
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import type { RequestLogEntry } from "../../../shared/log-entry";
import { api } from "../api";

const AROUND_MS = 10 * 60_000;

/** Calls `open` once with the linked entry when the URL names one and it is found. */
export function useLinkedLogEntry(open: (e: RequestLogEntry) => void): void {
  const [params] = useSearchParams();
  const id = params.get("entry");
  const at = Number(params.get("at"));
  const found = useQuery({
    queryKey: ["logs", "linked", id, at],
    enabled: id !== null && Number.isFinite(at) && at > 0,
    queryFn: async () => {
      const page = await api.queryLogs({ query: { since: at - AROUND_MS, until: at + AROUND_MS, limit: 500 } });
      return page.entries.find((e) => e.id === id) ?? null;
    },
  });
  const entry = found.data ?? null;
  useEffect(() => {
    if (entry) open(entry);
  }, [entry, open]);
}
