// The Connect page's "Set up" dialog end to end (issue 17): headless Patchbay (real OpenCode + mock upstream) with a
// temp HOME for the agents' config files, driven through Debian Chromium. The dialog shows the diff and writes
// nothing until asked; writing merges into the existing file and verifies it; `/connect?setup=codex` (the tray's
// entry) opens the dialog directly. The "Check your agents" card runs `patchbay doctor` for Codex (the agent CLI in
// Patchbay's node_modules) against its own throwaway Patchbay. Screenshots: test-artifacts/screenshots/setup-*.png.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startDashboardFixture, type DashboardFixture } from "./support/dashboard-fixture";
import { Dashboard } from "./pages/dashboard";
import { CodingAgentsCard, SetupAgentDialog } from "./pages/setup-agent-dialog";
import { AgentCheckCard } from "./pages/agent-check";

let d: DashboardFixture;
let home: string;
const shots: string[] = [];

before(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "pb-setup-home-"));
  // PATH: the system's only, so the agent check finds Node and the agent CLIs Patchbay's install ships (pinned).
  d = await startDashboardFixture({ clientEnv: { HOME: home, PATH: "/usr/bin:/bin" } });
});
afterEach(async () => {
  for (let i = 0; i < 3 && (await d?.page.locator("dialog[open]").count()) > 0; i++)
    await d.page.keyboard.press("Escape");
});
after(async () => {
  await d?.stop();
  fs.rmSync(home, { recursive: true, force: true });
  if (shots.length) console.log(`screenshots:\n  ${shots.join("\n  ")}`);
});

describe("Set up a coding agent from the dashboard", { timeout: 300_000 }, () => {
  const file = () => path.join(home, ".codex", "config.toml");
  const original = '# mine\napproval_policy = "never"\n';

  test("the dialog shows the diff and writes nothing until asked", async () => {
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), original);
    const dash = new Dashboard(d.page);
    await dash.login(d.fx.urls.loginUrl);
    await dash.connect();
    const dialog = await new CodingAgentsCard(d.page).setUp("Codex");
    const diff = await dialog.diff();
    assert.match(diff, /^--- a\/config\.toml$/m);
    assert.match(diff, /^\+model_provider = "patchbay"$/m);
    assert.match(diff, /^\+\[model_providers\.patchbay\]$/m);
    // It names the app whose key and models Codex gets (the page's app picker is for the snippets).
    await dialog.dialog().getByText("It uses a key and the models of the app codex.").waitFor();
    shots.push(await d.screenshot("setup-codex-preview"));
    await dialog.cancel();
    assert.equal(fs.readFileSync(file(), "utf8"), original);
  });

  test("Write settings merges into the file and verifies it with a real request", async () => {
    const dialog = await new CodingAgentsCard(d.page).setUp("Codex");
    const result = await dialog.write();
    assert.match(result, /^OK: .*MOCK_DEFAULT_REPLY/);
    shots.push(await d.screenshot("setup-codex-done"));
    await dialog.done();
    const written = fs.readFileSync(file(), "utf8");
    assert.ok(written.startsWith('# mine\napproval_policy = "never"\nmodel_provider = "patchbay"\n'), written);
    assert.match(written, /experimental_bearer_token = "pb-/);
    assert.match(await new CodingAgentsCard(d.page).verify("Codex"), /^OK: /);
  });

  test("/connect?setup=codex (the tray's entry) opens the dialog; it says the file is already set up", async () => {
    await d.page.goto(`${d.fx.urls.adminUrl}/connect?setup=codex`);
    const dialog = await new SetupAgentDialog(d.page, "Codex").ready();
    await dialog.dialog().getByText("already has these settings").waitFor();
    assert.equal(await dialog.dialog().getByRole("button", { name: "Write settings" }).isDisabled(), true);
    await dialog.cancel();
    assert.equal(new URL(d.page.url()).search, "", "closing clears ?setup");
    const undone = await d.fx.admin.undoConnect({ params: { client: "codex" } });
    assert.equal(undone.action, "restored");
    assert.equal(fs.readFileSync(file(), "utf8"), original);
  });

  test("a broken file: the dialog shows why and nothing can be written", async () => {
    fs.writeFileSync(file(), "[broken\n");
    await d.page.goto(`${d.fx.urls.adminUrl}/connect?setup=codex`);
    const dialog = new SetupAgentDialog(d.page, "Codex");
    await dialog
      .dialog()
      .getByText(/not valid TOML \(line 1/)
      .waitFor();
    assert.equal(await dialog.dialog().getByRole("button", { name: "Write settings" }).isDisabled(), true);
    assert.equal(fs.readFileSync(file(), "utf8"), "[broken\n");
    assert.deepEqual(d.pageErrors, []);
  });
});

describe("Check your agents from the dashboard", { timeout: 600_000 }, () => {
  test("Run check with only Codex: its row shows its three checks passed and the version remembered", async () => {
    await d.page.goto(`${d.fx.urls.adminUrl}/connect`);
    const card = await new AgentCheckCard(d.page).pick(["Codex"]);
    await card.run();
    await card
      .progress()
      .getByText(/Checking Codex/)
      .waitFor({ timeout: 120_000 });
    const [version, plain, tool, image, lastPassed, ...rest] = await card.row("Codex", 480_000);
    assert.match(version ?? "", /^\d+\.\d+\.\d+/);
    assert.deepEqual([plain, tool, image, rest], ["ok", "ok", "ok", []]);
    await card.results().getByRole("columnheader", { name: "Image", exact: true }).waitFor();
    assert.equal(lastPassed, version);
    assert.equal(await card.results().getByRole("rowheader").count(), 1, "only Codex was checked");
    await card.results().scrollIntoViewIfNeeded();
    shots.push(await d.screenshot("setup-agent-check"));
    assert.deepEqual(d.pageErrors, []);
  });
});
