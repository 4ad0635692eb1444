// Responses output shapes of a web search Patchbay ran. From the `openai` npm package
// (resources/responses/responses.d.ts): `ResponseFunctionWebSearch` (`web_search_call` item: id, status, action
// `{type: "search", query, queries}`), `ResponseWebSearchCall{InProgress,Searching,Completed}Event`,
// `ResponseOutputText.URLCitation` and `ResponseOutputTextAnnotationAddedEvent`; Codex reads the same item
// (codex-rs protocol `ResponseItem::WebSearchCall { id, status, action }`).
import type { ServerToolOutcome, WebSearchHit } from "../core/contract";

/** A `web_search_call` output item. `failed` when the search could not run (no backend, backend error). */
export interface OutputWebSearchCallItem {
  id: string;
  type: "web_search_call";
  status: "in_progress" | "searching" | "completed" | "failed";
  action: { type: "search"; query: string; queries: string[] };
}

/** A `url_citation` annotation of an `output_text` part (indices in UTF-16 code units of the text, as JS counts). */
export interface UrlCitation {
  type: "url_citation";
  start_index: number;
  end_index: number;
  url: string;
  title: string;
}

/** The `ws_` item id of a server tool call id (`srvtoolu_<hex>`). */
export function webSearchItemId(callId: string): string {
  return `ws_${callId.replace(/^srvtoolu_/, "")}`;
}

/** The item of a call, from its query and (once known) its outcome. */
export function webSearchCallItem(
  callId: string,
  query: string,
  outcome: ServerToolOutcome | null,
): OutputWebSearchCallItem {
  const status = outcome === null ? "in_progress" : "error" in outcome ? "failed" : "completed";
  return {
    id: webSearchItemId(callId),
    type: "web_search_call",
    status,
    action: { type: "search", query, queries: [query] },
  };
}

/** `url_citation`s for every place `text` names one of `hits`' URLs, in text order (the model cites by URL; Patchbay
 *  never invents a citation the text does not contain). */
export function urlCitations(text: string, hits: readonly WebSearchHit[]): UrlCitation[] {
  const out: UrlCitation[] = [];
  for (const hit of hits) {
    for (let at = text.indexOf(hit.url); at >= 0; at = text.indexOf(hit.url, at + hit.url.length)) {
      out.push({
        type: "url_citation",
        start_index: at,
        end_index: at + hit.url.length,
        url: hit.url,
        title: hit.title,
      });
    }
  }
  return out.sort((a, b) => a.start_index - b.start_index);
}
