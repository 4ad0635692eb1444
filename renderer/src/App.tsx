// The dashboard's routes and shell. Routes mirror the sidebar: Overview, Apps (+ detail tabs), Logs, Connect, Settings.
//
// Accessible names for tests (Playwright role locators) — keep them stable:
//   Sidebar:   navigation "Main" → links "Overview", "Apps", "Logs", "Connect", "Settings"
//   Signed out: heading "Sign in to Patchbay" (admin cookie missing or stale)
//   Overview:  heading "Overview"; button "Start API" / "Stop API"; button "Copy base URL";
//              region "OpenAI API", region "OpenCode"; texts "Requests today", "Errors today"
//   Apps:      button "New app" → dialog "New app": textbox "App name", button "Create app"; each app is a link with its name
//   App:       heading = app name; navigation "App sections" → links "Keys", "Models", "Aliases", "Limits", "History",
//              "Usage", "Connect" (APP_TABS in pages/app/tabs.tsx; add a tab with one line there); button "Delete app" →
//              dialog "Delete app": button "Delete permanently"
//   Keys:      button "New key" → dialog "New key": textbox "Label (optional)", button "Create key" → dialog "Your new key":
//              textbox "API key" (read-only), button "Copy key", button "Done"; table "API keys"; per row button
//              "Revoke <prefix>" → dialog "Revoke key": button "Yes, revoke". Every dialog has button "Close" (its ×) and closes on Escape.
//   Models:    combobox "Add a model or pattern" (picking an option adds it; typed text is added with Enter or button "Add"),
//              list "Allowlist" with per pattern button "Remove <pattern>", button "Save allowlist"
//   Aliases:   textbox "Alias", combobox "Target model", button "Add alias", per alias button "Remove alias <name>",
//              button "Save aliases"
//   Limits:    spinbuttons "Concurrency", "Max tools", "First token timeout (seconds)", "Total timeout (seconds)",
//              "Max request body (MB)"; switch "Fetch remote images"; textbox "CORS origins"; button "Save limits"
//   History:   spinbuttons "Max sessions", "Max age (days)"; switches "Keep all sessions", "Keep sessions forever";
//              button "Save history limits"
//   Usage:     radio group "Period" (radios "7 days", "30 days", "90 days"); region "Requests per day", region "Tokens per day"
//   Logs:      button "Pause" / "Resume"; comboboxes (selects) "App", "Status", "Time"; textbox "Model"; table "Request log" whose rows
//              show time, app, model, status, tokens, TTFT and total; per row button "Details <time>" → dialog
//              "Request details": button "Copy as curl", button "Done"
//   Names that repeat across regions — scope them: sidebar links via navigation "Main" ("Apps" is also a breadcrumb link,
//   "Connect" is also an App section link); "Copy base URL" is on Overview and Connect.
//   Connect:   combobox (select) "App", combobox (select) "Model"; tablist "Clients" → tabs "curl", "OpenAI Python",
//              "OpenAI JS", "AI SDK (compatible)", "AI SDK (Responses)", "LangChain Python", "LangChain JS", "n8n",
//              "Continue", "Codex"; button "Copy <client> snippet"
//   Settings:  textbox "Host", spinbutton "Port", switch "Expose on LAN" → dialog "Expose Patchbay on your network?":
//              button "Expose on LAN"; switches "Keep request bodies in the log", "Start the API when Patchbay launches",
//              "Launch at login" (desktop only); button "Save settings"; button "Open data folder" (desktop only)
import { Suspense, useState } from "react";
import { createBrowserRouter, Navigate, RouterProvider } from "react-router";
import { Layout } from "./Layout";
import { OverviewPage } from "./pages/OverviewPage";
import { AppsPage } from "./pages/AppsPage";
import { AppDetailPage } from "./pages/AppDetailPage";
import { APP_TABS } from "./pages/app/tabs";
import { LogsPage } from "./pages/LogsPage";
import { ConnectPage } from "./pages/ConnectPage";
import { SettingsPage } from "./pages/SettingsPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { Loading } from "./components/States";

/** Built on first render, not at module load: the router reads the URL once, and main.tsx first replaces a
 *  `/login?token=…` URL with the page to land on. */
const createRouter = () =>
  createBrowserRouter([
    {
      path: "/",
      element: <Layout />,
      children: [
        { index: true, element: <OverviewPage /> },
        { path: "apps", element: <AppsPage /> },
        {
          path: "apps/:name",
          element: <AppDetailPage />,
          children: [
            { index: true, element: <Navigate to={APP_TABS[0]?.path ?? "keys"} replace /> },
            ...APP_TABS.map((t) => ({
              path: t.path,
              element: <Suspense fallback={<Loading />}>{t.element}</Suspense>,
            })),
          ],
        },
        { path: "logs", element: <LogsPage /> },
        { path: "connect", element: <ConnectPage /> },
        { path: "settings", element: <SettingsPage /> },
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ]);

export function App() {
  const [router] = useState(createRouter);
  return <RouterProvider router={router} />;
}
