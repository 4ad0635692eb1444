// Apps: one per client program. List with key counts and policy summary; "New app" dialog with live name validation.
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Boxes, Plus } from "lucide-react";
import { AppName } from "../../../shared/apps";
import { api, errorMessage, qk, useApps } from "../api";
import { Dialog } from "../components/Dialog";
import { TextField } from "../components/Field";
import { PageHeader } from "../components/PageHeader";
import { Callout, EmptyState, ErrorState, Loading } from "../components/States";
import { formatRelative } from "../lib/format";

function NewAppDialog({ existing, onClose }: { existing: string[]; onClose: () => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [touched, setTouched] = useState(false);
  const parsed = AppName.safeParse(name);
  const clash = existing.includes(name);
  const problem =
    name === ""
      ? "Enter a name"
      : !parsed.success
        ? (parsed.error.issues[0]?.message ?? "Invalid name")
        : clash
          ? "An app with this name already exists"
          : null;
  const create = useMutation({
    mutationFn: () => api.createApp({ body: { name } }),
    onSuccess: async (app) => {
      await qc.invalidateQueries({ queryKey: qk.apps });
      void qc.invalidateQueries({ queryKey: qk.status });
      onClose();
      void navigate(`/apps/${encodeURIComponent(app.name)}/keys`);
    },
  });
  return (
    <Dialog
      title="New app"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="new-app-form" className="btn primary" disabled={create.isPending}>
            Create app
          </button>
        </>
      }
    >
      <form
        id="new-app-form"
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!problem) create.mutate();
        }}
      >
        <TextField
          label="App name"
          value={name}
          onChange={(v) => {
            setName(v.toLowerCase());
            setTouched(true);
          }}
          mono
          maxLength={40}
          placeholder="e.g. my-notes-tool"
          data-autofocus
          autoComplete="off"
          spellCheck={false}
          hint="Lowercase letters, digits and '-'. Use one app per client program."
          error={touched && name !== "" ? problem : null}
        />
      </form>
      {create.isError ? <Callout tone="danger">{errorMessage(create.error)}</Callout> : null}
    </Dialog>
  );
}

export function AppsPage() {
  const apps = useApps();
  const [creating, setCreating] = useState(false);
  const list = apps.data?.apps ?? [];

  return (
    <div className="page">
      <PageHeader
        title="Apps"
        subtitle="One app per client program, each with its own keys, models, aliases and limits."
        actions={
          <button type="button" className="btn primary" onClick={() => setCreating(true)}>
            <Plus size={15} aria-hidden />
            New app
          </button>
        }
      />
      {apps.isPending ? (
        <Loading label="Loading apps…" />
      ) : apps.isError ? (
        <ErrorState title="Could not load apps" error={apps.error} onRetry={() => void apps.refetch()} />
      ) : list.length === 0 ? (
        <div className="card">
          <EmptyState
            icon={<Boxes size={24} aria-hidden />}
            title="No apps yet"
            action={
              <button type="button" className="btn primary" onClick={() => setCreating(true)}>
                Create your first app
              </button>
            }
          >
            Create an app for each program that should use your models, then give it a key.
          </EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Apps">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Keys</th>
                <th scope="col">Models</th>
                <th scope="col">Aliases</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.map((a) => (
                <tr key={a.id}>
                  <td>
                    <Link to={`/apps/${encodeURIComponent(a.name)}/keys`} className="mono" style={{ fontWeight: 600 }}>
                      {a.name}
                    </Link>
                  </td>
                  <td className="num">{a.keyCount}</td>
                  <td>
                    {a.models.length === 0 ? <span className="faint">All models</span> : `${a.models.length} allowed`}
                  </td>
                  <td className="num">{Object.keys(a.aliases).length}</td>
                  <td>{formatRelative(a.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {creating ? <NewAppDialog existing={list.map((a) => a.name)} onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
