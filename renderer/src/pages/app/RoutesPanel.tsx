// Routes by request role (Models tab): where Claude Code's and Codex's subagent, compaction and background requests
// go. Each role names an alias of the app or a model; empty keeps the model the request asks for.
import { useState } from "react";
import { REQUEST_ROLES, type RequestRole, type RouteMap } from "../../../../shared/routing";
import { TextField } from "../../components/Field";
import { SaveBar } from "../../components/SaveBar";
import { SaveWarnings } from "../../components/States";
import { useCurrentApp } from "./context";
import { useSaveApp } from "./useSaveApp";

/** What each role is, as the clients send it. */
const ROLE_HINTS: Record<RequestRole, string> = {
  main: "Claude Code's main agent",
  subagent: "Claude Code's subagents (Agent tool); Codex's other subagents",
  workflow: "Claude Code's workflow runs",
  compaction: "Claude Code's /compact and auto-compaction; Codex's compact",
  auxiliary: "Claude Code's background calls (titles, summaries)",
  side_reply: "Claude Code's side replies",
  review: "Codex's /review",
};

function toDraft(routes: RouteMap): Record<RequestRole, string> {
  return Object.fromEntries(REQUEST_ROLES.map((r) => [r, routes[r] ?? ""])) as Record<RequestRole, string>;
}

export function RoutesPanel() {
  const app = useCurrentApp();
  const save = useSaveApp(app.name);
  const [draft, setDraft] = useState(() => toDraft(app.routes));
  const value: RouteMap = Object.fromEntries(
    REQUEST_ROLES.filter((r) => draft[r].trim() !== "").map((r) => [r, draft[r].trim()]),
  );
  const dirty = JSON.stringify(value) !== JSON.stringify(app.routes);
  return (
    <section className="card stack-lg" aria-label="Routes by request role">
      <div>
        <h2>Routes by request role</h2>
        <p className="section-note">
          Claude Code (with <code>CLAUDE_CODE_GATEWAY_HINT_HEADERS=1</code>, set by <code>patchbay launch claude</code>)
          and Codex say what each request is for. Send a role to an alias of this app or to a model; leave it empty to
          keep the model the request asks for. A model no connected provider offers is refused (while OpenCode is not
          running it is saved with a warning).
        </p>
      </div>
      <div className="form-grid">
        {REQUEST_ROLES.map((role) => (
          <TextField
            key={role}
            label={role}
            mono
            value={draft[role]}
            placeholder="alias or provider/model"
            onChange={(v) => setDraft({ ...draft, [role]: v })}
            hint={ROLE_HINTS[role]}
          />
        ))}
      </div>
      <SaveWarnings warnings={save.data?.warnings} />
      <SaveBar
        label="Save routes"
        dirty={dirty}
        pending={save.isPending}
        error={save.error}
        saved={save.isSuccess}
        onSave={() => save.mutate({ routes: value }, { onSuccess: (a) => setDraft(toDraft(a.routes)) })}
        onReset={() => setDraft(toDraft(app.routes))}
      />
    </section>
  );
}
