// Small self-contained HTML pages the admin listener serves outside the React app (used login link,
// dashboard not built). Nothing from the request is echoed into them; the one command they name is this Patchbay's
// own (its path and data folder, HTML-escaped).

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Patchbay</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:Canvas;color:CanvasText}
main{max-width:30rem;padding:2rem;border:1px solid color-mix(in srgb,CanvasText 15%,transparent);border-radius:12px}
h1{font-size:1.25rem;margin:0 0 .75rem}p,li{line-height:1.5;margin:.5rem 0;opacity:.85}code{font-size:.9em}
ul{padding-left:1.2rem;margin:.5rem 0}
</style></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;
}

/** `<`, `>`, `&`, `"` and `'` as HTML entities. */
function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** 401 page for a login link that was already used or is unknown. Same ways back in, in the same words, as the
 *  dashboard's signed-out screen (renderer/src/Layout.tsx); `dashboardCommand` is how this Patchbay makes a new one
 *  (`node /x/bin/patchbay.mjs --data-dir '/y' dashboard`: the data folder decides which Patchbay answers). */
export function loginFailedPage(dashboardCommand = "patchbay dashboard"): string {
  return page(
    "This login link has expired",
    "<p>A login link works only once, and only while the Patchbay that printed it runs.</p>" +
      "<ul>" +
      "<li>Desktop app: open the dashboard from the tray menu.</li>" +
      `<li>Headless: run <code>${escapeHtml(dashboardCommand)}</code> ` +
      "for a new one-time login URL from the running Patchbay. " +
      "Every launch of <code>patchbay serve</code> also prints one.</li>" +
      "<li>Scripts need no login URL: they read <code>adminUrl</code> and <code>adminToken</code> from " +
      "<code>runtime.json</code> in the data folder and call the admin API with " +
      "<code>Authorization: Bearer &lt;adminToken&gt;</code>.</li>" +
      "</ul>",
  );
}

/** 503 page when the renderer has not been built. */
export function notBuiltPage(): string {
  return page(
    "Dashboard not built",
    "<p>The dashboard files are missing. Run <code>npm run build:renderer</code> and reload.</p>",
  );
}
