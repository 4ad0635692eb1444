// Global Connect page: pick an app (or none) and copy a ready-made client snippet; set up a coding agent, or check
// every installed one against a throwaway Patchbay (`patchbay doctor`).
import { useState } from "react";
import { Link } from "react-router";
import { useApps } from "../api";
import { AgentCheck } from "../components/AgentCheck";
import { CodingAgents } from "../components/CodingAgents";
import { ConnectPanel } from "../components/ConnectPanel";
import { SelectField } from "../components/Field";
import { NoModelsNotice } from "../components/NoModelsNotice";
import { PageHeader } from "../components/PageHeader";
import { Callout, ErrorState } from "../components/States";

export function ConnectPage() {
  const apps = useApps();
  const [appName, setAppName] = useState("");
  const app = apps.data?.apps.find((a) => a.name === appName);
  return (
    <div className="page">
      <PageHeader
        title="Connect"
        subtitle="Point any OpenAI-compatible client at Patchbay. Snippets read the key from an environment variable."
      />
      <NoModelsNotice />
      {apps.isError ? (
        <ErrorState title="Could not load apps" error={apps.error} onRetry={() => void apps.refetch()} />
      ) : null}
      <div className="card stack-lg">
        <div style={{ maxWidth: 320 }}>
          <SelectField
            label="App"
            value={appName}
            onChange={setAppName}
            options={[
              { value: "", label: "Any app" },
              ...(apps.data?.apps ?? []).map((a) => ({ value: a.name, label: a.name })),
            ]}
            hint="Aliases and allowlist come from the app."
          />
        </div>
        {apps.data && apps.data.apps.length === 0 ? (
          <Callout>
            You need an app and a key first. <Link to="/apps">Create an app</Link>, then create a key on its Keys tab.
          </Callout>
        ) : null}
        <ConnectPanel key={appName} app={app} />
      </div>
      <CodingAgents />
      <AgentCheck />
    </div>
  );
}
