// What the app's routing does with its aliases, read-only on the Aliases tab: each alias's fallback chain and the
// roles routed to it, and every route by request role with the chain it ends in. Routes are edited on the Models tab,
// chains in the Aliases tab's Fallback chains (FallbacksPanel).
import { Link } from "react-router";
import type { App } from "../../../../shared/apps";
import { REQUEST_ROLES } from "../../../../shared/routing";

/** The fallbacks of `alias`, in order (none: empty). */
export function fallbacksOf(app: App, alias: string): string[] {
  return Object.hasOwn(app.fallbacks, alias) ? (app.fallbacks[alias] ?? []) : [];
}

/** The roles the app routes to `alias`, in REQUEST_ROLES order. */
export function rolesRoutedTo(app: App, alias: string): string[] {
  return REQUEST_ROLES.filter((r) => app.routes[r] === alias);
}

/** Where a route ends: an alias's target and fallbacks (`fast → a/b → c/d`), or the model it names. */
function routeChain(app: App, target: string): string {
  if (!Object.hasOwn(app.aliases, target)) return target;
  return [target, app.aliases[target], ...fallbacksOf(app, target)].join(" → ");
}

/** The app's routes by request role, read-only, linking to the Models tab where they are edited. */
export function RoutesSummary({ app }: { app: App }) {
  const rows = REQUEST_ROLES.flatMap((role) => {
    const target = app.routes[role];
    return target === undefined ? [] : [[role, routeChain(app, target)] as const];
  });
  return (
    <section className="card stack" aria-label="Routes of this app">
      <div>
        <h2>Routes by request role</h2>
        <p className="section-note">
          Where this app sends Claude Code's and Codex's subagent, compaction and background requests.{" "}
          <Link to="../models">Change on the Models tab</Link>.
        </p>
      </div>
      {rows.length === 0 ? (
        <p className="faint">No routes: every request keeps the model it asks for.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Routes">
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">Goes to</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([role, chain]) => (
                <tr key={role}>
                  <td className="mono">{role}</td>
                  <td className="mono">{chain}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
