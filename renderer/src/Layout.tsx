// The app shell: sidebar navigation, live status (polled, see STATUS_POLL_MS), sign out, and the signed-out screen when
// the page has no session or a stale one (Patchbay restarted: sessions live in its memory only).
import { useEffect } from "react";
import { NavLink, Outlet } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Boxes, LayoutDashboard, LogOut, Plug, ScrollText, Settings } from "lucide-react";
import { AdminApiError } from "../../shared/admin/client";
import { qk, useStatus } from "./api";
import { forgetSession, signOut, signedOutByUser } from "./session";
import { ApiBadge } from "./components/StatusBadge";

const NAV = [
  { to: "/", label: "Overview", icon: LayoutDashboard, end: true },
  { to: "/apps", label: "Apps", icon: Boxes, end: false },
  { to: "/logs", label: "Logs", icon: ScrollText, end: false },
  { to: "/connect", label: "Connect", icon: Plug, end: false },
  { to: "/settings", label: "Settings", icon: Settings, end: false },
];

function BrandMark() {
  return (
    <span className="brand-mark" aria-hidden>
      <svg width="16" height="16" viewBox="0 0 16 16" fill="none">
        <circle cx="4" cy="4" r="2" fill="currentColor" />
        <circle cx="12" cy="12" r="2" fill="currentColor" />
        <path d="M4 4c5 0 3 8 8 8" stroke="currentColor" strokeWidth="1.6" />
      </svg>
    </span>
  );
}

/** The signed-out screen: why this tab has no session, and the three ways back in (same words as the server's
 *  used-link page, server/http/admin/pages.ts). */
function SignedOut({ byUser }: { byUser: boolean }) {
  return (
    <main className="signed-out">
      <div className="card stack">
        <h1>Sign in to Patchbay</h1>
        <p className="muted">
          {byUser
            ? "You signed out of this dashboard."
            : "This dashboard session has ended: Patchbay restarted, or it was signed out in another tab."}
        </p>
        <ul className="muted signed-out-ways">
          <li>Desktop app: open the dashboard from the tray menu.</li>
          <li>
            Headless: run <code>patchbay dashboard</code> (in the repo: <code>npm run -s patchbay -- dashboard</code>;
            add the <code>--data-dir</code> Patchbay was started with, if any) for a new one-time login URL from the
            running Patchbay. Every launch of <code>patchbay serve</code> also prints one (
            <code>Dashboard: …/login?token=…</code>).
          </li>
          <li>
            Scripts need no login URL: they read <code>adminUrl</code> and <code>adminToken</code> from{" "}
            <code>runtime.json</code> in the data folder and call the admin API with{" "}
            <code>Authorization: Bearer &lt;adminToken&gt;</code>.
          </li>
        </ul>
      </div>
    </main>
  );
}

export function Layout() {
  const qc = useQueryClient();
  const status = useStatus();
  const signedOut = status.error instanceof AdminApiError && status.error.code === "admin_auth_required";
  // A token the server refused is of no further use: forget it, so a reload does not send it again.
  useEffect(() => {
    if (signedOut) forgetSession();
  }, [signedOut]);
  const onSignOut = () => {
    void signOut().then(() => qc.invalidateQueries({ queryKey: qk.status }));
  };

  if (signedOut) return <SignedOut byUser={signedOutByUser()} />;
  const s = status.data;
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          <BrandMark />
          Patchbay
        </div>
        <nav className="nav" aria-label="Main">
          {NAV.map(({ to, label, icon: Icon, end }) => (
            <NavLink key={to} to={to} end={end}>
              <Icon size={16} aria-hidden />
              {label}
            </NavLink>
          ))}
        </nav>
        <div className="sidebar-footer">
          {s ? (
            <>
              <div className="row spread">
                <span>API</span>
                <ApiBadge api={s.api} />
              </div>
              <span>Patchbay {s.version}</span>
              <button type="button" className="btn ghost sm sign-out" onClick={onSignOut}>
                <LogOut size={14} aria-hidden />
                Sign out
              </button>
            </>
          ) : (
            <span>Connecting…</span>
          )}
        </div>
      </aside>
      <main className="content">
        <Outlet />
      </main>
    </div>
  );
}
