// Session history end to end (issue 6): the real headless Patchbay (real OpenCode + mock upstream) with sessions made
// by real API requests, driven through Debian Chromium: page through the Sessions tab with infinite scroll, read a
// session, delete one, preview a max-sessions limit live, prune, and the last sweep's error state. One Patchbay and one
// browser for the file; the steps run in order and build on each other. Screenshots: test-artifacts/screenshots/sessions-*.png.
import { after, afterEach, before, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { AdminApiError } from "../../shared/admin/client";
import { SESSION_STORAGE_KEY, type SessionSummary } from "../../shared/admin-api";
import { startDashboardFixture, type DashboardFixture } from "./support/dashboard-fixture";
import { eventually } from "./support/eventually";
import { Dashboard } from "./pages/dashboard";
import type { AppDetailPage } from "./pages/app-detail-page";
import type { SessionsTab } from "./pages/sessions-tab";

const APP = "e2e-history";
/** Chat requests sent, one session each: more than the Sessions tab's page of 50. */
const REQUESTS = 60;
/** Requests in flight at a time (the app's default concurrency limit is 4). */
const PARALLEL = 4;
/** The Sessions tab's page size (renderer/src/pages/app/SessionsTab.tsx). */
const PAGE = 50;
const LIMIT = 10;

const pad = (i: number) => String(i).padStart(2, "0");
const question = (i: number) => `Question ${pad(i)}: what is ${i} squared?`;
const answer = (i: number) => `Answer ${pad(i)}: ${i * i}.`;

let d: DashboardFixture;
let dash: Dashboard;
let detail: AppDetailPage;
/** The app's sessions as the admin API listed them after the requests, newest first. */
let listed: SessionSummary[] = [];
let deletedId = "";
const shots: string[] = [];
const shot = async (name: string) => shots.push(await d.screenshot(`sessions-${name}`));

/** Every session of the app through the admin API (all pages), newest first. */
async function adminSessions(): Promise<SessionSummary[]> {
  const out: SessionSummary[] = [];
  let cursor: string | null = null;
  do {
    const page = await d.fx.admin.listSessions({
      params: { name: APP },
      query: { limit: 200, ...(cursor ? { cursor } : {}) },
    });
    out.push(...page.sessions);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** The session made by question `i` (its title carries the question). */
function sessionOf(i: number): SessionSummary {
  const s = listed.find((x) => x.title.includes(`Question ${pad(i)}:`));
  assert.ok(s, `a session titled with question ${i}`);
  return s;
}

before(async () => {
  d = await startDashboardFixture();
  dash = new Dashboard(d.page);
});
// A failed step can leave a dialog open; close it so the next step starts from the page.
afterEach(async () => {
  for (let i = 0; i < 3 && (await d?.page.locator("dialog[open]").count()) > 0; i++)
    await d.page.keyboard.press("Escape");
});
after(async () => {
  await d?.stop();
  if (shots.length) console.log(`screenshots:\n  ${shots.join("\n  ")}`);
});
/** Later steps need the sessions; they skip (instead of timing out one by one) when the traffic step failed. */
function needSessions(t: TestContext): boolean {
  if (listed.length === REQUESTS) return true;
  t.skip("no sessions: the traffic step failed");
  return false;
}

describe("session history end to end", { timeout: 170_000 }, () => {
  test(`${REQUESTS} chat requests through the API leave ${REQUESTS} sessions`, async () => {
    await dash.login(d.fx.urls.loginUrl);
    const key = await d.fx.createKey(APP);
    // The mock answers each question with its own answer, so any request order checks out.
    d.fx.mock.reset();
    d.fx.mock.setResponder((req) => {
      const m = /Question (\d\d):/.exec(req.rawBody);
      return {
        text: m ? answer(Number(m[1])) : "MOCK_DEFAULT_REPLY",
        usage: { prompt_tokens: 12, completion_tokens: 5 },
      };
    });
    const client = d.fx.openai(key);
    const t0 = Date.now();
    let next = 1;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let i = next++; i <= REQUESTS; i = next++) {
          const r = await client.chat.completions.create({
            model: "mock/mock-model",
            messages: [{ role: "user", content: question(i) }],
          });
          assert.equal(r.choices[0]?.message.content, answer(i), `answer to question ${i}`);
        }
      }),
    );
    console.log(`${REQUESTS} requests (${PARALLEL} at a time) in ${Date.now() - t0} ms`);

    // A pooled session is named after its request (and so listed) by a write sent once the first event is out;
    // with a mock that answers in a few ms the last answers can arrive before their names are stored.
    listed = await eventually(
      `${REQUESTS} sessions listed`,
      async () => {
        const all = await adminSessions();
        assert.equal(all.length, REQUESTS, "one session per request");
        return all;
      },
      5_000,
    );
    assert.equal(new Set(listed.map((s) => s.id)).size, REQUESTS, "each session listed once");
    for (let i = 1; i <= REQUESTS; i++) sessionOf(i);
  });

  test("the Sessions tab lists them all, newest first, through infinite scroll", async (t) => {
    if (!needSessions(t)) return;
    detail = await (await dash.apps()).open(APP);
    let tab: SessionsTab = await detail.sessions();
    await tab.rows().first().waitFor();
    assert.equal(await tab.rows().count(), PAGE, "one page before scrolling");
    assert.equal(await tab.endNote().count(), 0, "the list is not at its end yet");
    assert.deepEqual(
      await tab.titles(),
      listed.slice(0, PAGE).map((s) => s.title),
      "the first page, newest first",
    );
    await shot("01-first-page");

    const loads = await tab.scrollToEnd();
    assert.ok(loads >= 1, "scrolling loaded at least one more page");
    assert.equal(await tab.rows().count(), REQUESTS, "every session listed");
    assert.equal((await tab.endNote().innerText()).trim(), `${REQUESTS} sessions`);
    assert.deepEqual(
      await tab.titles(),
      listed.map((s) => s.title),
      "all of them, each once, in the admin API's order",
    );
    await tab.endNote().scrollIntoViewIfNeeded();
    await shot("02-all-listed");

    // A reload starts over at one page (the cursor is not kept), and the list still ends at the same count.
    await d.page.reload();
    tab = await detail.ready().then(() => detail.sessions());
    await tab.rows().first().waitFor();
    await tab.scrollToEnd();
    assert.equal(await tab.rows().count(), REQUESTS);
  });

  test("a session shows the user's text and the answer the mock sent", async (t) => {
    if (!needSessions(t)) return;
    const tab = await detail.sessions();
    await tab.scrollToEnd();
    const s = sessionOf(7);
    const view = await tab.open(s.title);
    assert.equal(await view.dialog().getAttribute("aria-modal"), "true", "the drawer is a modal dialog");
    const users = await view.texts("User");
    const assistants = await view.texts("Assistant");
    assert.equal(users.length, 1, `one user message: ${JSON.stringify(users)}`);
    assert.ok(users[0]?.includes(question(7)), `user text in ${JSON.stringify(users[0])}`);
    assert.equal(assistants.length, 1, `one assistant message: ${JSON.stringify(assistants)}`);
    assert.ok(assistants[0]?.includes(answer(7)), `answer in ${JSON.stringify(assistants[0])}`);
    const meta = await view.dialog().innerText();
    assert.ok(meta.includes(s.id), "the drawer names the session id");
    assert.ok(meta.includes("mock/mock-model"), "and its model");
    await shot("03-session-view");
    await view.close();
  });

  test("deleting a session asks first, then it is gone from the list and the admin API", async (t) => {
    if (!needSessions(t)) return;
    let tab = await detail.sessions();
    await tab.scrollToEnd();
    const victim = sessionOf(13);
    deletedId = victim.id;

    // Cancel keeps it.
    tab = await (await tab.askDelete(victim.title)).cancel();
    assert.equal(await tab.row(victim.title).count(), 1, "still listed after Cancel");

    const confirm = await tab.askDelete(victim.title);
    assert.equal(await confirm.dialog().getAttribute("aria-modal"), "true");
    assert.ok(
      (await confirm.dialog().innerText()).includes("deleted from OpenCode for good"),
      "the dialog says it cannot be undone",
    );
    await shot("04-confirm-delete");
    tab = await confirm.confirm();
    await tab.region().getByText("Deleted 1.", { exact: true }).waitFor();
    await tab.row(victim.title).waitFor({ state: "detached" });
    await tab.scrollToEnd();
    assert.equal(await tab.rows().count(), REQUESTS - 1);
    await shot("05-deleted");

    const left = await adminSessions();
    assert.equal(left.length, REQUESTS - 1, "the admin API lists one fewer");
    assert.ok(!left.some((s) => s.id === victim.id), "and not the deleted one");
    await assert.rejects(d.fx.admin.getSessionMessages({ params: { name: APP, id: victim.id } }), (err: unknown) => {
      assert.ok(err instanceof AdminApiError);
      assert.equal(err.status, 404);
      assert.equal(err.code, "session_not_found");
      return true;
    });
  });

  test(`a limit of ${LIMIT} sessions previews total − ${LIMIT} live, before saving`, async (t) => {
    if (!needSessions(t) || !deletedId) return t.skip("needs the delete step");
    const total = REQUESTS - 1;
    const history = await detail.history();
    await history.prune().getByText("No limits: every session is kept.").waitFor();
    assert.equal(await history.pruneButton().isDisabled(), true, "nothing to prune without a saved limit");

    // Live: each edit re-counts (no save in between).
    await history.setMaxSessions(50);
    await eventually("the preview for 50", async () =>
      assert.deepEqual(await history.previewCounts(), { count: total - 50, scanned: total }),
    );
    await history.setMaxSessions(LIMIT);
    await eventually(`the preview for ${LIMIT}`, async () =>
      assert.deepEqual(await history.previewCounts(), { count: total - LIMIT, scanned: total }),
    );
    await shot("06-preview");
    assert.equal((await adminSessions()).length, total, "a preview deletes nothing");
  });

  test(`Prune now keeps the newest ${LIMIT} (UI and admin API)`, async (t) => {
    if (!needSessions(t) || !deletedId) return t.skip("needs the delete step");
    const total = REQUESTS - 1;
    let history = await detail.history();
    await history.setMaxSessions(LIMIT);
    await history.save();
    assert.equal(await history.pruneButton().isEnabled(), true, "Prune now is on once a limit is saved");
    const dialog = await history.askPrune();
    assert.equal(await dialog.dialog().getAttribute("aria-modal"), "true");
    history = await dialog.confirm();
    const line = history.lastSweep().getByText(/^Manual prune /);
    await line.waitFor({ timeout: 30_000 });
    const text = await line.innerText();
    assert.match(text, new RegExp(`removed ${total - LIMIT},`), `last sweep: ${text}`);
    assert.match(text, /nothing left over the limits/);
    await eventually("the preview after the prune", async () =>
      assert.deepEqual(await history.previewCounts(), { count: 0, scanned: LIMIT }),
    );
    await shot("07-pruned");

    const left = await adminSessions();
    assert.equal(left.length, LIMIT, "the admin API lists the limit");
    const newest = listed.filter((s) => s.id !== deletedId).slice(0, LIMIT);
    assert.deepEqual(
      left.map((s) => s.id),
      newest.map((s) => s.id),
      "the newest ones stay",
    );
    const app = await d.fx.admin.getApp({ params: { name: APP } });
    assert.deepEqual(app.history, { maxSessions: LIMIT, maxAgeDays: null }, "the limit is saved");

    const tab = await detail.sessions();
    await tab.endNote().waitFor();
    assert.equal((await tab.endNote().innerText()).trim(), `${LIMIT} sessions`);
    assert.deepEqual(
      await tab.titles(),
      newest.map((s) => s.title),
    );
    await shot("08-sessions-after-prune");
  });

  test("the last sweep shows an error, not 'none', when its endpoint fails", async () => {
    const route = `**/admin/api/apps/${APP}/history/last-sweep`;
    await d.page.route(route, (r) =>
      r.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({
          error: { code: "backend_unavailable", message: "OpenCode is not running (simulated by the test)." },
        }),
      }),
    );
    try {
      await d.page.reload();
      // Stands alone: the steps before it may have failed before opening the app.
      detail ??= await (await dash.apps()).open(APP);
      await detail.ready();
      const history = await detail.history();
      // The dashboard retries server errors twice (about 3 s) before it shows the error.
      await history
        .lastSweep()
        .getByText(/Could not load it: OpenCode is not running/)
        .waitFor({ timeout: 15_000 });
      assert.equal(
        await history
          .lastSweep()
          .getByText(/none since Patchbay started/)
          .count(),
        0,
        "no made-up 'none'",
      );
      await shot("09-last-sweep-error");
      await d.page.unroute(route);
      await history.lastSweep().getByRole("button", { name: "Try again", exact: true }).click();
      // With the endpoint back, the real answer (the prune above, or "none" if that step did not run) replaces the error.
      await history
        .lastSweep()
        .getByText(/^Manual prune |none since Patchbay started/)
        .waitFor();
      assert.equal(
        await history
          .lastSweep()
          .getByText(/Could not/)
          .count(),
        0,
        "the error is gone after a good retry",
      );
    } finally {
      await d.page.unroute(route).catch(() => undefined);
    }
  });

  test("a dashboard whose session went stale says how to get a new login URL", async () => {
    // What a restart of Patchbay does to an open dashboard: its session token stops working (sessions live in the
    // server's memory). Here the server ends the session, as a restart would.
    const token = await d.page.evaluate((key) => sessionStorage.getItem(key), SESSION_STORAGE_KEY);
    assert.ok(token, "the dashboard holds a session token");
    const revoked = await fetch(`${d.fx.urls.adminUrl}/admin/api/dashboard-session`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(revoked.status, 200);
    const heading = d.page.getByRole("heading", { name: "Sign in to Patchbay", level: 1 });
    await heading.waitFor({ timeout: 10_000 });
    const text = await d.page.getByRole("main").innerText();
    assert.match(
      text,
      /session has ended: Patchbay restarted/,
      "a session ended by the server is not called a sign-out",
    );
    for (const part of ["patchbay dashboard", "runtime.json", "adminToken", "tray"]) {
      assert.ok(text.includes(part), `the page mentions ${part}: ${text}`);
    }
    await shot("10-signed-out");
  });

  test("the page threw no uncaught errors", () => {
    assert.deepEqual(d.pageErrors, []);
    if (d.consoleErrors.length) console.log(`console errors (informational):\n  ${d.consoleErrors.join("\n  ")}`);
  });
});
