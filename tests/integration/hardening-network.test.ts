// Network exposure and secrets on a real Patchbay (issue 8 items 3 and 5): Host guard (DNS rebinding), CORS only for
// listed origins, LAN mode (binds 0.0.0.0, a key on every route), and secrets: keys never in logs, log files, error
// messages or the live log stream; OpenCode's password never on a command line; key and data files user-only.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import { OpenAiErrorEnvelope, chatBody, readSse, sleep, waitFor } from "../harness/http-helpers";

const MODEL = "mock/mock-model";
let fx: PatchbayFixture;
let key: string;

before(async () => {
  fx = await startPatchbayFixture();
  key = await fx.createKey("net");
});
after(async () => {
  await fx?.stop();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request to 127.0.0.1:`port` with exactly these headers (Host and Origin included). */
function raw(
  port: number,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    // agent: false: no keep-alive reuse across the listener restarts below (the port stays the same).
    const req = http.request(
      { host: "127.0.0.1", port, method, path: pathname, headers, timeout: 30_000, agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function apiPort(): number {
  return fx.pb.status().api.port;
}

function code(r: Raw): string | null {
  assert.match(String(r.headers["content-type"]), /^application\/json/, r.body);
  return OpenAiErrorEnvelope.parse(JSON.parse(r.body)).error.code;
}

describe("host guard (loopback)", () => {
  test("loopback Host names are served; any other Host gets 403 forbidden_host, with or without a key", async () => {
    const p = apiPort();
    for (const host of [`127.0.0.1:${p}`, `localhost:${p}`, "localhost", `[::1]:${p}`]) {
      const r = await raw(p, "GET", "/v1/models", { host, authorization: `Bearer ${key}` });
      assert.equal(r.status, 200, host);
    }
    assert.equal(
      (await raw(p, "GET", "/healthz", { host: `localhost:${p}` })).status,
      200,
      "/healthz is open on loopback",
    );
    for (const host of ["evil.example", `evil.example:${p}`, "localhost.evil.example", "192.168.1.10", "0.0.0.0"]) {
      const r = await raw(p, "GET", "/v1/models", { host, authorization: `Bearer ${key}` });
      assert.equal(r.status, 403, host);
      assert.equal(code(r), "forbidden_host");
    }
    const post = await raw(
      p,
      "POST",
      "/v1/chat/completions",
      { host: "evil.example", authorization: `Bearer ${key}`, "content-type": "application/json" },
      chatBody(MODEL),
    );
    assert.equal(post.status, 403);
    assert.equal(fx.pb.status().api.host, "127.0.0.1");
  });
});

describe("CORS", () => {
  const origin = "https://chat.example";

  test("no CORS headers while no app lists the origin, preflight included", async () => {
    const p = apiPort();
    const r = await raw(p, "GET", "/v1/models", { host: "localhost", origin, authorization: `Bearer ${key}` });
    assert.equal(r.status, 200);
    assert.equal(r.headers["access-control-allow-origin"], undefined);
    const pre = await raw(p, "OPTIONS", "/v1/chat/completions", {
      host: "localhost",
      origin,
      "access-control-request-method": "POST",
    });
    assert.equal(pre.headers["access-control-allow-origin"], undefined);
    assert.equal(pre.headers["access-control-allow-methods"], undefined);
  });

  test("an app lists the origin: preflight answered without a key, 401 carries ACAO, a real answer too", async () => {
    await fx.admin.createApp({ body: { name: "browser-app" } });
    await fx.admin.updateApp({ params: { name: "browser-app" }, body: { limits: { corsOrigins: [origin] } } });
    const p = apiPort();
    const pre = await raw(p, "OPTIONS", "/v1/chat/completions", {
      host: "localhost",
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type, x-stainless-os",
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers["access-control-allow-origin"], origin);
    assert.match(String(pre.headers["access-control-allow-methods"]), /POST/);
    assert.match(String(pre.headers["access-control-allow-headers"]), /authorization/);
    assert.match(String(pre.headers.vary), /Origin/);
    const unauth = await raw(
      p,
      "POST",
      "/v1/chat/completions",
      { host: "localhost", origin, "content-type": "application/json" },
      chatBody(MODEL),
    );
    assert.equal(unauth.status, 401);
    assert.equal(unauth.headers["access-control-allow-origin"], origin, "a browser must be able to read the 401");
    assert.equal(code(unauth), "invalid_api_key");
    fx.mock.reset();
    const browserKey = (await fx.admin.createKey({ params: { name: "browser-app" }, body: { label: "browser" } })).key;
    const ok = await raw(
      p,
      "POST",
      "/v1/chat/completions",
      { host: "localhost", origin, authorization: `Bearer ${browserKey}`, "content-type": "application/json" },
      chatBody(MODEL),
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.headers["access-control-allow-origin"], origin);
    assert.match(String(ok.headers["access-control-expose-headers"]), /retry-after/i);
    // Once the key is known, that key's app decides: "net" does not list the origin.
    const notListed = await raw(p, "GET", "/v1/models", { host: "localhost", origin, authorization: `Bearer ${key}` });
    assert.equal(notListed.status, 200);
    assert.equal(notListed.headers["access-control-allow-origin"], undefined);
    const other = await raw(p, "GET", "/v1/models", {
      host: "localhost",
      origin: "https://other.example",
      authorization: `Bearer ${key}`,
    });
    assert.equal(other.headers["access-control-allow-origin"], undefined);
    await fx.admin.updateApp({ params: { name: "browser-app" }, body: { limits: { corsOrigins: [] } } });
    const gone = await raw(p, "OPTIONS", "/v1/chat/completions", {
      host: "localhost",
      origin,
      "access-control-request-method": "POST",
    });
    assert.equal(gone.headers["access-control-allow-origin"], undefined, "removing the origin takes effect at once");
  });
});

describe("LAN mode", () => {
  test("binds 0.0.0.0, accepts any Host, and every route (incl. /healthz and unknown ones) requires a key", async () => {
    await fx.admin.updateSettings({ body: { lanExposure: true } });
    // The fixture pins port 0, so Patchbay does not rebind by itself; restart the listener like the dashboard's Start.
    await fx.pb.stopApi();
    await fx.pb.startApi();
    try {
      const st = fx.pb.status().api;
      assert.equal(st.running, true);
      assert.equal(st.host, "0.0.0.0");
      assert.equal(st.lanExposure, true);
      const p = st.port;
      const lanHost = `192.168.1.50:${p}`;
      for (const [method, route] of [
        ["GET", "/healthz"],
        ["GET", "/v1/models"],
        ["GET", "/v1/models/mock%2Fmock-model"],
        ["POST", "/v1/chat/completions"],
        ["POST", "/v1/responses"],
        ["GET", "/nowhere"],
      ] as const) {
        const r = await raw(
          p,
          method,
          route,
          { host: lanHost, "content-type": "application/json" },
          method === "POST" ? "{}" : undefined,
        );
        assert.equal(r.status, 401, `${method} ${route} without a key`);
        assert.equal(code(r), "invalid_api_key");
        const wrong = await raw(
          p,
          method,
          route,
          { host: lanHost, authorization: `Bearer ${key}x` },
          method === "POST" ? "{}" : undefined,
        );
        assert.equal(wrong.status, 401, `${method} ${route} with a wrong key`);
      }
      assert.equal((await raw(p, "GET", "/healthz", { host: lanHost, authorization: `Bearer ${key}` })).status, 200);
      assert.equal((await raw(p, "GET", "/v1/models", { host: lanHost, authorization: `Bearer ${key}` })).status, 200);
      fx.mock.reset();
      const r = await raw(
        p,
        "POST",
        "/v1/chat/completions",
        { host: lanHost, authorization: `Bearer ${key}`, "content-type": "application/json" },
        chatBody(MODEL),
      );
      assert.equal(r.status, 200);
    } finally {
      await fx.admin.updateSettings({ body: { lanExposure: false } });
      await fx.pb.stopApi();
      await fx.pb.startApi();
    }
    const back = fx.pb.status().api;
    assert.equal(back.host, "127.0.0.1");
    assert.equal((await raw(back.port, "GET", "/healthz", { host: "localhost" })).status, 200);
    assert.equal(
      (await raw(back.port, "GET", "/v1/models", { host: "192.168.1.50", authorization: `Bearer ${key}` })).status,
      403,
    );
  });
});

describe("secrets", () => {
  test("keys never reach logs, log files, error messages or the live log stream", async () => {
    await fx.admin.updateSettings({ body: { logBodies: true } });
    const live: string[] = [];
    const liveAbort = new AbortController();
    const liveReq = await fetch(`${fx.urls.adminUrl}/admin/api/logs/stream`, {
      headers: { authorization: `Bearer ${fx.urls.adminToken}` },
      signal: liveAbort.signal,
    });
    assert.equal(liveReq.status, 200);
    const reading = readSse(liveReq, (f) => void live.push(f.data), 60_000).catch(() => []);
    try {
      const base = `http://127.0.0.1:${apiPort()}`;
      const nearMiss = [
        key + "x",
        key.slice(0, -1),
        key.slice(0, -1) + (key.endsWith("A") ? "B" : "A"),
        key.toUpperCase(),
        key.replace("pb-", "pb_"),
      ];
      const errorTexts: string[] = [];
      for (const k of nearMiss) {
        const r = await fetch(`${base}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${k}`, "content-type": "application/json" },
          body: chatBody(MODEL),
        });
        const text = await r.text();
        assert.equal(r.status, 401, k);
        errorTexts.push(text);
      }
      errorTexts.push(await (await fetch(`${base}/v1/models`, { headers: { authorization: key } })).text()); // no scheme
      errorTexts.push(
        await (
          await fetch(`${base}/v1/models`, {
            headers: { authorization: `Basic ${Buffer.from(`u:${key}`).toString("base64")}` },
          })
        ).text(),
      );
      // Successful uses: JSON, stream, Responses; an error; a key pasted into the prompt (body logging is on).
      fx.mock.reset();
      const h = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      assert.equal(
        (await fetch(`${base}/v1/chat/completions`, { method: "POST", headers: h, body: chatBody(MODEL) })).status,
        200,
      );
      await (
        await fetch(`${base}/v1/chat/completions`, {
          method: "POST",
          headers: h,
          body: chatBody(MODEL, { stream: true }),
        })
      ).text();
      assert.equal(
        (
          await fetch(`${base}/v1/responses`, {
            method: "POST",
            headers: h,
            body: JSON.stringify({ model: MODEL, input: "hi" }),
          })
        ).status,
        200,
      );
      const bad = await fetch(`${base}/v1/chat/completions`, {
        method: "POST",
        headers: h,
        body: JSON.stringify({ model: "mock/nope", messages: [{ role: "user", content: "x" }] }),
      });
      errorTexts.push(await bad.text());
      await waitFor(
        "the log entries",
        async () => (await fx.admin.queryLogs({ query: { app: "net" } })).entries.length >= 4,
        5000,
      );
      await sleep(1500); // batched writes (request log, OpenCode's database)
      const secret = key.slice(3 + 12); // the part after `pb-` + the public prefix: any leak of it is a leak of the key
      // Nothing so far put the key in a prompt: it must appear nowhere in the data dir, OpenCode's home included.
      const everywhere = allFiles(fx.dataDir);
      assert.ok(everywhere.length > 5, "no files to search");
      for (const file of everywhere) assert.ok(!fs.readFileSync(file).includes(secret), `the key leaked into ${file}`);

      const pasted = await fetch(`${base}/v1/chat/completions`, {
        method: "POST",
        headers: h,
        body: JSON.stringify({
          model: MODEL,
          messages: [{ role: "user", content: `my key is ${key} and Bearer ${key}` }],
          user: key,
        }),
      });
      assert.equal(pasted.status, 200);
      await waitFor(
        "the log entries",
        async () => (await fx.admin.queryLogs({ query: { app: "net" } })).entries.length >= 5,
        5000,
      );
      await sleep(300); // live stream delivery

      // The pasted key is the user's content (OpenCode keeps it in its history), but Patchbay's own logs redact it.
      const haystacks: [string, string][] = [
        ["error responses", errorTexts.join("\n")],
        ["Patchbay's log lines", fx.logLines.join("\n")],
        ["the live log stream", live.join("\n")],
        ["the request log API", JSON.stringify(await fx.admin.queryLogs({ query: { limit: 500 } }))],
      ];
      for (const file of patchbayFiles(fx.dataDir)) haystacks.push([file, fs.readFileSync(file, "latin1")]);
      assert.ok(haystacks.length > 5, "no files to search");
      for (const [where, text] of haystacks) {
        assert.ok(!text.includes(secret), `the key leaked into ${where}`);
        assert.ok(!text.toLowerCase().includes(secret.toLowerCase()), `the key (other case) leaked into ${where}`);
      }
      assert.ok(live.length >= 5, `live stream saw ${live.length} entries`);
      assert.ok(
        live.some((l) => l.includes("[redacted]")),
        "the pasted key was not redacted in the live stream",
      );
    } finally {
      await fx.admin.updateSettings({ body: { logBodies: false } });
      liveAbort.abort();
      await reading;
    }
  });

  test("OpenCode's server password and side-channel token are in its environment only, never on a command line", () => {
    const pid = fx.pb.status().opencode.pid;
    assert.ok(pid, "no OpenCode pid");
    const environ = fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
    const password = environ.find((e) => e.startsWith("OPENCODE_SERVER_PASSWORD="))?.split("=")[1];
    const token = environ.find((e) => e.startsWith("PATCHBAY_SIDE_CHANNEL_TOKEN="))?.split("=")[1];
    assert.ok(password && password.length >= 20, "OpenCode runs without a strong server password");
    assert.ok(token && token.length >= 20, "no side-channel token");
    const guardPid = Number(fs.readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]!.split(" ")[1]);
    for (const p of [pid, guardPid]) {
      const cmdline = fs.readFileSync(`/proc/${p}/cmdline`, "latin1");
      assert.ok(cmdline.length > 0);
      assert.ok(!cmdline.includes(password), `the password is on the command line of ${p}`);
      assert.ok(!cmdline.includes(token), `the side-channel token is on the command line of ${p}`);
    }
    assert.ok(!fx.logLines.join("\n").includes(password), "the password is in Patchbay's log");
  });

  test("keys.json and the other stores are readable by the user only; the data dir is 0700", () => {
    assert.equal(fs.statSync(path.join(fx.dataDir, "keys.json")).mode & 0o777, 0o600);
    for (const f of ["apps.json", "settings.json"]) {
      const full = path.join(fx.dataDir, f);
      if (fs.existsSync(full)) assert.equal(fs.statSync(full).mode & 0o077, 0, `${f} is readable by others`);
    }
    assert.equal(fs.statSync(fx.dataDir).mode & 0o077, 0, "the data dir is open to others");
    const logs = path.join(fx.dataDir, "logs");
    if (fs.existsSync(logs)) {
      assert.equal(fs.statSync(logs).mode & 0o077, 0, "the log dir is open to others");
      for (const f of fs.readdirSync(logs))
        assert.equal(fs.statSync(path.join(logs, f)).mode & 0o077, 0, `logs/${f} is readable by others`);
    }
  });
});

/** Every file under `dir`. */
function allFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** Patchbay's own files in the data dir (stores, logs); OpenCode's home is left out: it holds the conversations,
 *  and a key the user pasted into a prompt is theirs to keep there. */
function patchbayFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === "opencode" || entry.name === "apps") continue;
      out.push(...patchbayFiles(full));
    } else if (entry.isFile()) out.push(full);
  }
  return out;
}
