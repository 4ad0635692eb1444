// Sessions as users read them (issue 21 §3.1–3.4, §3.7), end to end: the real headless Patchbay (real OpenCode + mock
// upstream) with requests shaped like the agents' (Claude Code's session header and system reminders, a client tool
// call and its result, a Responses `previous_response_id` chain), driven through Debian Chromium. Checks: titles are
// the user's own words; a conversation is one row that opens into its requests; a client tool call shows as returned
// to the client with the result the next request carried; "Created" is when the request came; the prune preview
// lists 10 plus "… and 1 more" and names the stored response; deleting a conversation deletes its requests; a disabled
// "Delete selected (0)" does not look live. Screenshots: test-artifacts/screenshots/conversations-*.png.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { SessionSummary } from "../../shared/admin-api";
import { startDashboardFixture, type DashboardFixture } from "./support/dashboard-fixture";
import { eventually } from "./support/eventually";
import { Dashboard } from "./pages/dashboard";
import type { AppDetailPage } from "./pages/app-detail-page";

const APP = "e2e-conv";
const MODEL = "mock/mock-model";
const CLAUDE_SESSION = "3f1c7c1e-0000-4000-8000-00000000c0de";
const REMINDER =
  "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nAttribution for git commits and pull requests: none.\n</system-reminder>";
const ASK = "Find the weather in Oslo";
const TOOL_RESULT = "Sunny, 21 °C";
const LONE = 7;

let d: DashboardFixture;
let dash: Dashboard;
let detail: AppDetailPage;
let key = "";
const shots: string[] = [];
const shot = async (name: string) => shots.push(await d.screenshot(`conversations-${name}`));

async function sessions(): Promise<SessionSummary[]> {
  return (await d.fx.admin.listSessions({ params: { name: APP }, query: { limit: 200 } })).sessions;
}

async function post(pathname: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await d.fx.api(pathname, {
    method: "POST",
    key,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

const region = () => d.page.getByRole("main").getByRole("region", { name: "Sessions", exact: true });
const table = () => region().getByRole("table", { name: "Sessions", exact: true });

before(async () => {
  d = await startDashboardFixture();
  dash = new Dashboard(d.page);
});
afterEach(async () => {
  for (let i = 0; i < 3 && (await d?.page.locator("dialog[open]").count()) > 0; i++)
    await d.page.keyboard.press("Escape");
});
after(async () => {
  await d?.stop();
  if (shots.length) console.log(`screenshots:\n  ${shots.join("\n  ")}`);
});

describe("sessions as conversations", { timeout: 170_000 }, () => {
  test("agent-shaped traffic: a Claude Code conversation with a tool call, a Responses chain, lone requests", async () => {
    await dash.login(d.fx.urls.loginUrl);
    key = await d.fx.createKey(APP);
    d.fx.mock.reset();
    d.fx.mock.setResponder((req) => {
      if (req.rawBody.includes("And tomorrow?")) return { text: "Rain tomorrow." };
      if (req.rawBody.includes(TOOL_RESULT)) return { text: "It is sunny in Oslo." };
      if (req.rawBody.includes(ASK))
        return { toolCalls: [{ id: "call_oslo_1", name: "lookup", arguments: { city: "Oslo" } }] };
      const m = /Lone (\d+)/.exec(req.rawBody);
      return { text: m ? `Answer ${m[1]}` : "MOCK_DEFAULT_REPLY" };
    });
    const claude = { "x-claude-code-session-id": CLAUDE_SESSION };
    const tools = [
      {
        type: "function",
        function: { name: "lookup", description: "Weather", parameters: { type: "object", properties: { city: {} } } },
      },
    ];
    const first = [
      {
        role: "user",
        content: [
          { type: "text", text: REMINDER },
          { type: "text", text: ASK },
        ],
      },
    ];
    const r1 = (await post("/v1/chat/completions", { model: MODEL, messages: first, tools }, claude)) as {
      choices: { message: { tool_calls?: { id: string; function: { name: string; arguments: string } }[] } }[];
    };
    const call = r1.choices[0]?.message.tool_calls?.[0];
    assert.ok(call && call.function.name === "lookup", JSON.stringify(r1));
    const second = [
      ...first,
      { role: "assistant", content: null, tool_calls: [{ id: call.id, type: "function", function: call.function }] },
      { role: "tool", tool_call_id: call.id, content: TOOL_RESULT },
    ];
    await post("/v1/chat/completions", { model: MODEL, messages: second, tools }, claude);
    const third = [
      ...second,
      { role: "assistant", content: "It is sunny in Oslo." },
      {
        role: "user",
        content: [
          { type: "text", text: "<system-reminder>todo</system-reminder>" },
          { type: "text", text: "And tomorrow?" },
        ],
      },
    ];
    await post("/v1/chat/completions", { model: MODEL, messages: third, tools }, claude);

    // A Responses chain with stored responses (two stored; a limit of one session prunes the older one).
    const a = (await post("/v1/responses", { model: MODEL, input: "Lone 100: start a story", store: true })) as {
      id: string;
    };
    await post("/v1/responses", { model: MODEL, input: "Lone 101: go on", previous_response_id: a.id, store: true });

    for (let i = 1; i <= LONE; i++) {
      // Idle before the last one: its session was pre-created by the pool well before the request came.
      if (i === LONE) await new Promise((r) => setTimeout(r, 3_000));
      await post("/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: `Lone ${i}: hi` }] });
    }
    const all = await sessions();
    assert.equal(all.length, 3 + 2 + LONE, JSON.stringify(all.map((s) => s.title)));
  });

  test("titles are the user's own words: no system reminder, no patchbay: prefix", async () => {
    const all = await sessions();
    const titles = all.map((s) => s.title);
    for (const t of titles) {
      assert.doesNotMatch(t, /^patchbay:/, t);
      assert.doesNotMatch(t, /system-reminder/, t);
    }
    assert.ok(titles.includes(ASK), JSON.stringify(titles));
    assert.ok(titles.includes("And tomorrow?"), JSON.stringify(titles));
    const conv = all.filter((s) => s.conversation?.id === `claude-code:${CLAUDE_SESSION}`);
    assert.equal(conv.length, 3, "the three Claude Code requests share a conversation");
    assert.equal(conv[0]?.conversation?.title, ASK);
    const chain = all.filter((s) => /Lone 10[01]/.test(s.title));
    assert.equal(new Set(chain.map((s) => s.conversation?.id)).size, 1, "the Responses chain is one conversation");
  });

  test("the Sessions tab shows a conversation as one row that opens into its requests", async () => {
    detail = await (await dash.apps()).open(APP);
    await detail.sessions();
    await table().locator("tbody tr").first().waitFor();
    const rows = table().locator("tbody").getByRole("row");
    assert.equal(await rows.count(), 2 + LONE, "two conversations and the lone requests");
    const toggle = table().locator("tbody tr.conversation").getByRole("button", { name: ASK, exact: true });
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    const convRow = table()
      .locator("tbody tr.conversation")
      .filter({ has: d.page.getByRole("button", { name: ASK }) });
    assert.match(await convRow.innerText(), /3 requests/);
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    assert.equal(await rows.count(), 2 + LONE + 3, "its three requests are listed under it");
    assert.equal(await table().getByRole("button", { name: "And tomorrow?", exact: true }).count(), 1);
    await shot("01-conversation-open");
  });

  test("a client tool call shows as returned to the client, with its arguments and the result sent back", async () => {
    const all = await sessions();
    const firstTurn = all.filter((s) => s.conversation?.id === `claude-code:${CLAUDE_SESSION}`).at(-1);
    assert.ok(firstTurn);
    const toggle = table().locator("tbody tr.conversation").getByRole("button", { name: ASK, exact: true });
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
    const nested = table().locator("tbody tr.nested");
    await nested.last().getByRole("button", { name: ASK, exact: true }).click();
    const dialog = d.page.getByRole("dialog", { name: ASK, exact: true });
    await dialog.getByRole("article").first().waitFor();
    assert.ok((await dialog.innerText()).includes(firstTurn.id), "the oldest request's session is open");
    const tool = dialog.getByRole("group", { name: "Tool call lookup", exact: true });
    await tool.waitFor();
    const text = await tool.innerText();
    assert.match(text, /returned to the client/);
    assert.match(text, /"city":\s*"Oslo"/);
    assert.ok(text.includes(TOOL_RESULT), text);
    const whole = await dialog.innerText();
    assert.doesNotMatch(whole, /rejected permission/i);
    assert.doesNotMatch(whole, /\(error\)/);
    await shot("02-tool-call-returned");
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
  });

  test("Created is when the request came, not when the pool made the session", async () => {
    const lone = (await sessions()).find((s) => s.title === `Lone ${LONE}: hi`);
    assert.ok(lone?.receivedAt, "the session carries its arrival time");
    assert.ok(
      lone.receivedAt - lone.createdAt >= 1_000,
      `pre-created earlier: ${lone.createdAt} vs ${lone.receivedAt}`,
    );
    await table().getByRole("button", { name: lone.title, exact: true }).click();
    const dialog = d.page.getByRole("dialog", { name: lone.title, exact: true });
    await dialog.waitFor();
    const fmt = (ms: number) =>
      d.page.evaluate(
        (x) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" }).format(new Date(x)),
        ms,
      );
    const created = dialog.locator("dt", { hasText: /^Created$/ }).locator("xpath=following-sibling::dd[1]");
    assert.equal((await created.innerText()).trim(), await fmt(lone.receivedAt));
    assert.notEqual((await created.innerText()).trim(), await fmt(lone.createdAt));
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
  });

  test("a disabled 'Delete selected (0)' does not look like a live danger button", async () => {
    const btn = region().getByRole("button", { name: "Delete selected (0)", exact: true });
    assert.equal(await btn.isDisabled(), true);
    const bg = await btn.evaluate((el) => getComputedStyle(el).backgroundColor);
    const danger = await btn.evaluate((el) => {
      const probe = document.createElement("span");
      probe.style.color = getComputedStyle(document.documentElement).getPropertyValue("--danger");
      el.parentElement?.appendChild(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    assert.notEqual(bg, danger, "not the danger red while disabled");
  });

  test("the prune preview lists 10, then '… and 1 more', and names the stored response it deletes", async () => {
    const history = await detail.history();
    await history.setMaxSessions(1);
    const preview = history.preview();
    await eventually("the preview for 1", async () =>
      assert.match(await preview.innerText(), /would delete 11 of 12 sessions/),
    );
    assert.match(await preview.innerText(), /and 1 stored response\b/);
    const list = preview.getByRole("list", { name: "Sessions a prune would delete", exact: true });
    const items = (await list.getByRole("listitem").allInnerTexts()).map((t) => t.trim());
    assert.equal(items.length, 11, JSON.stringify(items));
    assert.equal(items.at(-1), "… and 1 more");
    await shot("03-prune-preview");
  });

  test("deleting a conversation deletes every one of its requests", async () => {
    await detail.page.reload();
    await detail.ready();
    await detail.sessions();
    await table().locator("tbody tr").first().waitFor();
    await table()
      .getByRole("button", { name: `Delete conversation ${ASK}`, exact: true })
      .click();
    const confirm = d.page.getByRole("dialog", { name: "Delete conversation", exact: true });
    await confirm.getByRole("button", { name: "Yes, delete", exact: true }).click();
    await region().getByText("Deleted 3.", { exact: true }).waitFor();
    const left = await sessions();
    assert.equal(left.length, 2 + LONE);
    assert.ok(!left.some((s) => s.conversation?.id === `claude-code:${CLAUDE_SESSION}`));
    assert.equal(await table().getByRole("button", { name: ASK, exact: true }).count(), 0);
    await shot("04-conversation-deleted");
  });

  test("without kept bodies, the log detail's curl is labelled a template, not a replay", async () => {
    const logs = await dash.logs();
    const row = logs.rowsWith("mock/mock-model").first();
    await row.waitFor({ timeout: 10_000 });
    const drawer = await logs.openDetails(row);
    const text = await drawer.text();
    assert.match(text, /curl template/);
    assert.match(text, /not this request's \(request bodies were not kept\)/);
    assert.doesNotMatch(text, /repeats this request/);
    await drawer.done();
  });

  test("the page threw no uncaught errors", () => {
    assert.deepEqual(d.pageErrors, []);
  });
});
