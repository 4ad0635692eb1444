// The "no models" notice (issue 16 item 12), shown on the Overview and the Connect page when OpenCode is ready but no
// provider is logged in: with no logins and no --demo every request would 404, so say it where the user looks, with
// the exact login command. Renders nothing unless the status says there are zero models.
import { NO_MODELS } from "../../../shared/status";
import { useStatus } from "../api";
import { CopyButton } from "./CopyButton";

/** A warning with the login command when the running Patchbay has no models; else nothing. */
export function NoModelsNotice() {
  const s = useStatus().data;
  if (!s || s.modelCount !== 0) return null;
  return (
    <section className="callout warn" aria-label="No models available">
      <div>
        <strong>No models are available</strong>: no provider is logged in, so every request would fail. Log in to a
        provider with OpenCode in a terminal, then restart Patchbay (OpenCode reads logins when it starts):
        <div className="row">
          <code>{NO_MODELS.loginCommand}</code>
          <CopyButton text={NO_MODELS.loginCommand} label="Copy the login command" />
        </div>
        <span className="muted">
          No OpenCode installed? Run <code>{NO_MODELS.bundledLoginCommand}</code> in the Patchbay folder (Patchbay ships
          it). To try Patchbay without any login, start it with <code>--demo</code>.
        </span>
      </div>
    </section>
  );
}
