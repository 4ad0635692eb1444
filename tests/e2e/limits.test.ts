// Routing and limits in the dashboard (issue 24), one headless Patchbay (real OpenCode + mock upstream) and Chromium:
// the Models tab's routes, the Aliases tab's fallback chains and the Limits tab's budgets save, remove and refuse bad
// input (nothing saved); the Aliases tab shows each alias's fallbacks, the roles routed to it and the app's routes;
// the Limits tab's web search switch saves at once and says where searches go (issue 23); the Usage tab shows each
// budget as used/limit with its reset; the Overview shows a provider model rate-limited until its retry time and
// links the refusal to its log entry.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startDashboardFixture, type DashboardFixture } from "./support/dashboard-fixture";
import { eventually } from "./support/eventually";
import { Dashboard } from "./pages/dashboard";
import { BudgetsPanel, BudgetUse, FallbackChains, RoutesPanel, WebSearchPanel } from "./pages/limits-panels";
import { RequestDetailsDrawer } from "./pages/logs-page";

const APP = "e2e-limits";
let d: DashboardFixture;
let dash: Dashboard;
let key = "";

/** The app as the server has it now. */
const stored = () => d.fx.admin.getApp({ params: { name: APP } });

/** `ms` as the dashboard's formatTime shows it (browser's locale and zone: today → HH:MM:SS, else date and time). */
function shownTime(ms: number): Promise<string> {
  return d.page.evaluate((t) => {
    const date = new Date(t);
    if (new Date().toDateString() === date.toDateString())
      return new Intl.DateTimeFormat(undefined, {
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        hourCycle: "h23",
      }).format(date);
    return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" }).format(date);
  }, ms);
}

before(async () => {
  d = await startDashboardFixture();
  dash = new Dashboard(d.page);
  key = await d.fx.createKey(APP, { models: ["mock/*"] });
  await d.fx.admin.updateApp({ params: { name: APP }, body: { aliases: { cheap: "mock/mock-reasoner" } } });
  await dash.login(d.fx.urls.loginUrl);
});
afterEach(async () => {
  for (let i = 0; i < 3 && (await d?.page.locator("dialog[open]").count()) > 0; i++)
    await d.page.keyboard.press("Escape");
});
after(async () => {
  await d?.stop();
});

describe("routing and limits in the dashboard", { timeout: 240_000 }, () => {
  test("routes: a bad target is refused with the server's words and nothing saved; save, then remove", async () => {
    const detail = await (await dash.apps()).open(APP);
    await detail.models();
    const routes = await new RoutesPanel(d.page).ready();

    await routes.set("subagent", "nonesuch");
    await routes.clickSave();
    await routes
      .error()
      .filter({ hasText: /neither an alias of app "e2e-limits" nor provider\/model/ })
      .waitFor();
    await routes.set("subagent", "other/not-allowed");
    await routes.clickSave();
    await routes
      .error()
      .filter({ hasText: /may not use; add it to the app's models first/ })
      .waitFor();
    await routes.set("subagent", "mock/nonesuch");
    await routes.clickSave();
    await routes
      .error()
      .filter({ hasText: /route for subagent names mock\/nonesuch, which no connected provider offers/ })
      .waitFor();
    assert.deepEqual((await stored()).routes, {}, "nothing saved");

    await routes.set("subagent", "cheap");
    await routes.set("compaction", "mock/mock-model");
    await routes.save();
    assert.deepEqual((await stored()).routes, { subagent: "cheap", compaction: "mock/mock-model" });
    await d.screenshot("limits-01-routes");

    await routes.set("compaction", "");
    await routes.save();
    assert.deepEqual((await stored()).routes, { subagent: "cheap" }, "an emptied role is removed");
  });

  test("aliases tab: each alias's fallback chain and the roles routed to it, and the app's routes", async () => {
    await d.fx.admin.updateApp({ params: { name: APP }, body: { fallbacks: { cheap: ["mock/mock-model"] } } });
    await d.fx.admin.updateApp({
      params: { name: APP },
      body: { routes: { subagent: "cheap", review: "mock/mock-vision" } },
    });
    await d.page.reload(); // the dashboard caches the app it showed before these API changes
    const aliases = await (await (await dash.apps()).open(APP)).aliases();
    assert.deepEqual((await aliases.row("cheap")).slice(0, 4), [
      "cheap",
      "mock/mock-reasoner",
      "mock/mock-model",
      "subagent",
    ]);
    assert.deepEqual(await aliases.routes(), [
      ["subagent", "cheap → mock/mock-reasoner → mock/mock-model"],
      ["review", "mock/mock-vision"],
    ]);
    await d.screenshot("limits-01b-aliases-routing");
    await d.fx.admin.updateApp({ params: { name: APP }, body: { routes: { subagent: "cheap" } } });
  });

  test("fallback chains: pick, reorder, remove and save; the server's refusal shown at the chain, nothing saved", async () => {
    // From the previous step: cheap → mock/mock-reasoner → mock/mock-model, subagent routed to cheap.
    const aliases = await (await (await dash.apps()).open(APP)).aliases();
    const chains = await new FallbackChains(d.page).ready();
    assert.deepEqual(await chains.listed("cheap"), ["mock/mock-model"]);

    await chains.pick("cheap", "vision", "mock/mock-vision");
    await chains.button("cheap", "Move mock/mock-vision up").click();
    assert.deepEqual(await chains.listed("cheap"), ["mock/mock-vision", "mock/mock-model"]);
    assert.equal(await chains.button("cheap", "Move mock/mock-vision up").getAttribute("aria-disabled"), "true");
    await chains
      .status()
      .filter({ hasText: /^Unsaved changes$/ })
      .waitFor();
    // Refused before saving: the alias's own target, a model already in the chain, not provider/model.
    for (const [model, why] of [
      ["mock/mock-reasoner", "mock/mock-reasoner is the alias's own target"],
      ["mock/mock-model", "mock/mock-model is already in this chain."],
      ["fast", "Use provider/model or provider/model#variant"],
    ] as const) {
      await chains.type("cheap", model);
      await chains.chain("cheap").getByText(why).waitFor();
    }
    assert.deepEqual(await chains.listed("cheap"), ["mock/mock-vision", "mock/mock-model"]);

    // Refused by the server (400 naming fallbacks.cheap[2]): shown at the chain in its words, nothing saved.
    for (const [model, words] of [
      ["mock/nonesuch", /The fallback mock\/nonesuch of "cheap" is a model no connected provider offers/],
      ["other/model", /The fallback other\/model of "cheap" is a model app "e2e-limits" may not use/],
      ["other/bell\u0007", /Control characters are not allowed in a model id/],
    ] as const) {
      await chains.type("cheap", model);
      await chains.clickSave();
      await chains.error("cheap").filter({ hasText: words }).waitFor();
      if (model === "mock/nonesuch") {
        await chains.chain("cheap").scrollIntoViewIfNeeded();
        await d.screenshot("limits-01c-fallback-refused");
      }
      assert.deepEqual((await stored()).fallbacks, { cheap: ["mock/mock-model"] }, `${model}: nothing saved`);
      await chains.button("cheap", `Remove fallback ${model}`).click();
      assert.equal(await chains.error("cheap").count(), 0, "an edit clears the refusal");
    }

    await chains.save();
    assert.deepEqual((await stored()).fallbacks, { cheap: ["mock/mock-vision", "mock/mock-model"] });
    assert.equal((await aliases.row("cheap"))[2], "mock/mock-vision → mock/mock-model");
    assert.deepEqual((await aliases.routes())[0], [
      "subagent",
      "cheap → mock/mock-reasoner → mock/mock-vision → mock/mock-model",
    ]);
    await d.screenshot("limits-01c-fallback-chains");

    // A newly saved alias gets a chain editor; removing the alias (saved) takes its chain with it.
    await aliases.add("quick", "mock/mock-model");
    await aliases.save();
    await chains.pick("quick", "reasoner#high", "mock/mock-reasoner#high");
    await chains.button("cheap", "Remove fallback mock/mock-model").click();
    await chains.save();
    assert.deepEqual((await stored()).fallbacks, {
      cheap: ["mock/mock-vision"],
      quick: ["mock/mock-reasoner#high"],
    });
    await aliases.region().getByRole("button", { name: "Remove alias quick" }).click();
    await aliases.save();
    await chains.chain("quick").waitFor({ state: "detached" });
    assert.deepEqual((await stored()).fallbacks, { cheap: ["mock/mock-vision"] });
    assert.deepEqual(await chains.listed("cheap"), ["mock/mock-vision"]);
  });

  test("budgets: a malformed window is refused at the field, nothing added or saved; add, save, remove", async () => {
    const detail = await (await dash.apps()).open(APP);
    await detail.tab("Limits");
    const budgets = await new BudgetsPanel(d.page).ready();

    await budgets.add("Requests", "10/7x");
    await budgets
      .region()
      .getByText('Invalid requests budget "10/7x": unknown window "7x"; use 5h, day, week.')
      .waitFor();
    assert.equal(await budgets.specField().getAttribute("aria-invalid"), "true");
    await budgets.add("Tokens", "lots/day");
    await budgets
      .region()
      .getByText(/Invalid tokens budget "lots\/day": use N\/<window>/)
      .waitFor();
    assert.deepEqual(await budgets.listed(), [], "nothing added");
    assert.equal(await budgets.saveButton().isDisabled(), true, "nothing to save");

    await budgets.add("Requests", "3/5h");
    await budgets.add("Tokens", "1000000/day");
    assert.deepEqual(await budgets.listed(), ["3 requests per 5 hours", "1000000 tokens per day"]);
    await budgets.save();
    assert.deepEqual((await stored()).budgets, [
      { metric: "requests", limit: 3, window: "5h" },
      { metric: "tokens", limit: 1000000, window: "day" },
    ]);
    await d.screenshot("limits-02-budgets");

    await budgets.remove("1000000 tokens per day");
    await budgets.save();
    assert.deepEqual((await stored()).budgets, [{ metric: "requests", limit: 3, window: "5h" }]);
  });

  test("usage: each budget as used/limit with its reset time", async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: d.fx.apiBase, maxRetries: 0, timeout: 120_000 });
    d.fx.mock.reset();
    for (let i = 0; i < 2; i++)
      await openai.chat.completions.create({
        model: "mock/mock-model",
        messages: [{ role: "user", content: `u${i}` }],
      });
    const usage = await d.fx.admin.getUsage({ params: { name: APP }, query: {} });
    const budget = usage.budgets[0];
    assert.ok(budget && budget.resetAt !== null, JSON.stringify(usage.budgets));
    assert.equal(budget.used, 2);

    const detail = await (await dash.apps()).open(APP);
    await detail.tab("Usage");
    const use = await new BudgetUse(d.page).ready();
    const item = use.item("3 requests per 5 hours");
    await item.getByText("2/3", { exact: true }).waitFor();
    await item.getByText(`resets ${await shownTime(budget.resetAt)}`, { exact: true }).waitFor();
    assert.equal(await item.getByRole("meter").getAttribute("value"), "2");
    await d.screenshot("limits-03-usage-budgets");
  });

  test("overview: a provider's 429 shows the model rate-limited until its retry time, linked to the refusal", async () => {
    // Out of the way of the 3-request budget of the earlier step.
    await d.fx.admin.updateApp({ params: { name: APP }, body: { budgets: [] } });
    const openai = new OpenAI({ apiKey: key, baseURL: d.fx.apiBase, maxRetries: 0, timeout: 120_000 });
    d.fx.mock.reset();
    d.fx.mock.setResponder(() => ({
      error: { status: 429, message: "rate limit exceeded", headers: { "retry-after": "600" } },
    }));
    await assert.rejects(
      openai.chat.completions.create({ model: "mock/mock-vision", messages: [{ role: "user", content: "limited" }] }),
      (err: unknown) => err instanceof OpenAI.APIError && err.status === 429,
    );
    d.fx.mock.setResponder(() => ({ text: "MOCK_DEFAULT_REPLY" }));
    const limited = await eventually("the refusal in the status", async () => {
      const r = d.fx.pb.status().limits?.rateLimited.find((x) => x.model === "mock/mock-vision");
      assert.ok(r);
      return r;
    });
    assert.ok(limited.logId, "the refusal's log entry is known");

    const overview = await dash.overview();
    const row = overview.rateLimited("mock/mock-vision");
    await row.getByText(`rate-limited until ${await shownTime(limited.until)}`, { exact: true }).waitFor();
    await d.screenshot("limits-04-overview-rate-limited");
    await row.getByRole("link", { name: "See the refusal" }).click();
    const drawer = await new RequestDetailsDrawer(d.page).ready();
    const text = await drawer.text();
    assert.match(text, /429/);
    assert.match(text, /rate limit exceeded/);
    assert.match(new URL(d.page.url()).search, new RegExp(`entry=${limited.logId}`));
  });

  test("web search: the switch saves at once; the panel says where searches go, or that no backend is set", async () => {
    const detail = await (await dash.apps()).open(APP);
    await detail.tab("Limits");
    let panel = await new WebSearchPanel(d.page).ready();
    assert.equal(await panel.toggle().isChecked(), true, "on by default");
    await panel.region().getByText("No search backend is set").waitFor();

    // Loopback port 9 (discard): nothing is searched here, the panel only names it.
    await (await dash.settings()).saveSearchUrl("http://127.0.0.1:9");
    await (await (await dash.apps()).open(APP)).tab("Limits");
    panel = await new WebSearchPanel(d.page).ready();
    await panel
      .region()
      .getByText(/^Searches go to http:\/\/127\.0\.0\.1:9 \(Settings → Web search\)/)
      .waitFor();

    await panel.toggle().click();
    await panel
      .region()
      .getByText(/^Off: clients get a “search unavailable” result/)
      .waitFor();
    await eventually("webSearch off saved", async () => assert.equal((await stored()).webSearch, false));
    await d.page.reload();
    panel = await new WebSearchPanel(d.page).ready();
    assert.equal(await panel.toggle().isChecked(), false, "still off after a reload");
    await panel.region().scrollIntoViewIfNeeded();
    await d.screenshot("limits-05-web-search-off");

    await panel.toggle().click();
    await panel
      .region()
      .getByText(/^Searches go to http:\/\/127\.0\.0\.1:9/)
      .waitFor();
    await eventually("webSearch on saved", async () => assert.equal((await stored()).webSearch, true));
  });
});
