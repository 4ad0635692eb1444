// `patchbay serve` with a fake Patchbay: what it passes to createPatchbay, what it prints, how signals stop it,
// and how startup failures end it. The real server is covered by tests/integration/cli.test.ts.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import type { RequestLogEntry } from "../../../shared/log-entry";
import type { PatchbayStatus } from "../../../shared/status";
import { main } from "../../../server/cli";
import type { CliIO, CreatePatchbay } from "../../../server/cli/context";
import type { Patchbay, PatchbayDeps, PatchbayUrls } from "../../../server/patchbay-types";

function status(
  over: Partial<PatchbayStatus["api"]> = {},
  opencode: Partial<PatchbayStatus["opencode"]> = {},
): PatchbayStatus {
  return {
    version: "9.9.9",
    startedAt: 0,
    uptimeMs: 0,
    api: {
      running: true,
      host: "127.0.0.1",
      port: 5555,
      baseUrl: "http://127.0.0.1:5555/v1",
      error: null,
      lanExposure: false,
      pinned: false,
      portPicked: false,
      ...over,
    },
    opencode: { state: "starting", reason: null, version: null, url: null, pid: null, restarts: 0, ...opencode },
    dataDir: "/data",
    demo: true,
    notices: ["settings.json was set aside"],
    totals: { requests: 0, errors: 0, requestsToday: 0, errorsToday: 0 },
    apps: [],
  };
}

interface Harness {
  io: CliIO;
  out: () => string;
  err: () => string;
  exited: Promise<number>;
  signal(name: "SIGINT" | "SIGTERM"): void;
  waitForOut(pattern: RegExp): Promise<void>;
}

function harness(): Harness {
  let out = "";
  let err = "";
  let resolveExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((r) => (resolveExit = r));
  const handlers = new Map<string, (() => void)[]>();
  return {
    io: {
      out: (t) => void (out += t),
      err: (t) => void (err += t),
      env: { PATCHBAY_DATA_DIR: "/tmp/pb-serve-unit" },
      stdoutIsTTY: false,
      exit: (code) => resolveExit(code),
      onSignal: (sig, h) => handlers.set(sig, [...(handlers.get(sig) ?? []), h]),
    },
    out: () => out,
    err: () => err,
    exited,
    signal: (name) => handlers.get(name)?.forEach((h) => h()),
    async waitForOut(pattern) {
      for (let i = 0; i < 200 && !pattern.test(out); i++) await new Promise((r) => setTimeout(r, 10));
      assert.match(out, pattern);
    },
  };
}

function fakePatchbay(
  opts: { start?: () => Promise<PatchbayUrls>; status?: PatchbayStatus; stop?: () => Promise<void> } = {},
) {
  const calls = { deps: [] as PatchbayDeps[], stops: 0 };
  let listener: ((s: PatchbayStatus) => void) | null = null;
  let requestListener: ((e: RequestLogEntry) => void) | null = null;
  const urls: PatchbayUrls = {
    openaiUrl: "http://127.0.0.1:5555/v1",
    adminUrl: "http://127.0.0.1:6666",
    dashboardUrl: "http://127.0.0.1:6666/",
    loginUrl: "http://127.0.0.1:6666/login?token=once",
    adminToken: "t",
  };
  const create: CreatePatchbay = async (deps) => {
    calls.deps.push(deps);
    const pb: Patchbay = {
      start: opts.start ?? (async () => urls),
      async stop() {
        calls.stops++;
        await opts.stop?.();
      },
      startApi: async () => undefined,
      stopApi: async () => undefined,
      createLoginUrl: () => urls.loginUrl,
      status: () => opts.status ?? status(),
      onStatus(l) {
        listener = l;
        return () => (listener = null);
      },
      onRequest(l) {
        requestListener = l;
        return () => (requestListener = null);
      },
      urls,
    };
    return pb;
  };
  return {
    create,
    calls,
    emit: (s: PatchbayStatus) => listener?.(s),
    request: (e: RequestLogEntry) => requestListener?.(e),
  };
}

describe("patchbay serve (fake Patchbay)", () => {
  test("passes the options, prints both URLs on their own lines, stops on SIGTERM with exit 0", async () => {
    const h = harness();
    const fake = fakePatchbay();
    void main(
      ["node", "patchbay", "serve", "--port", "0", "--host", "127.0.0.2", "--demo", "--data-dir", "rel/data"],
      h.io,
      { createPatchbay: fake.create },
    );
    await h.waitForOut(/Press Ctrl\+C to stop\./);
    const deps = fake.calls.deps[0];
    assert.equal(deps?.dataDir, path.resolve("rel/data"));
    assert.equal(deps?.port, 0);
    assert.equal(deps?.host, "127.0.0.2");
    assert.equal(deps?.demo, true);
    assert.match(h.out(), /^OpenAI API: http:\/\/127\.0\.0\.1:5555\/v1$/m);
    assert.match(h.out(), /^Dashboard: http:\/\/127\.0\.0\.1:6666\/login\?token=once$/m);
    assert.match(h.out(), /^OpenCode: starting$/m);
    assert.match(h.out(), /^Notice: settings\.json was set aside$/m);

    fake.emit(status({}, { state: "ready", version: "1.18.33" }));
    assert.match(h.out(), /^OpenCode: ready \(OpenCode 1\.18\.33\)$/m);

    h.signal("SIGTERM");
    assert.equal(await h.exited, 0);
    assert.equal(fake.calls.stops, 1);
    assert.match(h.out(), /Stopped\.\n$/);
  });

  test("with --data-dir, the printed `dashboard` hint names the same data folder (issue 21 §3.7)", async () => {
    const h = harness();
    const fake = fakePatchbay();
    void main(["node", "patchbay", "--data-dir", "/tmp/pb-other-folder", "serve"], h.io, {
      createPatchbay: fake.create,
    });
    await h.waitForOut(/Press Ctrl\+C/);
    assert.match(
      h.out(),
      /^ {2}\(works once; `[^`]*patchbay(\.mjs)? --data-dir '\/tmp\/pb-other-folder' dashboard` prints/m,
    );
    h.signal("SIGINT");
    assert.equal(await h.exited, 0);
  });

  test("stopping the API from the dashboard prints a line, and so does starting it again (issue 21 §3.7)", async () => {
    const h = harness();
    const fake = fakePatchbay();
    void main(["node", "patchbay", "serve"], h.io, { createPatchbay: fake.create });
    await h.waitForOut(/Press Ctrl\+C/);
    fake.emit(status({ running: false, baseUrl: null }));
    await h.waitForOut(/^OpenAI API: stopped; start it again from the dashboard's Overview\.$/m);
    fake.emit(status({}));
    await h.waitForOut(/^OpenAI API: http:\/\/127\.0\.0\.1:5555\/v1\n(?![\s\S]*OpenAI API: stopped)/m);
    h.signal("SIGINT");
    assert.equal(await h.exited, 0);
  });

  test("pre-warming lines are printed with --verbose only (issue 21 §3.7)", async () => {
    for (const verbose of [false, true]) {
      const h = harness();
      const fake = fakePatchbay();
      void main(["node", "patchbay", "serve", ...(verbose ? ["--verbose"] : [])], h.io, {
        createPatchbay: fake.create,
      });
      await h.waitForOut(/Press Ctrl\+C/);
      const log = fake.calls.deps[0]?.log;
      assert.ok(log);
      log("[opencode] pre-warmed e2e/0a1b in 812 ms");
      log("[opencode] restarting after a crash");
      assert.equal(h.err().includes("pre-warmed"), verbose, h.err());
      assert.ok(h.err().includes("restarting after a crash"), "other lines are always printed");
      h.signal("SIGINT");
      assert.equal(await h.exited, 0);
    }
  });

  test("without --data-dir, PATCHBAY_DATA_DIR is used; no --port/--host leaves the settings in charge", async () => {
    const h = harness();
    const fake = fakePatchbay();
    void main(["node", "patchbay", "serve"], h.io, { createPatchbay: fake.create });
    await h.waitForOut(/Press Ctrl\+C/);
    assert.equal(fake.calls.deps[0]?.dataDir, "/tmp/pb-serve-unit");
    assert.equal("port" in (fake.calls.deps[0] ?? {}), false);
    assert.equal("host" in (fake.calls.deps[0] ?? {}), false);
    assert.equal(fake.calls.deps[0]?.demo, false);
    h.signal("SIGINT");
    assert.equal(await h.exited, 0);
  });

  test("a second signal during a slow stop exits 1 at once; the same Ctrl-C delivered twice does not", async () => {
    const h = harness();
    const fake = fakePatchbay({ stop: () => new Promise(() => undefined) });
    void main(["node", "patchbay", "serve"], h.io, { createPatchbay: fake.create });
    await h.waitForOut(/Press Ctrl\+C/);
    h.signal("SIGINT");
    h.signal("SIGINT"); // the terminal's group and a launcher passing it on: one Ctrl-C
    await new Promise((r) => setTimeout(r, 600)); // past REPEAT_SIGNAL_GRACE_MS: now a second Ctrl-C
    assert.doesNotMatch(h.err(), /again/, "a double delivery of one Ctrl-C is not a second one");
    h.signal("SIGINT");
    assert.equal(await h.exited, 1);
    assert.match(h.err(), /SIGINT again, exiting without a clean stop/);
  });

  test("a startup failure stops what started and exits 1 with a one-line message", async () => {
    const h = harness();
    const fake = fakePatchbay({
      start: async () => {
        throw new Error("Could not start the dashboard listener: EADDRINUSE");
      },
    });
    void main(["node", "patchbay", "serve"], h.io, { createPatchbay: fake.create });
    assert.equal(await h.exited, 1);
    assert.equal(fake.calls.stops, 1);
    assert.match(h.err(), /^patchbay: unexpected error: Could not start the dashboard listener: EADDRINUSE\n$/);
  });

  test("an API that cannot listen (port in use) is fatal headless: exit 1 naming the reason", async () => {
    const h = harness();
    const fake = fakePatchbay({
      start: async () => ({ openaiUrl: null, adminUrl: "a", dashboardUrl: "d", loginUrl: "l", adminToken: "t" }),
      status: status({ running: false, baseUrl: null, error: "port 4747 is in use" }),
    });
    void main(["node", "patchbay", "serve"], h.io, { createPatchbay: fake.create });
    assert.equal(await h.exited, 1);
    assert.equal(fake.calls.stops, 1);
    assert.match(
      h.err(),
      /^patchbay: The OpenAI API could not start: port 4747 is in use; it may be another Patchbay .* Use --port 0 to pick a free port, or --port N for another one\.\n$/,
    );
    assert.ok(!h.out().includes("OpenAI API: "), "no URL printed for an API that is not there");
  });

  test("one short line per API request on stdout; --quiet hides them (issue 16 item 16)", async () => {
    const entry: RequestLogEntry = {
      id: "r1",
      time: 0,
      app: "editor",
      appId: "app-editor",
      keyPrefix: "abc",
      method: "POST",
      endpoint: "/v1/chat/completions",
      modelAsked: "fast",
      modelResolved: "demo/echo",
      stream: false,
      status: 200,
      errorCode: null,
      errorMessage: null,
      ttftMs: 5,
      totalMs: 1234,
      usage: null,
      sessionId: null,
      warnings: [],
    };
    const h = harness();
    const fake = fakePatchbay();
    void main(["node", "patchbay", "serve"], h.io, { createPatchbay: fake.create });
    await h.waitForOut(/Press Ctrl\+C/);
    fake.request(entry);
    fake.request({
      ...entry,
      app: null,
      modelAsked: null,
      modelResolved: null,
      status: 401,
      errorCode: "invalid_api_key",
      totalMs: 2,
    });
    assert.match(h.out(), /^POST \/v1\/chat\/completions app=editor model=demo\/echo 200 1\.2s$/m);
    assert.match(h.out(), /^POST \/v1\/chat\/completions app=- 401 0\.0s invalid_api_key$/m);
    h.signal("SIGTERM");
    assert.equal(await h.exited, 0);

    const q = harness();
    const quiet = fakePatchbay();
    void main(["node", "patchbay", "serve", "--quiet"], q.io, { createPatchbay: quiet.create });
    await q.waitForOut(/Press Ctrl\+C/);
    quiet.request(entry);
    assert.doesNotMatch(q.out(), /app=editor/);
    q.signal("SIGTERM");
    assert.equal(await q.exited, 0);
  });

  test("--host 0.0.0.0 is refused, saying where LAN exposure is turned on", async () => {
    const h = harness();
    const fake = fakePatchbay();
    const code = await main(["node", "patchbay", "serve", "--host", "0.0.0.0"], h.io, { createPatchbay: fake.create });
    assert.equal(code, 2);
    assert.match(h.err(), /"Expose on LAN" switch in the dashboard's Settings page/);
    assert.equal(fake.calls.deps.length, 0, "Patchbay is not started");
  });

  test("a search URL that is not an http(s) URL is refused at start, from the flag or PATCHBAY_SEARCH_URL", async () => {
    const h = harness();
    const fake = fakePatchbay();
    const code = await main(["node", "patchbay", "serve", "--search-url", "notaurl"], h.io, {
      createPatchbay: fake.create,
    });
    assert.equal(code, 2);
    assert.match(h.err(), /argument 'notaurl' is invalid\. The search URL must be an http\(s\) URL/);
    const h2 = harness();
    h2.io.env.PATCHBAY_SEARCH_URL = "ftp://example.org";
    const code2 = await main(["node", "patchbay", "serve"], h2.io, { createPatchbay: fake.create });
    assert.notEqual(code2, 0);
    assert.match(h2.err(), /PATCHBAY_SEARCH_URL='ftp:\/\/example\.org': The search URL must be an http\(s\) URL/);
    assert.equal(fake.calls.deps.length, 0, "Patchbay is not started");
  });

  test("says when there are no models, with the login command and --demo; then the count once there are some (issue 16 item 12)", async () => {
    const h = harness();
    const none = { ...status({}, { state: "ready", version: "1.18.33" }), demo: false, modelCount: 0 };
    const fake = fakePatchbay({ status: none });
    void main(["node", "patchbay", "serve"], h.io, { createPatchbay: fake.create });
    await h.waitForOut(/Press Ctrl\+C to stop\./);
    assert.match(h.out(), /^Models: none\. No models are available/m);
    assert.match(h.out(), /`opencode auth login`/);
    assert.match(h.out(), /`npx --no-install opencode auth login`/);
    assert.match(h.out(), /restart Patchbay/);
    assert.match(h.out(), /`--demo`/);
    // The data folder came from PATCHBAY_DATA_DIR: the hint names it, so it works in a shell without that variable.
    assert.match(
      h.out(),
      /^ {2}\(works once; `[^`]*patchbay(\.mjs)? --data-dir '\/tmp\/pb-serve-unit' dashboard` prints a new one\)$/m,
    );
    fake.emit({ ...none, modelCount: 3 });
    await h.waitForOut(/^Models: 3 available/m);
    const before = h.out();
    fake.emit({ ...none, modelCount: 3 });
    assert.equal(h.out(), before, "an unchanged count is not printed again");
    h.signal("SIGTERM");
    assert.equal(await h.exited, 0);
  });

  test("prints nothing about models while the count is unknown", async () => {
    const h = harness();
    const fake = fakePatchbay({ status: { ...status(), modelCount: null } });
    void main(["node", "patchbay", "serve"], h.io, { createPatchbay: fake.create });
    await h.waitForOut(/Press Ctrl\+C to stop\./);
    assert.doesNotMatch(h.out(), /^Models:/m);
    h.signal("SIGTERM");
    assert.equal(await h.exited, 0);
  });
});
