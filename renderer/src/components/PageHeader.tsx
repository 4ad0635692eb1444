// Page title (the page's h1), optional breadcrumbs, subtitle and actions.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ChevronRight } from "lucide-react";

export interface Crumb {
  label: string;
  to: string;
}

export function PageHeader({
  title,
  subtitle,
  actions,
  crumbs,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  crumbs?: Crumb[];
}) {
  return (
    <header className="page-header">
      <div>
        {crumbs?.length ? (
          <nav className="breadcrumbs" aria-label="Breadcrumbs">
            {crumbs.map((c) => (
              <span key={c.to} className="row" style={{ gap: 4 }}>
                <Link to={c.to}>{c.label}</Link>
                <ChevronRight size={12} aria-hidden />
              </span>
            ))}
          </nav>
        ) : null}
        <h1>{title}</h1>
        {subtitle ? <p className="subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="row">{actions}</div> : null}
    </header>
  );
}
