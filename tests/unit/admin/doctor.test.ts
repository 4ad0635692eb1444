// The agent check rows (`POST`/`GET /admin/api/doctor`) over the real admin app and the real run holder
// (server/doctor/doctor-runs.ts), with a fake doctor runner the test finishes by hand: a run starts in the background,
// its progress and results are polled, a second start while one runs is 409, a broken run says why, stop aborts it.
import { test, describe, afterEach } from "node:test";
import assert from "node:assert/strict";
import type { DoctorClientResult, DoctorRun } from "../../../shared/admin/doctor";
import { createDoctorRuns, type DoctorRunner } from "../../../server/doctor/doctor-runs";
import { waitFor } from "../../harness/wait-for";
import { errorOf, startAdmin, type StartedAdmin } from "./fakes";

const CODEX: DoctorClientResult = {
  client: "codex",
  name: "Codex",
  bin: "/usr/bin/codex",
  version: "0.50.0",
  checks: [
    { id: "plain", title: "plain prompt", ok: true, detail: null },
    {
      id: "tool",
      title: "tool round trip",
      ok: false,
      detail: "no request reached Patchbay; the client exited with 1",
    },
  ],
  image: "doctor has no headless way to give this client an image",
  ok: false,
  lastPassedVersion: "0.49.0",
};

/** A runner whose runs the test ends: `calls` records each call's options, `finish`/`fail` end the latest. */
function fakeRunner() {
  const calls: Parameters<DoctorRunner>[0][] = [];
  let settle: { resolve: (r: DoctorClientResult[]) => void; reject: (e: Error) => void } | null = null;
  const runner: DoctorRunner = (o) => {
    calls.push(o);
    return new Promise((resolve, reject) => {
      settle = { resolve, reject };
      o.signal.addEventListener("abort", () => reject(new Error("aborted")));
    });
  };
  return {
    runner,
    calls,
    finish: (r: DoctorClientResult[]) => settle?.resolve(r),
    fail: (e: Error) => settle?.reject(e),
  };
}

describe("admin agent check rows", () => {
  let s: StartedAdmin | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  async function start(runner: DoctorRunner) {
    const doctor = createDoctorRuns(runner, () => 1_700_000_000_000);
    s = await startAdmin({ doctor });
    const get = async () => {
      const res = await s!.request("GET", "/admin/api/doctor");
      assert.equal(res.status, 200, res.text);
      return res.json() as DoctorRun;
    };
    return { s, doctor, get };
  }

  test("a run starts in the background, shows its progress, then its results", async () => {
    const fake = fakeRunner();
    const { s, get } = await start(fake.runner);
    assert.deepEqual(await get(), {
      state: "idle",
      clients: null,
      progress: [],
      results: [],
      startedAt: null,
      finishedAt: null,
      error: null,
    });

    const started = await s.request("POST", "/admin/api/doctor", { body: { clients: ["codex"] } });
    assert.equal(started.status, 202, started.text);
    assert.equal((started.json() as DoctorRun).state, "running");
    assert.deepEqual((started.json() as DoctorRun).clients, ["codex"]);
    assert.equal(fake.calls.length, 1);
    assert.deepEqual(fake.calls[0]!.only, ["codex"]);

    fake.calls[0]!.progress("Checking Codex 0.50.0 (/usr/bin/codex)…");
    const running = await get();
    assert.equal(running.state, "running");
    assert.deepEqual(running.progress, ["Checking Codex 0.50.0 (/usr/bin/codex)…"]);
    assert.equal(running.startedAt, 1_700_000_000_000);
    assert.equal(running.finishedAt, null);

    fake.finish([CODEX]);
    await waitFor("the run to finish", async () => (await get()).state === "done");
    const done = await get();
    assert.deepEqual(done.results, [CODEX]);
    assert.equal(done.finishedAt, 1_700_000_000_000);
    assert.equal(done.error, null);
  });

  test("a second start while one runs is 409 `conflict`; after it ends a new one may start", async () => {
    const fake = fakeRunner();
    const { s, get } = await start(fake.runner);
    assert.equal((await s.request("POST", "/admin/api/doctor")).status, 202);
    const again = await s.request("POST", "/admin/api/doctor", { body: { clients: ["claude-code"] } });
    assert.equal(again.status, 409, again.text);
    assert.equal(errorOf(again).code, "conflict");
    assert.match(errorOf(again).message, /already running/);
    assert.equal(fake.calls.length, 1, "the runner was not called again");
    assert.equal(fake.calls[0]!.only, undefined, "no body: every installed client");

    fake.finish([]);
    await waitFor("the run to finish", async () => (await get()).state === "done");
    assert.deepEqual((await get()).results, [], "no client installed: an empty result");
    assert.equal((await s.request("POST", "/admin/api/doctor", { body: {} })).status, 202);
    assert.equal(fake.calls.length, 2);
  });

  test("unknown client id → 400 naming the element; nothing starts", async () => {
    const fake = fakeRunner();
    const { s, get } = await start(fake.runner);
    const res = await s.request("POST", "/admin/api/doctor", { body: { clients: ["codex", "vim"] } });
    assert.equal(res.status, 400, res.text);
    assert.equal(errorOf(res).field, "clients.1");
    assert.equal(fake.calls.length, 0);
    assert.equal((await get()).state, "idle");
  });

  test("a run that breaks is `failed` with its reason", async () => {
    const fake = fakeRunner();
    const { s, get } = await start(fake.runner);
    await s.request("POST", "/admin/api/doctor", { body: { clients: ["copilot"] } });
    fake.fail(new Error("the throwaway Patchbay did not answer"));
    await waitFor("the run to fail", async () => (await get()).state === "failed");
    assert.equal((await get()).error, "the throwaway Patchbay did not answer");
  });

  test("a runner that throws at once does not leave a run going", async () => {
    let calls = 0;
    const { s, get } = await start(() => {
      calls++;
      throw new Error("boom");
    });
    assert.equal((await s.request("POST", "/admin/api/doctor")).status, 202);
    await waitFor("the run to fail", async () => (await get()).state === "failed");
    assert.equal((await s.request("POST", "/admin/api/doctor")).status, 202);
    assert.equal(calls, 2);
  });

  test("stop aborts the running check and waits for it", async () => {
    const fake = fakeRunner();
    const { doctor } = await start(fake.runner);
    doctor.start(["codex"]);
    await doctor.stop();
    assert.equal(fake.calls[0]!.signal.aborted, true);
    assert.equal(doctor.current().state, "failed");
    assert.equal(doctor.current().error, "Patchbay stopped during the check.");
  });

  test("without a doctor service both rows answer 503", async () => {
    s = await startAdmin();
    const res = await s.request("GET", "/admin/api/doctor");
    assert.equal(res.status, 503, res.text);
    assert.equal(errorOf(res).code, "backend_unavailable");
    assert.equal((await s.request("POST", "/admin/api/doctor")).status, 503);
  });
});
