// The App detail tabs, in order. Each entry is a route under /apps/:name and a link in the "App sections" nav:
// adding a tab (e.g. Sessions) is adding one line here.
import { lazy, type ReactNode } from "react";
import { KeysTab } from "./KeysTab";
import { ModelsTab } from "./ModelsTab";
import { AliasesTab } from "./AliasesTab";
import { LimitsTab } from "./LimitsTab";
import { HistoryTab } from "./HistoryTab";
import { ConnectTab } from "./ConnectTab";
import { SessionsTab } from "./SessionsTab";

// The chart library is large: load it only when the Usage tab opens.
const UsageTab = lazy(() => import("./UsageTab"));

export interface AppTab {
  /** Route segment under /apps/:name. */
  path: string;
  /** Link text (the accessible name). */
  label: string;
  element: ReactNode;
}

export const APP_TABS: AppTab[] = [
  { path: "keys", label: "Keys", element: <KeysTab /> },
  { path: "models", label: "Models", element: <ModelsTab /> },
  { path: "aliases", label: "Aliases", element: <AliasesTab /> },
  { path: "limits", label: "Limits", element: <LimitsTab /> },
  { path: "sessions", label: "Sessions", element: <SessionsTab /> },
  { path: "history", label: "History", element: <HistoryTab /> },
  { path: "usage", label: "Usage", element: <UsageTab /> },
  { path: "connect", label: "Connect", element: <ConnectTab /> },
];
