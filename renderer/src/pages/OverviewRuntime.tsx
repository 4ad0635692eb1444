// The runtime facts of the Overview's OpenCode card: memory of both processes against the limit, live instances and
// the last planned restart (issue 15). Display only; the numbers come from `GET /admin/api/status`.
import type { RuntimeStatus } from "../../../shared/status";
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
      <dt>Live instances</dt>
      <dd>{runtime.liveInstances}</dd>
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
