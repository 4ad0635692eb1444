// The app shown by App detail, handed to its tabs through the router outlet context.
import { useOutletContext } from "react-router";
import type { App } from "../../../../shared/apps";

export interface AppContext {
  app: App;
}

/** The current app inside an App detail tab. */
export function useCurrentApp(): App {
  return useOutletContext<AppContext>().app;
}
