// App detail: header with delete, the tab navigation from APP_TABS, and the active tab (router outlet).
import { useState } from "react";
import { NavLink, Outlet, useNavigate, useParams } from "react-router";
import { Trash } from "lucide-react";
import { useApp } from "../api";
import { useDeleteApp } from "../mutations";
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
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const del = useDeleteApp(name, () => navigate("/apps"));

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
            Delete <strong>{app.data.name}</strong>? All of its keys stop working immediately and its sessions are
            deleted from OpenCode's history. Its request log entries are kept.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
