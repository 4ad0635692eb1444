// Issue 16 item 12: with no provider logged in and no --demo, the dashboard says there are no models where the user
// looks (Overview and Connect), with the exact login command, instead of a green Overview and a 404 later.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { NO_MODELS } from "../../shared/status";
import { startDashboardFixture, type DashboardFixture } from "./support/dashboard-fixture";
import { Dashboard } from "./pages/dashboard";
import { waitFor } from "../harness/wait-for";

let d: DashboardFixture;
before(async () => {
  d = await startDashboardFixture({ noModels: true });
});
after(async () => {
  await d?.stop();
});

describe("no models: the dashboard says so (issue 16 item 12)", { timeout: 120_000 }, () => {
  test("the server counts zero models once OpenCode is ready", async () => {
    await waitFor("the model count", () => d.fx.pb.status().modelCount === 0, 20_000);
    const models = await d.fx.admin.getModels();
    assert.equal(models.providers.flatMap((p) => p.models).length, 0);
  });

  test("Overview shows a notice with the login command; so does Connect", async () => {
    const dash = new Dashboard(d.page);
    const overview = await dash.login(d.fx.urls.loginUrl);
    const notice = overview.page.getByRole("region", { name: "No models available" });
    await notice.waitFor();
    const text = await notice.innerText();
    assert.ok(text.includes(NO_MODELS.loginCommand), text);
    assert.ok(text.includes("--demo"), text);
    assert.match(text, /restart Patchbay/);
    await d.screenshot("no-models-overview");
    const connect = await dash.connect();
    await connect.page.getByRole("region", { name: "No models available" }).waitFor();
  });

  test("the page threw no uncaught errors", () => {
    assert.deepEqual(d.pageErrors, []);
  });
});
