// fetchRemoteImage against real HTTP servers on 127.0.0.1 (permitted only through the `allowAddress` seam), with an
// injected resolver for host names: schemes, address refusal, redirects re-checked, DNS pinning, type, size and time caps.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import tls from "node:tls";
import type { AddressInfo } from "node:net";
import { PatchbayError } from "../../../server/core/errors";
import { isPublicAddress } from "../../../server/security/ip-policy";
import { fetchRemoteImage } from "../../../server/security/remote-image";
import { PNG_1X1, startLoopbackServer, type LoopbackServer } from "./loopback-server";

const loopbackOnly = (ip: string): boolean => ip === "127.0.0.1";
const PARAM = "messages[0].content[1]";

interface Expected {
  code: string;
  status: number;
  includes?: string[];
  excludes?: string[];
}

async function assertFails(promise: Promise<unknown>, expected: Expected): Promise<PatchbayError> {
  let caught: unknown;
  await assert.rejects(promise, (err: unknown) => {
    caught = err;
    return true;
  });
  assert.ok(caught instanceof PatchbayError, `expected a PatchbayError, got ${String(caught)}`);
  assert.equal(caught.code, expected.code, caught.message);
  assert.equal(caught.status, expected.status, caught.message);
  assert.equal(caught.param, PARAM);
  for (const text of expected.includes ?? [])
    assert.ok(caught.message.includes(text), `'${caught.message}' lacks '${text}'`);
  for (const text of expected.excludes ?? [])
    assert.ok(!caught.message.includes(text), `'${caught.message}' leaks '${text}'`);
  return caught;
}

/** A resolver that answers from a table and counts calls per host. */
function fakeResolver(table: Record<string, string[][]>): {
  resolve: (host: string) => Promise<string[]>;
  calls: string[];
} {
  const calls: string[] = [];
  const served = new Map<string, number>();
  return {
    calls,
    resolve: async (host) => {
      calls.push(host);
      const answers = table[host];
      if (!answers) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" });
      const n = served.get(host) ?? 0;
      served.set(host, n + 1);
      return answers[Math.min(n, answers.length - 1)] ?? [];
    },
  };
}

describe("fetchRemoteImage", () => {
  let image: LoopbackServer;
  let other: LoopbackServer;
  let redirector: LoopbackServer;
  const hostHeaders: string[] = [];

  before(async () => {
    image = await startLoopbackServer((req, res) => {
      hostHeaders.push(req.headers.host ?? "");
      if (req.url?.startsWith("/missing")) {
        res.writeHead(404, { "content-type": "text/plain" }).end("no");
        return;
      }
      if (req.url === "/page.html") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<html></html>");
        return;
      }
      if (req.url === "/gzipped") {
        res.writeHead(200, { "content-type": "image/png", "content-encoding": "gzip" }).end(PNG_1X1);
        return;
      }
      if (req.url === "/untyped") {
        res.writeHead(200).end(PNG_1X1);
        return;
      }
      res.writeHead(200, { "content-type": "image/PNG; foo=bar", "content-length": PNG_1X1.length }).end(PNG_1X1);
    });
    other = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { "content-type": "image/png" }).end(PNG_1X1);
    });
    redirector = await startLoopbackServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const to = url.searchParams.get("to");
      if (url.pathname === "/loop") {
        res.writeHead(302, { location: "/loop" }).end();
        return;
      }
      if (url.pathname === "/nolocation") {
        res.writeHead(302).end();
        return;
      }
      res.writeHead(302, { location: to ?? "/" }).end();
    });
  });

  after(async () => {
    await Promise.all([image.close(), other.close(), redirector.close()]);
  });

  test("fetches an image and returns a data URL with the normalised media type", async () => {
    const result = await fetchRemoteImage(`${image.origin}/red.png`, { allowAddress: loopbackOnly, param: PARAM });
    assert.equal(result.mediaType, "image/png");
    assert.equal(result.bytes, PNG_1X1.length);
    assert.equal(result.dataUrl, `data:image/png;base64,${PNG_1X1.toString("base64")}`);
  });

  describe("schemes and URL shape", () => {
    for (const url of [
      "file:///etc/passwd",
      "ftp://example.com/a.png",
      `data:image/png;base64,${PNG_1X1.toString("base64")}`,
      "javascript:alert(1)",
      "gopher://127.0.0.1:70/_x",
      "ws://127.0.0.1/x",
    ]) {
      test(`refuses ${url.slice(0, url.indexOf(":") + 1)} URLs with 400 naming the param`, async () => {
        await assertFails(fetchRemoteImage(url, { allowAddress: loopbackOnly, param: PARAM }), {
          code: "invalid_request_error",
          status: 400,
          includes: ["http or https"],
        });
      });
    }

    test("refuses a string that is not a URL", async () => {
      await assertFails(fetchRemoteImage("not a url", { param: PARAM }), {
        code: "invalid_request_error",
        status: 400,
      });
    });

    test("refuses URLs with credentials without echoing them", async () => {
      const before = image.hits.length;
      await assertFails(
        fetchRemoteImage(`http://alice:s3cr3t@127.0.0.1:${image.port}/red.png`, {
          allowAddress: loopbackOnly,
          param: PARAM,
        }),
        {
          code: "invalid_request_error",
          status: 400,
          includes: ["credentials"],
          excludes: ["s3cr3t", "alice"],
        },
      );
      assert.equal(image.hits.length, before, "no request was sent");
    });
  });

  describe("address policy (default isPublicAddress)", () => {
    for (const host of ["127.0.0.1", "[::1]", "[::ffff:127.0.0.1]", "2130706433", "0x7f.0.0.1", "0.0.0.0"]) {
      test(`refuses the loopback/unspecified literal ${host} before connecting`, async () => {
        const before = image.hits.length;
        await assertFails(fetchRemoteImage(`http://${host}:${image.port}/red.png`, { param: PARAM }), {
          code: "invalid_request_error",
          status: 400,
          includes: ["private, loopback"],
        });
        assert.equal(image.hits.length, before, "no request reached the server");
      });
    }

    test("refuses link-local metadata and private literals without any traffic", async () => {
      for (const url of [
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/a.png",
        "http://[fd00::1]/a.png",
        "http://[64:ff9b::a9fe:a9fe]/",
      ]) {
        await assertFails(fetchRemoteImage(url, { param: PARAM, timeoutMs: 2_000 }), {
          code: "invalid_request_error",
          status: 400,
        });
      }
    });

    test("refuses a host name that resolves to a private address, naming the host only", async () => {
      const dns = fakeResolver({ "images.example.test": [["10.1.2.3"]] });
      await assertFails(
        fetchRemoteImage("http://images.example.test/cat.png?token=SECRET123", { resolve: dns.resolve, param: PARAM }),
        {
          code: "invalid_request_error",
          status: 400,
          includes: ["'images.example.test'", "private"],
          excludes: ["SECRET123", "10.1.2.3", "cat.png"],
        },
      );
      assert.deepEqual(dns.calls, ["images.example.test"]);
    });

    test("checks every resolved address: one refused address among allowed ones refuses the host", async () => {
      // 127.0.0.1 is allowed here and serves the image, so only a check of the second address can make this fail.
      const dns = fakeResolver({ "mixed.example.test": [["127.0.0.1", "10.1.1.1"]] });
      const before = image.hits.length;
      await assertFails(
        fetchRemoteImage(`http://mixed.example.test:${image.port}/red.png`, {
          resolve: dns.resolve,
          allowAddress: loopbackOnly,
          param: PARAM,
        }),
        {
          code: "invalid_request_error",
          status: 400,
          includes: ["mixed.example.test", "private"],
        },
      );
      assert.equal(image.hits.length, before, "no request was sent");
    });

    test("a host that does not resolve is a 400 naming the host", async () => {
      const dns = fakeResolver({});
      await assertFails(
        fetchRemoteImage("https://nowhere.example.test/a.png", { resolve: dns.resolve, param: PARAM }),
        {
          code: "invalid_request_error",
          status: 400,
          includes: ["resolve", "nowhere.example.test"],
        },
      );
    });
  });

  describe("DNS pinning", () => {
    test("resolves once and connects to the checked address even though a second answer would differ", async () => {
      // First answer 127.0.0.1 (allowed by the seam); any later answer is a private address. The host name itself
      // is under .test, so only the pinned address can make this connection succeed.
      const dns = fakeResolver({ "pinned.example.test": [["127.0.0.1"], ["10.66.66.66"]] });
      const seen: string[] = [];
      const result = await fetchRemoteImage(`http://pinned.example.test:${image.port}/red.png`, {
        resolve: dns.resolve,
        allowAddress: (ip) => {
          seen.push(ip);
          return loopbackOnly(ip);
        },
        param: PARAM,
      });
      assert.equal(result.mediaType, "image/png");
      assert.deepEqual(dns.calls, ["pinned.example.test"], "resolver called exactly once");
      assert.deepEqual(seen, ["127.0.0.1"]);
      assert.equal(hostHeaders.at(-1), `pinned.example.test:${image.port}`, "Host header keeps the name");
    });

    test("resolves once per hop across a redirect", async () => {
      const dns = fakeResolver({
        "a.example.test": [["127.0.0.1"], ["10.0.0.1"]],
        "b.example.test": [["127.0.0.1"], ["10.0.0.1"]],
      });
      const target = encodeURIComponent(`http://b.example.test:${other.port}/img.png`);
      const result = await fetchRemoteImage(`http://a.example.test:${redirector.port}/go?to=${target}`, {
        resolve: dns.resolve,
        allowAddress: loopbackOnly,
        param: PARAM,
      });
      assert.equal(result.bytes, PNG_1X1.length);
      assert.deepEqual(dns.calls, ["a.example.test", "b.example.test"]);
    });
    test("https keeps the host name as TLS server name (SNI) while connecting to the pinned address", async () => {
      // A TLS server with no certificate: it records the SNI name, then fails the handshake.
      const names: string[] = [];
      const server = tls.createServer({
        SNICallback: (name, cb) => {
          names.push(name);
          cb(new Error("no certificate in this test"));
        },
      });
      server.on("tlsClientError", () => undefined);
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      try {
        const { port } = server.address() as AddressInfo;
        const dns = fakeResolver({ "sni.example.test": [["127.0.0.1"]] });
        await assertFails(
          fetchRemoteImage(`https://sni.example.test:${port}/a.png`, {
            resolve: dns.resolve,
            allowAddress: loopbackOnly,
            timeoutMs: 3_000,
            param: PARAM,
          }),
          { code: "invalid_request_error", status: 400, includes: ["sni.example.test"] },
        );
        assert.deepEqual(names, ["sni.example.test"]);
        assert.deepEqual(dns.calls, ["sni.example.test"]);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe("redirects", () => {
    test("re-checks the redirect hop: 127.0.0.1 allowed for the first hop only, the second hop to 127.0.0.1 is refused", async () => {
      let checks = 0;
      const firstHopOnly = (ip: string): boolean => (++checks === 1 ? ip === "127.0.0.1" : isPublicAddress(ip));
      const otherHits = other.hits.length;
      const target = encodeURIComponent(`${other.origin}/img.png`);
      await assertFails(
        fetchRemoteImage(`${redirector.origin}/go?to=${target}`, { allowAddress: firstHopOnly, param: PARAM }),
        {
          code: "invalid_request_error",
          status: 400,
          includes: ["redirected from", "private, loopback"],
        },
      );
      assert.equal(checks, 2, "the second hop was checked");
      assert.equal(other.hits.length, otherHits, "the refused hop received no request");
    });

    test("refuses a redirect to a host name resolving to a private address", async () => {
      const dns = fakeResolver({ "internal.example.test": [["192.168.1.10"]] });
      const target = encodeURIComponent("http://internal.example.test/admin.png");
      await assertFails(
        fetchRemoteImage(`${redirector.origin}/go?to=${target}`, {
          resolve: dns.resolve,
          allowAddress: loopbackOnly,
          param: PARAM,
        }),
        { code: "invalid_request_error", status: 400, includes: ["internal.example.test"] },
      );
      assert.deepEqual(dns.calls, ["internal.example.test"]);
    });

    test("follows an allowed relative redirect", async () => {
      const target = encodeURIComponent(`${other.origin}/img.png`);
      const result = await fetchRemoteImage(`${redirector.origin}/go?to=${target}`, {
        allowAddress: loopbackOnly,
        param: PARAM,
      });
      assert.equal(result.mediaType, "image/png");
    });

    test("refuses more than maxRedirects", async () => {
      const before = redirector.hits.length;
      await assertFails(
        fetchRemoteImage(`${redirector.origin}/loop`, { allowAddress: loopbackOnly, maxRedirects: 2, param: PARAM }),
        {
          code: "invalid_request_error",
          status: 400,
          includes: ["more than 2"],
        },
      );
      assert.equal(redirector.hits.length - before, 3, "initial request + 2 followed redirects");
    });

    test("maxRedirects 0 refuses any redirect", async () => {
      await assertFails(
        fetchRemoteImage(`${redirector.origin}/loop`, { allowAddress: loopbackOnly, maxRedirects: 0, param: PARAM }),
        {
          code: "invalid_request_error",
          status: 400,
        },
      );
    });

    test("refuses a redirect to a non-http scheme and one without Location", async () => {
      await assertFails(
        fetchRemoteImage(`${redirector.origin}/go?to=${encodeURIComponent("file:///etc/passwd")}`, {
          allowAddress: loopbackOnly,
          param: PARAM,
        }),
        { code: "invalid_request_error", status: 400, includes: ["'file:'"] },
      );
      await assertFails(
        fetchRemoteImage(`${redirector.origin}/nolocation`, { allowAddress: loopbackOnly, param: PARAM }),
        {
          code: "invalid_request_error",
          status: 400,
          includes: ["Location"],
        },
      );
    });
  });

  describe("response checks", () => {
    test("refuses a non-image content type with 415", async () => {
      await assertFails(fetchRemoteImage(`${image.origin}/page.html`, { allowAddress: loopbackOnly, param: PARAM }), {
        code: "unsupported_media_type",
        status: 415,
        includes: ["text/html", "image/*"],
      });
    });

    test("refuses a response without content type with 415", async () => {
      await assertFails(fetchRemoteImage(`${image.origin}/untyped`, { allowAddress: loopbackOnly, param: PARAM }), {
        code: "unsupported_media_type",
        status: 415,
      });
    });

    test("refuses a compressed body (only identity is accepted)", async () => {
      await assertFails(fetchRemoteImage(`${image.origin}/gzipped`, { allowAddress: loopbackOnly, param: PARAM }), {
        code: "invalid_request_error",
        status: 400,
        includes: ["compressed", "gzip"],
      });
    });

    test("a non-2xx answer is a 400 naming the host and status, not the path or query", async () => {
      await assertFails(
        fetchRemoteImage(`${image.origin}/missing/secret-path?key=SECRET456`, {
          allowAddress: loopbackOnly,
          param: PARAM,
        }),
        {
          code: "invalid_request_error",
          status: 400,
          includes: ["404", `127.0.0.1:${image.port}`],
          excludes: ["SECRET456", "secret-path"],
        },
      );
    });

    test("a refused connection is a 400, not a crash", async () => {
      const gone = await startLoopbackServer(() => undefined);
      await gone.close();
      await assertFails(fetchRemoteImage(`${gone.origin}/a.png`, { allowAddress: loopbackOnly, param: PARAM }), {
        code: "invalid_request_error",
        status: 400,
        includes: ["connection refused"],
      });
    });
  });

  describe("size cap", () => {
    test("refuses a Content-Length over the cap before reading the body", async () => {
      // The server announces 5000 bytes but never sends them: only the Content-Length precheck can answer fast.
      const server = await startLoopbackServer((_req, res) => {
        res.writeHead(200, { "content-type": "image/png", "content-length": 5000 });
        res.flushHeaders();
      });
      try {
        const started = Date.now();
        await assertFails(
          fetchRemoteImage(`${server.origin}/big.png`, {
            allowAddress: loopbackOnly,
            maxBytes: 1000,
            timeoutMs: 3_000,
            param: PARAM,
          }),
          {
            code: "payload_too_large",
            status: 413,
            includes: ["1000 bytes", "5000 bytes"],
          },
        );
        assert.ok(Date.now() - started < 2_000);
      } finally {
        await server.close();
      }
    });

    test("cuts off a chunked body without length once it passes the cap", async () => {
      let closed: Promise<unknown> = Promise.resolve();
      let sent = 0;
      const server = await startLoopbackServer((_req, res) => {
        res.writeHead(200, { "content-type": "image/jpeg" });
        const timer = setInterval(() => {
          sent += 512;
          res.write(Buffer.alloc(512, 1));
        }, 2);
        closed = once(res, "close").then(() => clearInterval(timer));
      });
      try {
        await assertFails(
          fetchRemoteImage(`${server.origin}/stream.jpg`, {
            allowAddress: loopbackOnly,
            maxBytes: 4096,
            timeoutMs: 5_000,
            param: PARAM,
          }),
          {
            code: "payload_too_large",
            status: 413,
            includes: ["4096 bytes"],
          },
        );
        await Promise.race([
          closed,
          new Promise((_, reject) => setTimeout(() => reject(new Error("server connection not closed")), 2_000)),
        ]);
        assert.ok(sent < 64 * 1024, `download stopped early (server sent ${sent} bytes)`);
      } finally {
        await server.close();
      }
    });

    test("accepts a body exactly at the cap", async () => {
      const result = await fetchRemoteImage(`${image.origin}/red.png`, {
        allowAddress: loopbackOnly,
        maxBytes: PNG_1X1.length,
        param: PARAM,
      });
      assert.equal(result.bytes, PNG_1X1.length);
    });
  });

  describe("time cap", () => {
    test("a server that never answers hits the cap: 504 timeout", async () => {
      const server = await startLoopbackServer(() => undefined);
      try {
        const started = Date.now();
        await assertFails(
          fetchRemoteImage(`${server.origin}/slow.png`, { allowAddress: loopbackOnly, timeoutMs: 200, param: PARAM }),
          {
            code: "timeout",
            status: 504,
            includes: ["200 ms", `127.0.0.1:${server.port}`],
          },
        );
        const elapsed = Date.now() - started;
        // The server never answers in time, so the 504 is the 200 ms timeout; "not early" is a lower bound on a timer.
        assert.ok(elapsed >= 150, `elapsed ${elapsed} ms`);
      } finally {
        await server.close();
      }
    });

    test("a body that trickles past the cap: 504 timeout", async () => {
      const server = await startLoopbackServer((_req, res) => {
        res.writeHead(200, { "content-type": "image/gif" });
        const timer = setInterval(() => res.write(Buffer.from([0x47])), 50);
        res.on("close", () => clearInterval(timer));
      });
      try {
        await assertFails(
          fetchRemoteImage(`${server.origin}/drip.gif`, { allowAddress: loopbackOnly, timeoutMs: 300, param: PARAM }),
          {
            code: "timeout",
            status: 504,
          },
        );
      } finally {
        await server.close();
      }
    });

    test("a resolver that hangs hits the cap too", async () => {
      await assertFails(
        fetchRemoteImage("http://hang.example.test/a.png", {
          resolve: () => new Promise<string[]>(() => undefined),
          timeoutMs: 150,
          param: PARAM,
        }),
        { code: "timeout", status: 504 },
      );
    });

    test("the caller's abort signal rejects with its reason", async () => {
      const server = await startLoopbackServer(() => undefined);
      try {
        const controller = new AbortController();
        const reason = new Error("client went away");
        setTimeout(() => controller.abort(reason), 50);
        await assert.rejects(
          fetchRemoteImage(`${server.origin}/a.png`, {
            allowAddress: loopbackOnly,
            signal: controller.signal,
            timeoutMs: 5_000,
          }),
          (err: unknown) => err === reason,
        );
      } finally {
        await server.close();
      }
    });
  });
});
