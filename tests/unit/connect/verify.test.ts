// connect's verify against a small fake server: the request is in the client's wire (Anthropic Messages with its
// headers; Responses), and each failure names its cause and fix.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { findConnectable } from "../../../server/clients/registry";
import { patchbayCommand } from "../../../server/connect/patchbay-command";
import { verifyClient } from "../../../server/connect/verify";

const bare = (args: string): string => `patchbay ${args}`;

interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

describe("verifyClient", () => {
  let server: http.Server;
  let base: string;
  const seen: Seen[] = [];
  let reply: (s: Seen) => [number, unknown] = () => [500, {}];

  before(async () => {
    server = http.createServer((req, res) => {
      let data = "";
      req.on("data", (c: Buffer) => (data += c.toString()));
      req.on("end", () => {
        const s = {
          path: req.url ?? "",
          headers: req.headers,
          body: JSON.parse(data || "{}") as Record<string, unknown>,
        };
        seen.push(s);
        const [status, body] = reply(s);
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const claude = findConnectable("claude")!;
  const codex = findConnectable("codex")!;

  test("Claude Code: POST /v1/messages per the Messages spec; OK with the answer's text", async () => {
    reply = () => [200, { type: "message", role: "assistant", content: [{ type: "text", text: "pong" }] }];
    const r = await verifyClient(
      claude,
      { url: `${base}/v1/messages`, key: "pb-K", model: "m/x" },
      "patchbay connect claude",
    );
    assert.equal(r.ok, true, r.message);
    assert.match(r.message, /answered "pong"/);
    const s = seen.at(-1)!;
    assert.equal(s.path, "/v1/messages");
    assert.equal(s.headers["x-api-key"], "pb-K");
    assert.equal(s.headers.authorization, "Bearer pb-K");
    assert.equal(s.headers["anthropic-version"], "2023-06-01");
    assert.equal(s.body.model, "m/x");
    assert.equal(typeof s.body.max_tokens, "number");
    assert.deepEqual(
      (s.body.messages as { role: string }[]).map((m) => m.role),
      ["user"],
    );
  });

  test("Codex: POST /v1/responses with Bearer; OK with the output text", async () => {
    reply = () => [
      200,
      { object: "response", output: [{ type: "message", content: [{ type: "output_text", text: "pong" }] }] },
    ];
    const r = await verifyClient(
      codex,
      { url: `${base}/v1/responses`, key: "pb-K", model: "m/x" },
      "patchbay connect codex",
    );
    assert.equal(r.ok, true, r.message);
    assert.equal(seen.at(-1)!.path, "/v1/responses");
    assert.equal(seen.at(-1)!.headers.authorization, "Bearer pb-K");
    assert.equal(seen.at(-1)!.body.input, "Patchbay connect check: reply with the word pong.");
  });

  test("failures say what to do", async () => {
    const w = { url: `${base}/v1/messages`, key: "pb-K", model: "m/x" };
    const cases: [number, unknown, RegExp, RegExp][] = [
      [401, { error: { message: "Invalid API key" } }, /refused the key/, /patchbay connect claude/],
      [404, { error: { message: "Unknown route" } }, /does not serve \/v1\/messages/, /Update Patchbay/],
      [404, { error: { code: "model_not_found", message: "No model 'm/x'" } }, /not available/, /--model/],
      [403, { error: { code: "model_not_allowed", message: "no" } }, /may not use/, /--model/],
      [503, { error: { message: "starting" } }, /cannot answer yet/, /Wait/],
      [200, { hello: 1 }, /not in the Claude Code wire/, /Update/],
    ];
    for (const [status, body, message, hint] of cases) {
      reply = () => [status, body];
      const r = await verifyClient(claude, w, "patchbay connect claude");
      assert.equal(r.ok, false);
      assert.match(r.message, message);
      assert.match(r.hint ?? "", hint);
    }
  });

  test("a refused key names the file it came from and the command that writes a new one", async () => {
    reply = () => [401, { error: { message: "Invalid API key" } }];
    const w = { url: `${base}/v1/messages`, key: "pb-K", model: "m/x" };
    const file = "/home/u/.claude/settings.json";
    const r = await verifyClient(claude, w, "patchbay connect claude", fetch, undefined, file);
    assert.equal(r.ok, false);
    assert.equal(r.status, 401);
    assert.match(
      r.message,
      /^The key in \/home\/u\/\.claude\/settings\.json is not accepted \(revoked\?\): run `patchbay connect claude` again/,
    );
  });

  test("no server: says to start Patchbay", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await verifyClient(
      codex,
      { url: `http://127.0.0.1:${port}/v1/responses`, key: "k", model: "m" },
      "x",
      fetch,
      undefined,
      null,
      (args) => patchbayCommand(args, { PATH: "" }),
    );
    assert.equal(r.ok, false);
    assert.equal(r.status, null);
    assert.match(r.hint ?? "", /`node \S+\/bin\/patchbay\.mjs serve` \(add `--demo` to try it without any login/);
  });

  test("a base URL that is no http(s) URL, or carries a password: said without sending, never a crash or an echo", async () => {
    const before = seen.length;
    for (const url of ["not a url/v1/messages", "file:///etc/passwd/v1/messages"]) {
      const r = await verifyClient(
        claude,
        { url, key: "k", model: "m" },
        "patchbay connect claude",
        fetch,
        undefined,
        "/h/s.json",
      );
      assert.equal(r.ok, false);
      assert.match(r.message, /^The base URL in \/h\/s\.json leads to ".*", which is no http\(s\) URL\.$/);
      assert.equal(r.hint, "Run `patchbay connect claude` to write Patchbay's address.");
    }
    const secret = await verifyClient(
      claude,
      { url: `${base.replace("//", "//user:hunter2@")}/v1/messages`, key: "k", model: "m" },
      "patchbay connect claude",
      fetch,
      undefined,
      "/h/s.json",
      bare,
      async () => "http://127.0.0.1:9",
    );
    assert.match(secret.message, /carries a user name or password/);
    assert.ok(!JSON.stringify(secret).includes("hunter2"), "the password is never echoed");
    assert.equal(seen.length, before, "nothing was sent");
  });

  test("a 404 because the base URL has a /v1 too many names the URL, not an old Patchbay", async () => {
    reply = () => [
      404,
      { type: "error", error: { type: "not_found_error", message: "Unknown path /v1/v1/messages." } },
    ];
    const wrong = await verifyClient(
      claude,
      { url: `${base}/v1/v1/messages`, key: "k", model: "mock/x" },
      "patchbay connect claude",
    );
    assert.equal(
      wrong.message,
      "The base URL leads to /v1/v1/messages, not /v1/messages: Unknown path /v1/v1/messages.",
    );
    assert.equal(
      wrong.hint,
      "Run `patchbay connect claude` to write Patchbay's address (the server root, without /v1).",
    );
    // A query (maybe a token) and a password in an unparsable URL are never echoed.
    const query = await verifyClient(
      claude,
      { url: `${base}/?token=s3cret/v1/messages`, key: "k", model: "mock/x" },
      "patchbay connect claude",
    );
    assert.ok(!JSON.stringify(query).includes("s3cret"), JSON.stringify(query));
    const broken = await verifyClient(
      claude,
      { url: "http//user:hunter2@127.0.0.1:1/v1/messages", key: "k", model: "mock/x" },
      "patchbay connect claude",
    );
    assert.match(broken.message, /no http\(s\) URL/);
    assert.ok(!JSON.stringify(broken).includes("hunter2"), JSON.stringify(broken));
    const old = await verifyClient(
      claude,
      { url: `${base}/v1/messages`, key: "k", model: "mock/x" },
      "patchbay connect claude",
    );
    assert.match(old.hint ?? "", /^Update Patchbay/);
  });

  test("a refused key in the file: one fix (connect again), not the server's advice to create a key", async () => {
    reply = () => [
      401,
      {
        type: "error",
        error: {
          type: "authentication_error",
          message: "Incorrect API key provided. Create a key for your app in the Patchbay dashboard (or `x`).",
        },
      },
    ];
    const settings = { url: `${base}/v1/messages`, key: "pb-revoked", model: "m/x" };
    const r = await verifyClient(claude, settings, "patchbay connect claude", fetch, undefined, "/h/settings.json");
    assert.equal(r.ok, false);
    assert.equal(
      r.message,
      "The key in /h/settings.json is not accepted (revoked?): run `patchbay connect claude` again " +
        "(Patchbay said: Incorrect API key provided).",
    );
  });

  test("no answer where the file points, but Patchbay runs on another port: says so and to connect again", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const settings = { url: `http://127.0.0.1:${port}/v1/responses`, key: "k", model: "m" };
    let asked = 0;
    const elsewhere = async () => (asked++, base);
    const r = await verifyClient(codex, settings, "patchbay connect codex", fetch, undefined, null, bare, elsewhere);
    assert.equal(r.ok, false);
    assert.match(r.message, /no answer/);
    assert.equal(
      r.hint,
      `Patchbay runs at ${base} now, not at http://127.0.0.1:${port}: run \`patchbay connect codex\` again to ` +
        "point it there. A fixed port keeps the address across restarts (the default 4747, or `--port N`; " +
        "`--port 0` picks a new one each start).",
    );
    assert.equal(asked, 1);
    // The same origin (it runs there but did not answer), none running, or the lookup failing: the usual hint.
    for (const where of [
      async () => `http://127.0.0.1:${port}`,
      async () => null,
      () => Promise.reject(new Error("x")),
    ]) {
      const same = await verifyClient(codex, settings, "x", fetch, undefined, null, bare, where);
      assert.match(same.hint ?? "", /^Is Patchbay running\?/);
    }
  });

  test("another server answers where the file points (an error): the hint still names where Patchbay runs now", async () => {
    reply = () => [501, { error: { message: "not here" } }];
    const settings = { url: `${base}/v1/responses`, key: "k", model: "m" };
    const r = await verifyClient(
      codex,
      settings,
      "patchbay connect codex",
      fetch,
      undefined,
      null,
      bare,
      async () => "http://127.0.0.1:9",
    );
    assert.equal(r.ok, false);
    assert.equal(r.status, 501);
    assert.match(r.hint ?? "", /^Patchbay runs at http:\/\/127\.0\.0\.1:9 now, not at http:\/\/127\.0\.0\.1:\d+: run/);
    // Its answer is OK: the place is not asked at all.
    reply = () => [
      200,
      { object: "response", output: [{ type: "message", content: [{ type: "output_text", text: "pong" }] }] },
    ];
    let asked = false;
    const ok = await verifyClient(
      codex,
      settings,
      "x",
      fetch,
      undefined,
      null,
      bare,
      async () => ((asked = true), null),
    );
    assert.equal(ok.ok, true);
    assert.equal(asked, false);
  });
});
