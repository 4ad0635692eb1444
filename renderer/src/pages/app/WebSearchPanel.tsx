// The app's web search switch (Limits tab): whether Patchbay runs the web search / fetch tools this app's clients
// offer, and which backend serves them (Settings → Web search). Off: clients get a native "unavailable" result.
import { Switch } from "../../components/Switch";
import { Callout } from "../../components/States";
import { errorMessage, useSettings, useStatus } from "../../api";
import { useCurrentApp } from "./context";
import { useSaveApp } from "./useSaveApp";

/** The Limits tab's "Web search" region: the app's switch and where its searches would go. */
export function WebSearchPanel() {
  const app = useCurrentApp();
  const save = useSaveApp(app.name);
  // The backend the server uses: its --search-url / PATCHBAY_SEARCH_URL wins over Settings (status `search`; older
  // servers do not say, then Settings is the best guess).
  const running = useStatus().data?.search;
  const saved = useSettings().data?.searchUrl ?? null;
  const searchUrl = running ? running.url : saved;
  const from = !running || running.from === "settings" ? "Settings → Web search" : `set by ${running.from} at start`;
  return (
    <section className="card stack" aria-label="Web search">
      <div>
        <h2>Web search</h2>
        <p className="section-note">
          Clients such as Claude Code (WebSearch) and Codex (web search) ask their provider to search the web, and
          Anthropic clients may ask it to fetch a page (web fetch). Patchbay runs those searches and page fetches itself
          and hands the client real results. (Claude Code&apos;s WebFetch tool fetches pages on your machine by itself.)
        </p>
      </div>
      <Switch
        label="Run web search and web fetch for this app"
        checked={app.webSearch}
        disabled={save.isPending}
        onChange={(v) => save.mutate({ webSearch: v })}
      />
      {save.error ? <Callout tone="danger">{errorMessage(save.error)}</Callout> : null}
      {app.webSearch ? (
        searchUrl ? (
          <Callout>
            Searches go to <code>{searchUrl}</code> ({from}); the queries leave this computer only if that address is
            elsewhere. Pages are fetched by Patchbay from public addresses only.
          </Callout>
        ) : (
          <Callout tone="warn">
            No search backend is set (Settings → Web search, or <code>patchbay serve --search-url</code>). Until then
            this app&apos;s clients get a “search unavailable” result.
          </Callout>
        )
      ) : (
        <Callout>Off: clients get a “search unavailable” result, so the agent knows it could not search.</Callout>
      )}
    </section>
  );
}
