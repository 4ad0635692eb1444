// Dashboard end to end (issue 5): headless Patchbay (real OpenCode + mock upstream) driven through Debian Chromium.
// One Patchbay and one browser for the file; the tests run in order and build on each other (app → key → traffic).
// Screenshots go to test-artifacts/screenshots/ (1280×800, plus 900×600 ones).
import { after, afterEach, before, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startDashboardFixture, DESKTOP_VIEWPORT, type DashboardFixture } from "./support/dashboard-fixture";
import { eventually } from "./support/eventually";
import { readClipboard, writeClipboard } from "./support/clipboard";
import { Dashboard } from "./pages/dashboard";
import type { AppDetailPage } from "./pages/app-detail-page";

const APP = "e2e-notes";
const CORE_TABS = ["Keys", "Models", "Aliases", "Limits", "History", "Usage", "Connect"];
/** A formatted duration as the dashboard shows it ("840 ms", "1.25 s"), in ms; throws on anything else. */
function parseMs(text: string): number {
  const m = /^(\d+(?:\.\d+)?) (ms|s)$/.exec(text.trim());
  if (!m) throw new Error(`not a duration: ${JSON.stringify(text)}`);
  return Number(m[1]) * (m[2] === "s" ? 1000 : 1);
}

/** Asserts an OpenAI client call fails with this HTTP status (and code, when given). */
async function rejectsWith(call: Promise<unknown>, status: number, code?: string): Promise<void> {
  await assert.rejects(call, (err: unknown) => {
    assert.ok(err instanceof OpenAI.APIError, `expected an OpenAI APIError, got ${String(err)}`);
    assert.equal(err.status, status);
    if (code) assert.equal(err.code, code);
    return true;
  });
}

let d: DashboardFixture;
let dash: Dashboard;
let detail: AppDetailPage;
/** The key created through the UI (the only copy this test has, read from the reveal dialog). */
let key = "";
let prefix = "";
const shots: string[] = [];
const shot = async (name: string) => shots.push(await d.screenshot(name));

before(async () => {
  d = await startDashboardFixture();
  dash = new Dashboard(d.page);
});
// A failed step can leave a dialog open; close it so the next (independent) step starts from the page.
afterEach(async () => {
  for (let i = 0; i < 3 && (await d?.page.locator("dialog[open]").count()) > 0; i++)
    await d.page.keyboard.press("Escape");
});
/** Steps that use the key skip (instead of timing out one by one) when the step that created it failed. */
function needKey(t: TestContext): boolean {
  if (key) return true;
  t.skip("no key: the key-creation step failed");
  return false;
}
after(async () => {
  await d?.stop();
  if (shots.length) console.log(`screenshots:\n  ${shots.join("\n  ")}`);
});

describe("dashboard end to end", { timeout: 200_000 }, () => {
  test("logs in through the one-time login URL", async () => {
    const overview = await dash.login(d.fx.urls.loginUrl);
    assert.equal(new URL(d.page.url()).pathname, "/");
    assert.deepEqual(await d.context.cookies(), [], "no cookie: the session lives in sessionStorage (issue 16 item 9)");
    await overview.apiRegion().getByText("Running", { exact: true }).waitFor();
    await overview.openCodeRegion().getByText("Ready", { exact: true }).waitFor();
    await overview.page.getByRole("region", { name: "Getting started" }).waitFor();
    await shot("01-overview");

    // The URL works once: a second, fresh browser profile gets the expired-link page, and no session means no dashboard.
    const other = await d.browser.newContext();
    try {
      const p = await other.newPage();
      const reused = await p.goto(d.fx.urls.loginUrl);
      assert.equal(reused?.status(), 401);
      await p.getByRole("heading", { name: "This login link has expired" }).waitFor();
      const used = await p.getByRole("main").innerText();
      // The command names this Patchbay's data folder: run elsewhere, a bare `patchbay dashboard` reaches another one.
      const command = `--data-dir '${d.fx.dataDir}' dashboard`;
      for (const part of ["works only once", command, "runtime.json", "adminToken", "tray"])
        assert.ok(used.includes(part), `the used-link page mentions ${part}: ${used}`);
      await p.goto(`${d.fx.urls.adminUrl}/apps`);
      await p.getByRole("heading", { name: "Sign in to Patchbay" }).waitFor();
      // A fresh login URL (what a restarted `patchbay serve` prints) does work for that profile.
      await new Dashboard(p).login(d.fx.pb.createLoginUrl());
    } finally {
      await other.close();
    }
  });

  test("creates an app", async () => {
    const apps = await dash.apps();
    await apps.page.getByText("No apps yet").waitFor();
    await shot("02-apps-empty");
    detail = await apps.createApp(APP);
    assert.equal(new URL(d.page.url()).pathname, `/apps/${APP}/keys`);
    const tabs = await detail.tabNames();
    for (const t of CORE_TABS) assert.ok(tabs.includes(t), `tab ${t} in ${tabs.join(", ")}`);
    const listed = await dash.apps();
    await listed.table().getByRole("link", { name: APP, exact: true }).waitFor();
    await shot("03-apps-list");
    detail = await listed.open(APP);
  });

  test("creates a key, shows it once, and copies it", async () => {
    const keys = await detail.keys();
    await keys.region().getByText("No keys yet").waitFor();
    const reveal = await keys.createKey("e2e laptop");
    key = await reveal.key();
    assert.match(key, /^pb-[A-Za-z0-9_-]{40,}$/);
    prefix = key.slice(3, 15);
    const box = reveal.dialog().getByRole("textbox", { name: "API key" });
    const fits = await box.evaluate((el) => el.scrollWidth <= el.clientWidth);
    assert.ok(fits, "the whole key is visible in the reveal dialog, not scrolled");
    await shot("04-app-key-reveal");

    await writeClipboard(d.page, "placeholder");
    await reveal.copy();
    assert.equal(
      await eventually("the key on the clipboard", async () => {
        const text = await readClipboard(d.page);
        assert.notEqual(text, "placeholder");
        return text;
      }),
      key,
    );

    const keysTab = await reveal.done();
    const row = keysTab.row(prefix);
    await row.waitFor();
    const rowText = await row.innerText();
    assert.match(rowText, new RegExp(`pb-${prefix}…`));
    assert.match(rowText, /e2e laptop/);
    assert.match(rowText, /Never/);
    assert.ok(!(await d.page.content()).includes(key), "the full key is gone from the page once the dialog closes");
    await shot("05-app-keys");

    // Once means once: neither a reload nor the admin API ever shows the key again.
    await d.page.reload();
    await detail.ready();
    await keysTab.row(prefix).waitFor();
    assert.ok(!(await d.page.content()).includes(key), "no key after a reload");
    const listed = JSON.stringify(await d.fx.admin.listKeys({ params: { name: APP } }));
    assert.ok(listed.includes(prefix) && !listed.includes(key.slice(15)), "the key list carries the prefix only");
  });

  test("a request with that key appears live in Logs with model, tokens and timing", async (t) => {
    if (!needKey(t)) return;
    const logs = await dash.logs();
    await logs.waitLive();
    await d.page.getByText("No requests yet").waitFor();
    await shot("06-logs-empty");
    // Anything set on window survives only if the row arrives without a reload or navigation.
    await d.page.evaluate(() => ((window as unknown as { e2eNoReload: boolean }).e2eNoReload = true));

    // Bodies kept, and a prompt that (carelessly) contains the key: neither the drawer nor "Copy as curl" may show it.
    await d.fx.admin.updateSettings({ body: { logBodies: true } });
    d.fx.mock.reset();
    d.fx.mock.script({ text: "Live log check.", usage: { prompt_tokens: 21, completion_tokens: 7 }, delayMs: 300 });
    const t0 = Date.now();
    const r = await d.fx.openai(key).chat.completions.create({
      model: "mock/mock-model",
      messages: [{ role: "user", content: `hello, my key is ${key}` }],
    });
    const wallMs = Date.now() - t0;
    assert.equal(r.choices[0]?.message.content, "Live log check.");

    const row = logs.rowsWith("mock/mock-model").first();
    await row.waitFor({ timeout: 10_000 });
    const [time, app, model, status, tokens, ttft, total, endpoint] = await logs.cells(row);
    assert.match(time ?? "", /^\d\d:\d\d:\d\d$/);
    assert.equal(app, APP);
    assert.equal(model, "mock/mock-model");
    assert.equal(status, "200");
    assert.equal(tokens, "21 / 7");
    const totalMs = parseMs(total ?? "");
    assert.ok(parseMs(ttft ?? "") <= totalMs, `TTFT ${ttft} ≤ total ${total}`);
    assert.ok(
      totalMs >= 250 && totalMs <= wallMs + 50,
      `total ${total} within the mock's 300 ms delay and the client's ${wallMs} ms`,
    );
    assert.equal(
      await d.page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload),
      true,
      "no reload happened",
    );
    await shot("07-logs-row");

    const drawer = await logs.openDetails(row);
    const text = await drawer.text();
    for (const part of [
      APP,
      `pb-${prefix}…`,
      "mock/mock-model",
      "21 in",
      "7 out",
      "Request body",
      "hello, my key is",
    ]) {
      assert.ok(text.includes(part), `drawer shows ${part}`);
    }
    await shot("08-logs-drawer");
    await writeClipboard(d.page, "placeholder");
    await drawer.copyCurl();
    const curl = await eventually("the curl command on the clipboard", async () => {
      const c = await readClipboard(d.page);
      assert.notEqual(c, "placeholder");
      return c;
    });
    assert.equal(curl, await drawer.curl());
    assert.ok(curl.includes("$PATCHBAY_KEY"), "curl reads the key from $PATCHBAY_KEY");
    assert.ok(curl.includes('"mock/mock-model"') && curl.includes("hello, my key is"), "curl repeats the logged body");
    assert.ok(!curl.includes(key) && !curl.includes(key.slice(15)), "curl never contains the key");
    assert.ok(!text.includes(key.slice(15)), "the drawer never shows the key");
    await drawer.done();

    // Where the request went, in the table, the drawer and the curl URL (it must be callable as is).
    assert.equal(endpoint, "/v1/chat/completions", "Endpoint column: the path as sent");
    assert.ok(text.includes("POST /v1/chat/completions"), "drawer names the endpoint path");
    const api = new URL(d.fx.apiBase);
    assert.ok(
      curl.startsWith(`curl -X POST '${api.origin}/v1/chat/completions'`),
      `curl URL in: ${curl.split("\n")[0]}`,
    );

    // The same route without /v1 is shown as sent too (not stripped differently).
    d.fx.mock.script({ text: "Bare path." });
    const bare = await d.fx.api("/chat/completions", {
      method: "POST",
      key,
      body: JSON.stringify({ model: "mock/mock-model", messages: [{ role: "user", content: "bare path" }] }),
    });
    assert.equal(bare.status, 200);
    await eventually("the bare-path row", async () => {
      const cells = await logs.cells(logs.rows().first());
      assert.equal(cells[7], "/chat/completions");
    });
  });

  test("an alias shows up in that app's /v1/models and answers", async (t) => {
    if (!needKey(t)) return;
    detail = await (await dash.apps()).open(APP);
    const aliases = await detail.aliases();
    await aliases.region().getByText("No aliases").waitFor();
    await aliases.add("fast", "mock/mock-model");
    await aliases.save();
    await shot("09-app-aliases");
    const ids = (await d.fx.openai(key).models.list()).data.map((m) => m.id);
    assert.ok(ids.includes("fast"), `fast in ${ids.join(", ")}`);
    d.fx.mock.reset();
    d.fx.mock.script({ text: "Via alias." });
    const r = await d.fx
      .openai(key)
      .chat.completions.create({ model: "fast", messages: [{ role: "user", content: "hi" }] });
    assert.equal(r.choices[0]?.message.content, "Via alias.");
    assert.equal(d.fx.mock.chatRequests()[0]?.body.model, "mock-model");
    // An alias to a model no provider offers is saved with the server's warning shown, then removed again.
    await aliases.add("ghost", "mock/nonesuch");
    await aliases.save();
    await aliases
      .region()
      .getByText(/"ghost" points to mock\/nonesuch, which no connected provider offers; .* requests are refused/)
      .waitFor();
    await aliases.region().getByRole("button", { name: "Remove alias ghost" }).click();
    await aliases.save();
  });

  test("restricting the allowlist refuses other models with 403", async (t) => {
    if (!needKey(t)) return;
    const models = await detail.models();
    await models
      .region()
      .getByText(/Every model is allowed/)
      .waitFor();
    await models.add("mock/mock-model");
    await models.save();
    await shot("10-app-models");
    await rejectsWith(
      d.fx
        .openai(key)
        .chat.completions.create({ model: "mock/mock-reasoner", messages: [{ role: "user", content: "x" }] }),
      403,
      "model_not_allowed",
    );
    const ids = (await d.fx.openai(key).models.list()).data.map((m) => m.id).sort();
    assert.deepEqual(ids, ["fast", "mock/mock-model"]);
  });

  test("the other App detail tabs render (Limits, History, Usage with data, Connect)", async (t) => {
    if (!needKey(t)) return;
    const limits = await detail.tab("Limits");
    await limits.region().getByRole("spinbutton", { name: "Concurrency" }).waitFor();
    await shot("11-app-limits");
    const history = await detail.tab("History");
    await history.region().getByRole("switch", { name: "Keep all sessions" }).waitFor();
    await shot("12-app-history");
    const usage = await detail.tab("Usage");
    await usage.region().getByRole("region", { name: "Requests per day" }).waitFor();
    // Usage counts every API request of the app (chat, refused, /v1/models): compare with the request log.
    const logged = await d.fx.admin.queryLogs({ query: { app: APP, limit: 500 } });
    assert.ok(logged.entries.length >= 3);
    const requests = usage.region().locator(".stat", { hasText: "Requests" }).locator(".stat-value");
    assert.equal((await requests.innerText()).trim(), String(logged.entries.length));
    await usage.region().locator(".recharts-bar-rectangle").first().waitFor();
    await shot("13-app-usage");
    const connect = await detail.connect();
    assert.equal(await connect.baseUrl(), d.fx.pb.status().api.baseUrl);
    await shot("14-app-connect");
  });

  test("revoking the key gives 401", async (t) => {
    if (!needKey(t)) return;
    const keys = await detail.keys();
    await keys.revoke(prefix);
    await keys.region().getByText("No keys yet").waitFor();
    await rejectsWith(d.fx.openai(key).models.list(), 401, "invalid_api_key");
    await rejectsWith(
      d.fx
        .openai(key)
        .chat.completions.create({ model: "mock/mock-model", messages: [{ role: "user", content: "x" }] }),
      401,
      "invalid_api_key",
    );
  });

  test("the Logs status filter shows the refused request", async (t) => {
    if (!needKey(t)) return;
    const logs = await dash.logs();
    await logs.filterStatus("Failed (4xx/5xx)");
    await eventually("only failed rows", async () => {
      const statuses = (await logs.rows().locator(".status-code").allInnerTexts()).map((s) => s.trim());
      // Requests refused before a key is accepted (401) are not in the request log (see the report); 403 is.
      assert.ok(statuses.includes("403"), `403 in ${statuses.join(", ")}`);
      assert.ok(
        statuses.every((s) => Number(s) >= 400),
        `all failed: ${statuses.join(", ")}`,
      );
    });
    await shot("15-logs-failed-filter");
    await logs.filterStatus("Any status");
  });

  test("stops and starts the API from Overview", async () => {
    const overview = await dash.overview();
    const running = await overview.baseUrl();
    const health = (base: string) => fetch(base.replace(/\/v1$/, "/healthz"), { signal: AbortSignal.timeout(5_000) });
    assert.equal((await health(running)).status, 200);

    // Stop asks first; Cancel keeps the API running.
    await overview.askStopApi();
    await overview.stopDialog().getByRole("button", { name: "Cancel", exact: true }).click();
    await overview.stopDialog().waitFor({ state: "detached" });
    assert.equal((await health(running)).status, 200, "still running after Cancel");

    await overview.stopApi();
    await d.page.getByRole("complementary").getByText("Stopped", { exact: true }).waitFor();
    await assert.rejects(health(running), "/healthz is unreachable while the API is stopped");
    await shot("16-overview-stopped");

    await overview.startApi();
    const restarted = await overview.baseUrl();
    assert.equal(restarted, d.fx.pb.status().api.baseUrl);
    const res = await eventually("/healthz after start", async () => {
      const r = await health(restarted);
      assert.equal(r.status, 200);
      return r;
    });
    assert.deepEqual(await res.json(), { status: "ok", opencode: "ready" });
  });

  test("Settings renders the API form", async () => {
    const settings = await dash.settings();
    assert.equal(await settings.host().inputValue(), "127.0.0.1");
    assert.match(await settings.port().inputValue(), /^\d+$/);
    for (const s of ["Expose on LAN", "Keep request bodies in the log", "Start the API when Patchbay launches"])
      await settings.switch(s).waitFor();
    assert.equal(await settings.switch("Launch at login").count(), 0, "desktop-only switch hidden in headless mode");
    assert.equal(
      await settings.switch("Keep request bodies in the log").isChecked(),
      true,
      "shows logBodies (turned on in the Logs step)",
    );
    assert.equal(await settings.save().isDisabled(), true, "nothing to save yet");
    await settings.page.getByText("When off, the API stays stopped until you press Start API").waitFor();
    // Headless: no "Open data folder" (desktop only); the path is shown as text, with a copy button.
    assert.equal(await settings.page.getByRole("button", { name: "Open data folder" }).count(), 0);
    const about = settings.page.getByRole("region", { name: "About" });
    assert.equal((await about.locator("code").first().innerText()).trim(), d.fx.dataDir);
    await about.getByRole("button", { name: "Copy data folder path" }).waitFor();
    const dialog = await settings.askLanExposure();
    await shot("17-settings-lan-confirm");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    assert.equal(await settings.switch("Expose on LAN").isChecked(), false);
    // A save says "Saved" and sticks across a reload (the form is not remounted by its own save).
    const api = settings.page.getByRole("region", { name: "OpenAI API" });
    const autostart = () => settings.switch("Start the API when Patchbay launches");
    for (const on of [false, true]) {
      await autostart().setChecked(on);
      await settings.save().click();
      await api
        .getByRole("status")
        .filter({ hasText: /^Saved$/ })
        .waitFor();
      await settings.page.reload();
      await settings.ready();
      assert.equal(await autostart().isChecked(), on);
    }
    await shot("18-settings");
  });

  test("the schema-backed forms word a bad field alike (Settings, Limits, History)", async () => {
    // One form hook: an empty number says so, a bound is named in the unit the field shows, and Save is blocked.
    const settings = await dash.settings();
    const api = settings.page.getByRole("region", { name: "OpenAI API" });
    await settings.port().fill("");
    await api.getByText("Enter a number", { exact: true }).waitFor();
    await settings.port().fill("70000");
    await api.getByText("Enter 65535 or less", { exact: true }).waitFor();
    await api.getByRole("status").filter({ hasText: "Fix the highlighted fields" }).waitFor();
    assert.equal(await settings.save().isDisabled(), true, "an invalid form cannot be saved");
    await api.getByRole("button", { name: "Reset" }).click();
    assert.equal(await settings.save().isDisabled(), true, "nothing to save after Reset");

    detail = await (await dash.apps()).open(APP);
    const limits = await detail.tab("Limits");
    // Stored in ms (at least 1000), shown in seconds: the message names seconds.
    await limits.region().getByRole("spinbutton", { name: "First token timeout (seconds)" }).fill("0.5");
    await limits.region().getByText("Enter 1 or more", { exact: true }).waitFor();
    await limits.region().getByRole("status").filter({ hasText: "Fix the highlighted fields" }).waitFor();
    // The limits form's Reset (the Budgets panel below has its own).
    await limits.region().getByRole("button", { name: "Reset" }).first().click();

    const history = await detail.history();
    await history.setMaxSessions(1.5);
    await history.region().getByText("Enter a whole number", { exact: true }).waitFor();
    assert.equal(await history.saveButton().isDisabled(), true, "an invalid limit cannot be saved");
    await history.region().getByRole("button", { name: "Reset" }).click();
  });

  test("Connect shows snippets filled with the base URL", async () => {
    const connect = await dash.connect();
    await connect.chooseApp(APP);
    const base = d.fx.pb.status().api.baseUrl ?? "";
    assert.match(base, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const panel = connect.panel();
    assert.equal(await panel.baseUrl(), base);
    const curl = await panel.snippet("curl");
    assert.ok(curl.includes(`${base}/chat/completions`), "curl snippet posts to the base URL");
    assert.ok(curl.includes("$PATCHBAY_KEY"));
    assert.ok(curl.includes('"fast"'), "the app's alias is the default model");
    await shot("19-connect");
    assert.ok((await panel.snippet("OpenAI Python")).includes(base));
    assert.ok((await panel.snippet("OpenAI JS")).includes(base));
    const codex = await panel.snippet("Codex");
    assert.ok(codex.includes(base) && codex.includes('wire_api = "responses"'), "Codex uses the Responses wire");
    await writeClipboard(d.page, "placeholder");
    await panel.copySnippet("Codex");
    assert.equal(
      await eventually("the snippet on the clipboard", async () => {
        const c = await readClipboard(d.page);
        assert.notEqual(c, "placeholder");
        return c;
      }),
      codex,
    );
    await shot("20-connect-codex");
  });

  test("works at 900×600 without horizontal scrolling", async () => {
    await d.page.setViewportSize({ width: 900, height: 600 });
    try {
      const pageWidth = () => d.page.evaluate(() => document.documentElement.scrollWidth);
      await dash.overview();
      assert.ok((await pageWidth()) <= 900, `Overview fits: ${await pageWidth()} px`);
      await shot("21-overview-900x600");
      await dash.logs();
      await d.page.getByRole("table", { name: "Request log" }).waitFor();
      assert.ok((await pageWidth()) <= 900, `Logs fit: ${await pageWidth()} px`);
      await shot("22-logs-900x600");
      detail = await (await dash.apps()).open(APP);
      await detail.aliases();
      assert.ok((await pageWidth()) <= 900, `App detail fits: ${await pageWidth()} px`);
      await shot("23-app-aliases-900x600");
    } finally {
      await d.page.setViewportSize(DESKTOP_VIEWPORT);
    }
  });

  test("the page threw no uncaught errors", () => {
    assert.deepEqual(d.pageErrors, []);
    if (d.consoleErrors.length) console.log(`console errors (informational):\n  ${d.consoleErrors.join("\n  ")}`);
  });
});
