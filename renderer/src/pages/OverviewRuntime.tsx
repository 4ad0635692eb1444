// The runtime facts of the Overview's OpenCode card: memory of both processes against the limit, live instances and
// the last planned restart (issue 15). Display only; the numbers come from `GET /admin/api/status`.
import { describeKeepAlive } from "../../../shared/keep-alive";
import type { OpenCodeStatus, RuntimeStatus } from "../../../shared/status";
import { EMPTY, formatRelative } from "../lib/format";

/** "512 MB" (MiB, no decimals); EMPTY for null. */
export function formatMemory(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return EMPTY;
  return `${Math.round(bytes / 1024 ** 2).toLocaleString()} MB`;
}

/** Rows for the OpenCode card's `<dl>`: memory, limit, live instances, last recycle. */
export function RuntimeFacts({ runtime }: { runtime: RuntimeStatus | undefined }) {
  if (!runtime) return null;
  const last = runtime.lastRecycle;
  return (
    <>
      <dt>Memory</dt>
      <dd>
        OpenCode {formatMemory(runtime.opencodeRssBytes)}
        {runtime.memoryLimitBytes > 0 ? ` of ${formatMemory(runtime.memoryLimitBytes)} limit` : " (no limit)"} ·
        Patchbay {formatMemory(runtime.patchbayRssBytes)}
      </dd>
      <dt>OpenCode instances</dt>
      <dd title="One per app and set of client tools in use; idle ones are closed">{runtime.liveInstances}</dd>
      {runtime.keepAlive ? (
        <>
          <dt>Keep-alive</dt>
          <dd data-testid="keep-alive">
            {runtime.keepAlive.ms === null
              ? "forever (OpenCode never sleeps)"
              : `sleeps after ${describeKeepAlive(runtime.keepAlive.ms)} without a model request`}
            {runtime.keepAlive.sleepsAt !== null ? ` · next sleep ${formatRelative(runtime.keepAlive.sleepsAt)}` : ""}
            {runtime.keepAlive.sleeps > 0 ? ` · slept ${runtime.keepAlive.sleeps}×` : ""}
          </dd>
        </>
      ) : null}
      <dt>Last recycle</dt>
      <dd>
        {last ? (
          <span title={new Date(last.at).toLocaleString()}>
            {formatRelative(last.at)}: {last.reason} (requests held {Math.round(last.pauseMs / 100) / 10} s)
          </span>
        ) : (
          "never"
        )}
      </dd>
    </>
  );
}

/** "OpenCode: sleeping / starting / ready" (issue 26) as one sentence for the card; a failed one says when it is
 *  tried again. */
export function openCodeStateLine(oc: OpenCodeStatus, now: number = Date.now()): string {
  switch (oc.state) {
    case "sleeping":
      return "OpenCode: sleeping. It starts again on the next request, model list or dashboard visit.";
    case "failed":
      return oc.nextRetryAt
        ? `OpenCode: failed. Patchbay tries again in ${Math.max(1, Math.ceil((oc.nextRetryAt - now) / 1000))} s.`
        : "OpenCode: failed.";
    default:
      return `OpenCode: ${oc.state}.`;
  }
}
