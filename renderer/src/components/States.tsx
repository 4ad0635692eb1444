// Loading, error, empty and callout blocks used by every page, with live-region roles for screen readers.
import type { ReactNode } from "react";
import { CircleExclamationPoint, Info, LoaderCircle, TriangleExclamationPoint } from "lucide-react";
import { errorMessage } from "../api";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="state" role="status">
      <LoaderCircle className="spin" size={20} aria-hidden />
      <span>{label}</span>
    </div>
  );
}

export function ErrorState({
  error,
  title = "Something went wrong",
  onRetry,
}: {
  error: unknown;
  title?: string;
  onRetry?: () => void;
}) {
  return (
    <div className="state" role="alert">
      <CircleExclamationPoint size={22} aria-hidden />
      <div className="state-title">{title}</div>
      <div>{errorMessage(error)}</div>
      {onRetry ? (
        <button type="button" className="btn sm" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="state">
      {icon}
      <div className="state-title">{title}</div>
      {children ? <div>{children}</div> : null}
      {action}
    </div>
  );
}

/** An inline message. `danger` is announced immediately (role=alert). */
export function Callout({ tone = "info", children }: { tone?: "info" | "warn" | "danger"; children: ReactNode }) {
  const Icon = tone === "info" ? Info : tone === "warn" ? TriangleExclamationPoint : CircleExclamationPoint;
  return (
    <div className={`callout ${tone === "info" ? "" : tone}`} role={tone === "danger" ? "alert" : undefined}>
      <Icon size={16} aria-hidden />
      <div>{children}</div>
    </div>
  );
}

/** The warnings a save answered with (the admin API's `warnings`: saved anyway), one paragraph each; nothing when
 *  there are none. */
export function SaveWarnings({ warnings }: { warnings: readonly string[] | undefined }) {
  if (!warnings?.length) return null;
  return (
    <Callout tone="warn">
      {warnings.map((w) => (
        <p key={w}>{w}</p>
      ))}
    </Callout>
  );
}
