// Web fetch against real HTTP servers on 127.0.0.1: loopback is refused by default (SSRF guard), allowed only through
// the explicit `allowAddress` seam; a redirect to a private address is refused; size cap and timeout hold; HTML comes
// back as text with its title. Every failure is an outcome with a web fetch error code, never a throw.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createWebFetcher } from "../../../server/server-tools/web-fetch";
import { startLoopbackServer, type LoopbackServer } from "../security/loopback-server";

let site: LoopbackServer;
const loopbackOnly = (ip: string) => ip === "127.0.0.1";
const opts = () => ({ maxChars: 10_000, signal: AbortSignal.timeout(5000) });

before(async () => {
  site = await startLoopbackServer((req, res) => {
    if (req.url === "/page")
      return void res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end("<html><head><title>A &amp; B</title></head><body><p>Hello <b>world</b></p><img src=x></body></html>");
    if (req.url === "/big") return void res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(4096));
    if (req.url === "/image") return void res.writeHead(200, { "content-type": "image/png" }).end("png");
    if (req.url === "/to-private") return void res.writeHead(302, { location: "http://10.0.0.1/secret" }).end();
    if (req.url === "/to-page") return void res.writeHead(302, { location: "/page" }).end();
    if (req.url === "/to-other-domain")
      return void res.writeHead(302, { location: `http://other.test:${site.port}/page` }).end();
    if (req.url === "/slow") return; // never answers
    res.writeHead(404).end();
  });
});
after(async () => {
  await site?.close();
});

describe("web fetch", () => {
  test("loopback and private addresses are refused by default", async () => {
    const fetchPage = createWebFetcher();
    for (const url of [`${site.origin}/page`, "http://10.1.2.3/", "http://169.254.169.254/latest/meta-data"]) {
      const r = await fetchPage(url, opts());
      assert.ok("error" in r, url);
      assert.equal(r.error, "url_not_accessible");
      assert.match(r.message, /private, loopback/);
    }
    assert.equal(site.hits.length, 0);
  });

  test("an allowed page comes back as text with its title", async () => {
    const r = await createWebFetcher({ allowAddress: loopbackOnly, now: () => 0 })(`${site.origin}/page`, opts());
    assert.ok(!("error" in r) && r.kind === "web_fetch");
    assert.equal(r.title, "A & B");
    assert.match(r.text, /Hello WORLD|Hello world/);
    assert.doesNotMatch(r.text, /<p>/);
    assert.equal(r.retrievedAt, "1970-01-01T00:00:00.000Z");
  });

  test("a redirect to a private address is refused", async () => {
    const r = await createWebFetcher({ allowAddress: loopbackOnly })(`${site.origin}/to-private`, opts());
    assert.ok("error" in r);
    assert.equal(r.error, "url_not_accessible");
    assert.match(r.message, /10\.0\.0\.1/);
  });

  test("the client's domain rule holds on every redirect hop, and the page names the URL it came from", async () => {
    // Attacker's case: an allowed domain redirects to one the client did not allow (both resolve to this server).
    const fetchPage = createWebFetcher({ allowAddress: loopbackOnly, resolve: async () => ["127.0.0.1"] });
    const hitsBefore = site.hits.length;
    const refused = await fetchPage(`${site.origin}/to-other-domain`, {
      ...opts(),
      allowHost: (h) => h !== "other.test",
    });
    assert.ok("error" in refused);
    assert.equal(refused.error, "url_not_allowed");
    assert.match(refused.message, /other\.test/);
    assert.deepEqual(site.hits.slice(hitsBefore), ["/to-other-domain"], "the refused hop is never requested");
    const followed = await fetchPage(`${site.origin}/to-page`, { ...opts(), allowHost: () => true });
    assert.ok(!("error" in followed) && followed.kind === "web_fetch");
    assert.equal(followed.url, `${site.origin}/page`);
  });

  test("errors speak of pages, not images", async () => {
    const r = await createWebFetcher()("file:///etc/passwd", opts());
    assert.ok("error" in r);
    assert.doesNotMatch(r.message, /image/i);
  });

  test("size cap, text cap, content type and timeout", async () => {
    const capped = await createWebFetcher({ allowAddress: loopbackOnly, maxBytes: 1024 })(`${site.origin}/big`, opts());
    assert.ok("error" in capped && capped.error === "url_not_accessible");
    const cut = await createWebFetcher({ allowAddress: loopbackOnly })(`${site.origin}/big`, {
      maxChars: 100,
      signal: AbortSignal.timeout(5000),
    });
    assert.ok(!("error" in cut) && cut.kind === "web_fetch");
    assert.match(cut.text, /^x{100}\n\[… page text cut at 100 characters\]$/);
    const image = await createWebFetcher({ allowAddress: loopbackOnly })(`${site.origin}/image`, opts());
    assert.ok("error" in image && image.error === "unsupported_content_type");
    const slow = await createWebFetcher({ allowAddress: loopbackOnly })(`${site.origin}/slow`, {
      maxChars: 100,
      signal: AbortSignal.timeout(300),
    });
    assert.ok("error" in slow);
    assert.equal(slow.error, "url_not_accessible");
    assert.match(slow.message, /did not answer in time/);
  });
});
