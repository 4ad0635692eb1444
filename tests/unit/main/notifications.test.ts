// Status transitions → desktop notifications: OpenCode failed / recovered, API stopped because its port is taken.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  decideNotifications,
  INITIAL_NOTIFICATION_STATE,
  portInUse,
  type NotificationState,
} from "../../../main/notifications";
import type { PatchbayStatus } from "../../../shared/status";
import { makeStatus } from "./fake-electron";

/** Feeds a sequence of statuses through the decision, returning the titles/bodies shown at each step. */
function run(statuses: PatchbayStatus[]): { title: string; body: string }[][] {
  let state: NotificationState = INITIAL_NOTIFICATION_STATE;
  let prev: PatchbayStatus | null = null;
  return statuses.map((s) => {
    const r = decideNotifications(state, prev, s);
    state = r.state;
    prev = s;
    return r.notifications;
  });
}

describe("decideNotifications", () => {
  test("a normal start says nothing", () => {
    const steps = run([makeStatus({ opencode: { state: "starting" } }), makeStatus({ opencode: { state: "ready" } })]);
    assert.deepEqual(steps, [[], []]);
  });

  test("OpenCode failed to start, then recovered: one notification each, none repeated", () => {
    const failed = makeStatus({ opencode: { state: "failed", reason: "OpenCode binary not found at /x." } });
    const steps = run([
      makeStatus({ opencode: { state: "starting" } }),
      failed,
      failed,
      makeStatus({ opencode: { state: "ready" } }),
      makeStatus({}),
    ]);
    assert.equal(steps[0]?.length, 0);
    assert.equal(steps[1]?.length, 1);
    assert.equal(steps[1]?.[0]?.title, "OpenCode failed to start");
    assert.match(steps[1]?.[0]?.body ?? "", /binary not found at \/x\./);
    assert.deepEqual(steps[2], [], "same failure again: quiet");
    assert.deepEqual(steps[3], [{ title: "OpenCode recovered", body: "Patchbay's API is serving requests again." }]);
    assert.deepEqual(steps[4], []);
  });

  test("OpenCode dying after it was ready is worded differently", () => {
    const steps = run([makeStatus({}), makeStatus({ opencode: { state: "failed", reason: "crashed 3 times" } })]);
    assert.equal(steps[1]?.[0]?.title, "OpenCode stopped working");
  });

  test("restarting without failing: no notification (the supervisor handles it quietly)", () => {
    const steps = run([makeStatus({}), makeStatus({ opencode: { state: "restarting" } }), makeStatus({})]);
    assert.deepEqual(steps, [[], [], []]);
  });

  test("API stopped because its port is taken, naming the port; once per distinct error", () => {
    const taken = makeStatus({
      api: { running: false, port: 4747, error: "listen EADDRINUSE: address already in use 127.0.0.1:4747" },
    });
    const steps = run([taken, taken, makeStatus({}), taken]);
    assert.equal(steps[0]?.length, 1);
    assert.equal(steps[0]?.[0]?.title, "Patchbay API stopped");
    assert.match(steps[0]?.[0]?.body ?? "", /^Port 4747 is already in use/);
    assert.deepEqual(steps[1], []);
    assert.deepEqual(steps[2], []);
    assert.equal(steps[3]?.length, 1, "taken again after it had recovered");
  });

  test("other API errors are shown as they are", () => {
    const steps = run([makeStatus({ api: { running: false, error: "permission denied binding 0.0.0.0:80" } })]);
    assert.deepEqual(steps[0], [{ title: "Patchbay API stopped", body: "permission denied binding 0.0.0.0:80" }]);
  });
});

describe("portInUse", () => {
  test("recognizes the usual wordings", () => {
    assert.equal(portInUse("port 4747 is in use", 1), 4747);
    assert.equal(portInUse("listen EADDRINUSE: address already in use 127.0.0.1:8080", 1), 8080);
    assert.equal(portInUse("EADDRINUSE", 4747), 4747);
    assert.equal(portInUse("permission denied", 4747), null);
  });
});
