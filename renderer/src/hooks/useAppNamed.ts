// The current apps as the request log's filter and labels look them up (shared/log-filter.ts): by name, to the app
// that carries the name now, so entries of a deleted app of the same name are never shown as the new app's.
import { useMemo } from "react";
import type { AppNamed } from "../../../shared/log-filter";
import { useApps } from "../api";

/** A lookup of the current apps by name; undefined until the apps are loaded. */
export function useAppNamed(): AppNamed | undefined {
  const apps = useApps();
  return useMemo(() => {
    const list = apps.data?.apps;
    if (!list) return undefined;
    const byName = new Map(list.map((a) => [a.name, a]));
    return (name: string) => byName.get(name);
  }, [apps.data]);
}
