// The dashboard's Sessions tab and prune panel for real (issue 6): the built renderer served by the real admin app
// (stores faked, history real: one `opencode serve` + mock upstream for this file), driven through Debian Chromium.
// Page through with infinite scroll, open a session and see its messages (text, image, reasoning), delete one and a
// selection, set a limit and see the live preview count, save, prune now, see the last sweep.
// Needs the built renderer (`npm run build:renderer`; PATCHBAY_RENDERER_DIR overrides) and Chromium.
import os from "node:os";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "playwright-core";
import { SESSION_STORAGE_KEY } from "../../shared/admin-api";
import { createAdminApp, type AdminApp } from "../../server/http/admin/admin-app";
import { ResponseStore } from "../../server/responses-store/response-store";
import { createHistory } from "../../server/history";
import { FakeApps, FakeKeys, FakeRequestLog, FakeSettings, fakeStatus, MODELS } from "../unit/admin/fakes";
import { createSessions, startHistoryEnv, type HistoryEnv } from "./history-support";
import { bareCli } from "../../server/core/cli-command";

const ROOT = path.resolve(import.meta.dirname, "../..");
const RENDERER = process.env.PATCHBAY_RENDERER_DIR ?? path.join(ROOT, "dist", "renderer");
const CHROMIUM = process.env.PATCHBAY_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = path.join(ROOT, "test-artifacts", "screenshots");
const RED16 = `data:image/png;base64,${fs.readFileSync(path.join(ROOT, "tests", "fixtures", "red16.b64"), "utf8").trim()}`;
const MODEL = { providerID: "mock", modelID: "mock-model" };
const TOKEN = "history-dashboard-token-0123456789abcdef";

let env: HistoryEnv;
let history: ReturnType<typeof createHistory>;
let admin: AdminApp;
let server: http.Server;
let origin = "";
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const rows = () => page.getByRole("table", { name: "Sessions" }).locator("tbody tr");
const shot = (name: string) =>
  page.screenshot({ path: path.join(SHOTS, `history-${name}.png`), animations: "disabled" });

before(async () => {
  assert.ok(
    fs.existsSync(path.join(RENDERER, "index.html")),
    `The dashboard is not built in ${RENDERER}: run npm run build:renderer`,
  );
  assert.ok(
    fs.existsSync(CHROMIUM),
    `Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set PATCHBAY_CHROMIUM)`,
  );
  env = await startHistoryEnv();
  const apps = new FakeApps();
  await apps.create("notes");
  history = createHistory({
    opencode: env.supervisor,
    dataDir: env.dataDir,
    limitsOf: (a) => apps.get(a)?.history ?? null,
    apps: () => apps.list().map((a) => a.name),
    log: () => {},
  });
  admin = createAdminApp({
    settings: new FakeSettings(),
    apps,
    keys: new FakeKeys(),
    requestLog: new FakeRequestLog(),
    cli: bareCli,
    listModels: async () => MODELS,
    status: fakeStatus,
    onStatus: () => () => {},
    startApi: async () => {},
    stopApi: async () => {},
    adminToken: TOKEN,
    adminOrigin: () => origin,
    staticDir: RENDERER,
    log: (line) => pageErrors.push(`server: ${line}`),
    history: history.admin,
    // The Sessions tab also lists the app's stored Responses (none here).
    responses: new ResponseStore({
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "pb-hd-responses-")),
      log: () => {},
    }),
  });
  server = http.createServer(admin.handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // 120 plain sessions over two tool sets, then one conversation with an image, reasoning and an answer (newest).
  const [t1, t2] = ["t1", "t2"].map((t) => env.toolSetDir("notes", t)) as [string, string];
  await createSessions(
    env,
    120,
    (i) => (i % 2 ? t1 : t2),
    (i) => `Session ${i}`,
  );
  const client = env.supervisor.client();
  const sid = (await client.session.create({ directory: t1, title: "Chat with image" })).data!.id;
  await client.session.prompt({
    sessionID: sid,
    directory: t1,
    noReply: true,
    model: MODEL,
    parts: [
      { type: "text", text: "What color is this?" },
      { type: "file", mime: "image/png", filename: "red.png", url: RED16 },
    ],
  });
  env.mock.script({ text: "It is red.", reasoning: "Every pixel is red." });
  await client.session.prompt({
    sessionID: sid,
    directory: t1,
    model: MODEL,
    parts: [{ type: "text", text: "Answer please" }],
  });

  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    timeout: 60_000,
  });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: "en-US",
    timezoneId: "UTC",
  });
  context.setDefaultTimeout(15_000);
  // Signed in as the dashboard is after a login URL: a Bearer token in the page's sessionStorage (here the admin
  // token itself, which the API accepts the same way).
  await context.addInitScript(
    ([key, token]) => {
      if (!sessionStorage.getItem(key)) sessionStorage.setItem(key, token);
    },
    [SESSION_STORAGE_KEY, TOKEN] as const,
  );
  page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(m.text());
  });
});

after(async () => {
  await browser?.close().catch(() => undefined);
  await history?.sweeper.stop();
  admin?.close();
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  await env?.stop();
});

test("Sessions tab: infinite scroll, session view, delete, then limits preview and prune in the History tab", async () => {
  await page.goto(`${origin}/apps/notes/sessions`);
  const sessions = page.getByRole("region", { name: "Sessions", exact: true });
  await rows().first().waitFor();
  assert.equal(await rows().count(), 50, "first page");
  assert.equal(
    await rows().first().getByRole("button", { name: "Chat with image", exact: true }).count(),
    1,
    "newest first",
  );
  await shot("01-sessions");

  // Infinite scroll: bringing the end of the list into view loads the next page, until all 121 are listed.
  for (let i = 0; i < 5 && (await rows().count()) < 121; i++) {
    const before = await rows().count();
    await sessions.getByRole("button", { name: "Load more" }).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (n) => document.querySelectorAll("table[aria-label=Sessions] tbody tr").length > n,
      before,
    );
  }
  assert.equal(await rows().count(), 121);
  await sessions.getByText("121 sessions").waitFor();

  // The session view: user text and image, the assistant's reasoning and answer.
  await sessions.getByRole("button", { name: "Chat with image", exact: true }).click();
  const view = page.getByRole("dialog", { name: "Chat with image" });
  await view.getByText("It is red.").waitFor();
  await view.getByText("What color is this?").waitFor();
  assert.equal(await view.getByRole("img", { name: "red.png" }).count(), 1);
  await view.getByText("Reasoning").click();
  await view.getByText("Every pixel is red.").waitFor();
  await shot("02-session-view");
  await view.getByRole("button", { name: "Close" }).click();

  // Delete one (row action), then a selection of two; each asks first.
  await sessions.getByRole("button", { name: "Delete Session 0", exact: true }).click();
  await page.getByRole("dialog", { name: "Delete session" }).getByRole("button", { name: "Yes, delete" }).click();
  await sessions.getByText("Deleted 1.").waitFor();
  await sessions.getByRole("checkbox", { name: "Select Session 1", exact: true }).check();
  await sessions.getByRole("checkbox", { name: "Select Session 2", exact: true }).check();
  await sessions.getByRole("button", { name: "Delete selected (2)" }).click();
  await page.getByRole("dialog", { name: "Delete 2 sessions" }).getByRole("button", { name: "Yes, delete" }).click();
  await sessions.getByText("Deleted 2.").waitFor();
  await page.waitForFunction(() => document.querySelectorAll("table[aria-label=Sessions] tbody tr").length === 118);
  assert.equal((await history.service.list("notes", { limit: 200 })).sessions.length, 118, "gone in OpenCode too");

  // History tab: a limit of 50 shows the live preview (118 − 50 = 68) before saving; save; prune now.
  await page
    .getByRole("navigation", { name: "App sections" })
    .getByRole("link", { name: "History", exact: true })
    .click();
  const tab = page.getByRole("region", { name: "History", exact: true });
  await tab.getByRole("switch", { name: "Keep all sessions" }).uncheck();
  await tab.getByRole("spinbutton", { name: "Max sessions" }).fill("50");
  const count = page.getByTestId("prune-preview-count");
  await page.waitForFunction(() => document.querySelector("[data-testid=prune-preview-count]")?.textContent === "68");
  assert.equal(await count.textContent(), "68");
  await tab.getByRole("spinbutton", { name: "Max sessions" }).fill("100");
  await page.waitForFunction(() => document.querySelector("[data-testid=prune-preview-count]")?.textContent === "18");
  await tab.getByRole("spinbutton", { name: "Max sessions" }).fill("50");
  await page.waitForFunction(() => document.querySelector("[data-testid=prune-preview-count]")?.textContent === "68");
  await shot("03-preview");
  await tab.getByRole("button", { name: "Save history limits" }).click();
  await tab.getByText("Runs one bounded sweep now with the saved limits.").waitFor();
  await tab.getByRole("button", { name: "Prune now" }).click();
  await page.getByRole("dialog", { name: "Prune now" }).getByRole("button", { name: "Yes, prune" }).click();
  await tab
    .getByLabel("Last sweep")
    .getByText(/removed 68,/)
    .waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector("[data-testid=prune-preview-count]")?.textContent === "0");
  await shot("04-pruned");
  const left = (await history.service.list("notes", { limit: 200 })).sessions;
  assert.equal(left.length, 50);
  assert.equal(left[0]?.title, "Chat with image", "the newest stay");

  assert.deepEqual(pageErrors, [], "no errors in the page or the server");
});
