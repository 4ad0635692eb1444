// Connect snippets for this app.
import { ConnectPanel } from "../../components/ConnectPanel";
import { useCurrentApp } from "./context";

export function ConnectTab() {
  const app = useCurrentApp();
  return (
    <section className="card" aria-label="Connect">
      <ConnectPanel app={app} />
    </section>
  );
}
