// Unknown dashboard path.
import { Link } from "react-router";
import { PageHeader } from "../components/PageHeader";
import { EmptyState } from "../components/States";

export function NotFoundPage() {
  return (
    <div className="page">
      <PageHeader title="Page not found" />
      <EmptyState title="There is nothing here">
        <Link to="/">Back to the overview</Link>
      </EmptyState>
    </div>
  );
}
