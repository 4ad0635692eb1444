// App detail: header with delete, the tab navigation from APP_TABS, and the active tab (router outlet).
import { useState } from "react";
import { NavLink, Outlet, useNavigate, useParams } from "react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Trash } from "lucide-react";
import { api, qk, useApp } from "../api";
import { PageHeader } from "../components/PageHeader";
import { ErrorState, Loading } from "../components/States";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { AdminApiError } from "../../../shared/admin/client";
import { formatDate } from "../lib/format";
import { APP_TABS } from "./app/tabs";
import type { AppContext } from "./app/context";

export function AppDetailPage() {
  const name = useParams().name ?? "";
  const app = useApp(name);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const del = useMutation({
    mutationFn: () => api.deleteApp({ params: { name } }),
    onSuccess: async () => {
      await navigate("/apps");
      // Mark stale without refetching (the app is gone; a refetch would only 404).
      void qc.invalidateQueries({ queryKey: qk.app(name), refetchType: "none" });
      void qc.invalidateQueries({ queryKey: qk.keys(name), refetchType: "none" });
      void qc.invalidateQueries({ queryKey: qk.apps });
      void qc.invalidateQueries({ queryKey: qk.status });
    },
  });

  if (app.isPending)
    return (
      <div className="page">
        <Loading label="Loading app…" />
      </div>
    );
  if (app.isError) {
    const notFound = app.error instanceof AdminApiError && app.error.code === "app_not_found";
    return (
      <div className="page">
        <PageHeader title={name} crumbs={[{ label: "Apps", to: "/apps" }]} />
        <ErrorState
          title={notFound ? "App not found" : "Could not load this app"}
          error={app.error}
          onRetry={notFound ? undefined : () => void app.refetch()}
        />
      </div>
    );
  }

  const ctx: AppContext = { app: app.data };
  return (
    <div className="page">
      <PageHeader
        title={app.data.name}
        crumbs={[{ label: "Apps", to: "/apps" }]}
        subtitle={`Created ${formatDate(app.data.createdAt)}`}
        actions={
          <button type="button" className="btn danger-ghost" onClick={() => setConfirmDelete(true)}>
            <Trash size={15} aria-hidden />
            Delete app
          </button>
        }
      />
      <nav className="tabs" aria-label="App sections">
        {APP_TABS.map((t) => (
          <NavLink key={t.path} to={t.path}>
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Outlet context={ctx} />
      {confirmDelete ? (
        <ConfirmDialog
          title="Delete app"
          confirmLabel="Delete permanently"
          onConfirm={() => del.mutateAsync()}
          onClose={() => setConfirmDelete(false)}
        >
          <p>
            Delete <strong>{app.data.name}</strong>? All of its keys stop working immediately. Its request log entries
            are kept.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
