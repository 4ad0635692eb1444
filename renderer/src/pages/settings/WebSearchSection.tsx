// Settings → Web search: the SearXNG-compatible endpoint that serves clients' web search tools (Claude Code's
// WebSearch, Codex's web_search). Saved on its own; `patchbay serve --search-url` / PATCHBAY_SEARCH_URL win over it.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Settings } from "../../../../shared/settings";
import { SettingsUpdate } from "../../../../shared/admin-api";
import { api, qk } from "../../api";
import { TextField } from "../../components/Field";
import { SaveBar } from "../../components/SaveBar";

/** The search URL field and what it means for the user's queries. */
export function WebSearchSection({ settings }: { settings: Settings }) {
  const qc = useQueryClient();
  const initial = settings.searchUrl ?? "";
  const [url, setUrl] = useState(initial);
  const trimmed = url.trim();
  const parsed = SettingsUpdate.safeParse({ searchUrl: trimmed === "" ? null : trimmed });
  const error = parsed.success ? null : (parsed.error.issues[0]?.message ?? "Invalid URL");
  const save = useMutation({
    mutationFn: () => api.updateSettings({ body: { searchUrl: trimmed === "" ? null : trimmed } }),
    // Not remounted by the new settings (that would drop the "Saved" it shows): the field takes the saved value.
    onSuccess: (s) => {
      qc.setQueryData(qk.settings, s);
      setUrl(s.searchUrl ?? "");
    },
  });
  return (
    <section className="card stack-lg" aria-label="Web search">
      <div>
        <h2>Web search</h2>
        <p className="section-note">
          When a client offers its provider&apos;s web search or web fetch tool (Claude Code&apos;s WebSearch,
          Codex&apos;s web search, Anthropic&apos;s web fetch), Patchbay runs it: searches go to this SearXNG-compatible
          endpoint (<code>GET &lt;url&gt;/search?q=…&amp;format=json</code>), pages are fetched by Patchbay from public
          addresses only. Each app can switch it off on its Limits tab.
        </p>
      </div>
      <TextField
        label="Search URL"
        mono
        placeholder="http://127.0.0.1:8888"
        value={url}
        onChange={setUrl}
        error={error}
        hint={
          trimmed === ""
            ? "Empty: no search backend. Clients then get a “search unavailable” result, never made-up results."
            : "Your search queries are sent to this address. patchbay serve --search-url and PATCHBAY_SEARCH_URL win over it."
        }
      />
      <SaveBar
        label="Save search URL"
        dirty={trimmed !== initial}
        pending={save.isPending}
        error={save.error}
        saved={save.isSuccess}
        blocked={error}
        onSave={() => save.mutate()}
        onReset={() => setUrl(initial)}
      />
    </section>
  );
}
