// Every admin endpoint that takes input rejects bad input with 400 {error:{code,message,field}} naming the field,
// before any service is called. A coverage check fails when a row with input has no bad-input case here.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { adminApi, type EndpointName } from "../../../shared/admin-api";
import { errorOf, startAdmin, type StartedAdmin } from "./fakes";

interface BadCase {
  row: EndpointName;
  method: string;
  path: string;
  body?: unknown;
  field: string;
}

const CASES: BadCase[] = [
  { row: "startDoctor", method: "POST", path: "/admin/api/doctor", body: { clients: ["vim"] }, field: "clients.0" },
  { row: "startDoctor", method: "POST", path: "/admin/api/doctor", body: { clients: [] }, field: "clients" },
  { row: "openDashboardSession", method: "POST", path: "/admin/api/dashboard-session", body: {}, field: "loginToken" },
  {
    row: "openDashboardSession",
    method: "POST",
    path: "/admin/api/dashboard-session",
    body: { loginToken: "x", extra: 1 },
    field: "extra",
  },
  { row: "createApp", method: "POST", path: "/admin/api/apps", body: {}, field: "name" },
  { row: "createApp", method: "POST", path: "/admin/api/apps", body: { name: "Bad Name" }, field: "name" },
  {
    row: "createApp",
    method: "POST",
    path: "/admin/api/apps",
    body: { name: "ok-app", models: ["nope"] },
    field: "models.0",
  },
  { row: "createApp", method: "POST", path: "/admin/api/apps", body: { name: "ok-app", extra: 1 }, field: "extra" },
  { row: "getApp", method: "GET", path: "/admin/api/apps/Bad_Name", field: "name" },
  { row: "updateApp", method: "PATCH", path: "/admin/api/apps/UPPER", body: {}, field: "name" },
  {
    row: "updateApp",
    method: "PATCH",
    path: "/admin/api/apps/demo",
    body: { limits: { concurrency: 0 } },
    field: "limits.concurrency",
  },
  {
    row: "updateApp",
    method: "PATCH",
    path: "/admin/api/apps/demo",
    body: { limits: { remoteImages: "yes" } },
    field: "limits.remoteImages",
  },
  {
    row: "updateApp",
    method: "PATCH",
    path: "/admin/api/apps/demo",
    body: { limits: { bogus: 1 } },
    field: "limits.bogus",
  },
  {
    row: "updateApp",
    method: "PATCH",
    path: "/admin/api/apps/demo",
    body: { history: { maxAgeDays: -1 } },
    field: "history.maxAgeDays",
  },
  {
    row: "updateApp",
    method: "PATCH",
    path: "/admin/api/apps/demo",
    body: { aliases: { fast: "no-slash" } },
    field: "aliases.fast",
  },
  { row: "updateApp", method: "PATCH", path: "/admin/api/apps/demo", body: { models: "mock/*" }, field: "models" },
  { row: "deleteApp", method: "DELETE", path: "/admin/api/apps/-x%20y", field: "name" },
  { row: "listKeys", method: "GET", path: "/admin/api/apps/a%2Fb/keys", field: "name" },
  {
    row: "createKey",
    method: "POST",
    path: "/admin/api/apps/demo/keys",
    body: { label: "x".repeat(81) },
    field: "label",
  },
  { row: "createKey", method: "POST", path: "/admin/api/apps/demo/keys", body: { label: 5 }, field: "label" },
  { row: "revokeKey", method: "DELETE", path: "/admin/api/apps/demo/keys/abc%24", field: "prefix" },
  { row: "revokeKey", method: "DELETE", path: "/admin/api/apps/NO/keys/abc", field: "name" },
  { row: "getUsage", method: "GET", path: "/admin/api/apps/demo/usage?days=0", field: "days" },
  { row: "getUsage", method: "GET", path: "/admin/api/apps/demo/usage?days=abc", field: "days" },
  { row: "getUsage", method: "GET", path: "/admin/api/apps/Demo/usage", field: "name" },
  { row: "updateSettings", method: "PATCH", path: "/admin/api/settings", body: { port: 70000 }, field: "port" },
  { row: "updateSettings", method: "PATCH", path: "/admin/api/settings", body: { host: "" }, field: "host" },
  {
    row: "updateSettings",
    method: "PATCH",
    path: "/admin/api/settings",
    body: { lanExposure: "on" },
    field: "lanExposure",
  },
  {
    row: "updateSettings",
    method: "PATCH",
    path: "/admin/api/settings",
    body: { launchAtLogin: true },
    field: "launchAtLogin",
  },
  { row: "queryLogs", method: "GET", path: "/admin/api/logs?status=abc", field: "status" },
  { row: "queryLogs", method: "GET", path: "/admin/api/logs?limit=1000", field: "limit" },
  { row: "queryLogs", method: "GET", path: "/admin/api/logs?since=-1", field: "since" },
  { row: "queryLogs", method: "GET", path: "/admin/api/logs?until=yesterday", field: "until" },
  { row: "queryLogs", method: "GET", path: "/admin/api/logs?app=a&app=b", field: "app" },
  { row: "queryLogs", method: "GET", path: "/admin/api/logs?foo=1", field: "foo" },
  { row: "logStream", method: "GET", path: "/admin/api/logs/stream?replay=9999", field: "replay" },
  {
    row: "setLaunchAtLogin",
    method: "PUT",
    path: "/admin/api/desktop/launch-at-login",
    body: { enabled: "yes" },
    field: "enabled",
  },
  { row: "setLaunchAtLogin", method: "PUT", path: "/admin/api/desktop/launch-at-login", body: {}, field: "enabled" },
  // Session history rows (issue 6).
  { row: "listSessions", method: "GET", path: "/admin/api/apps/demo/sessions?limit=0", field: "limit" },
  { row: "listSessions", method: "GET", path: "/admin/api/apps/demo/sessions?bogus=1", field: "bogus" },
  { row: "listSessions", method: "GET", path: "/admin/api/apps/Demo/sessions", field: "name" },
  {
    row: "getSessionMessages",
    method: "GET",
    path: "/admin/api/apps/demo/sessions/not-a-session/messages",
    field: "id",
  },
  {
    row: "getSessionMessages",
    method: "GET",
    path: "/admin/api/apps/demo/sessions/ses_abc/messages?limit=101",
    field: "limit",
  },
  { row: "deleteSession", method: "DELETE", path: "/admin/api/apps/demo/sessions/ses_bad%24", field: "id" },
  {
    row: "deleteSessions",
    method: "POST",
    path: "/admin/api/apps/demo/sessions/delete",
    body: { ids: [] },
    field: "ids",
  },
  {
    row: "deleteSessions",
    method: "POST",
    path: "/admin/api/apps/demo/sessions/delete",
    body: { ids: ["x"] },
    field: "ids.0",
  },
  {
    row: "deleteConversations",
    method: "POST",
    path: "/admin/api/apps/demo/conversations/delete",
    body: { ids: [] },
    field: "ids",
  },
  {
    row: "deleteConversations",
    method: "POST",
    path: "/admin/api/apps/demo/conversations/delete",
    body: { ids: [""] },
    field: "ids.0",
  },
  {
    row: "previewPrune",
    method: "GET",
    path: "/admin/api/apps/demo/history/preview?maxSessions=0",
    field: "maxSessions",
  },
  {
    row: "previewPrune",
    method: "GET",
    path: "/admin/api/apps/demo/history/preview?maxAgeDays=abc",
    field: "maxAgeDays",
  },
  {
    row: "pruneNow",
    method: "POST",
    path: "/admin/api/apps/demo/history/prune",
    body: { dryRun: "yes" },
    field: "dryRun",
  },
  { row: "getLastSweep", method: "GET", path: "/admin/api/apps/Bad/history/last-sweep", field: "name" },
  { row: "previewConnect", method: "POST", path: "/admin/api/connect/vim/preview", body: {}, field: "client" },
  {
    row: "previewConnect",
    method: "POST",
    path: "/admin/api/connect/codex/preview",
    body: { model: 5 },
    field: "model",
  },
  { row: "applyConnect", method: "POST", path: "/admin/api/connect/codex/apply", body: { model: "" }, field: "model" },
  { row: "applyConnect", method: "POST", path: "/admin/api/connect/codex/apply", body: { x: 1 }, field: "x" },
  { row: "undoConnect", method: "POST", path: "/admin/api/connect/opencode/undo", body: {}, field: "client" },
  { row: "verifyConnect", method: "POST", path: "/admin/api/connect/Codex/verify", body: {}, field: "client" },
  {
    row: "listStoredResponses",
    method: "GET",
    path: "/admin/api/apps/demo/responses?limit=0",
    field: "limit",
  },
  { row: "getStoredResponse", method: "GET", path: "/admin/api/apps/demo/responses/resp_1", field: "id" },
  {
    row: "deleteStoredResponse",
    method: "DELETE",
    path: "/admin/api/apps/demo/responses/..%2Fx",
    field: "id",
  },
];

describe("admin input validation", () => {
  let s: StartedAdmin;
  before(async () => {
    s = await startAdmin({ desktop: true });
    await s.fakes.apps.create("demo");
  });
  after(async () => {
    await s.close();
  });

  test("every row with params, query or body has bad-input cases", () => {
    for (const [name, def] of Object.entries(adminApi)) {
      const takesInput = "params" in def || "query" in def || "body" in def;
      if (takesInput)
        assert.ok(
          CASES.some((c) => c.row === name),
          `no bad-input case for ${name}`,
        );
    }
  });

  for (const c of CASES) {
    test(`${c.row}: ${c.method} ${c.path} ${c.body === undefined ? "" : JSON.stringify(c.body)} → 400 field ${c.field}`, async () => {
      const before = JSON.stringify([...s.fakes.apps.apps.values()]) + JSON.stringify(s.fakes.settings.value);
      const res = await s.request(
        c.method,
        c.path,
        c.body === undefined ? {} : { body: c.body, headers: { origin: s.origin } },
      );
      assert.equal(res.status, 400, res.text);
      const err = errorOf(res);
      assert.equal(err.code, "invalid_request_error");
      assert.equal(err.field, c.field);
      assert.ok(err.message.length > 5);
      const afterState = JSON.stringify([...s.fakes.apps.apps.values()]) + JSON.stringify(s.fakes.settings.value);
      assert.equal(afterState, before, "no change on bad input");
    });
  }
});
