// State badges for the OpenAI listener and the OpenCode child, with a text label (never colour alone).
import type { ApiStatus, OpenCodeStatus } from "../../../shared/status";

export function ApiBadge({ api }: { api: ApiStatus }) {
  if (api.running) {
    return (
      <span className="badge ok">
        <span className="dot" aria-hidden />
        Running
      </span>
    );
  }
  if (api.error) {
    return (
      <span className="badge danger">
        <span className="dot" aria-hidden />
        Not running
      </span>
    );
  }
  return (
    <span className="badge">
      <span className="dot" aria-hidden />
      Stopped
    </span>
  );
}

const OPENCODE_LABEL: Record<OpenCodeStatus["state"], { label: string; tone: string }> = {
  ready: { label: "Ready", tone: "ok" },
  starting: { label: "Starting", tone: "info pulse" },
  restarting: { label: "Restarting", tone: "warn pulse" },
  failed: { label: "Failed", tone: "danger" },
  stopped: { label: "Stopped", tone: "" },
  sleeping: { label: "Sleeping", tone: "" },
};

export function OpenCodeBadge({ opencode }: { opencode: OpenCodeStatus }) {
  const { label, tone } = OPENCODE_LABEL[opencode.state];
  return (
    <span className={`badge ${tone}`}>
      <span className="dot" aria-hidden />
      {label}
    </span>
  );
}
