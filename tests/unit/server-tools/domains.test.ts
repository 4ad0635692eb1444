// domainAllowed: Anthropic's domain rule for the web search / fetch server tools' allowed_domains and blocked_domains.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ServerToolSpec } from "../../../server/core/contract";
import { domainAllowed } from "../../../server/server-tools/execute";

const spec = (extra: Partial<ServerToolSpec>): ServerToolSpec => ({ kind: "web_fetch", name: "web_fetch", ...extra });

test("a listed domain covers itself and its subdomains, by host only; scheme, case and a trailing dot do not matter", () => {
  const blocked = spec({ blockedDomains: ["HTTPS://Evil.test./docs/*"] });
  for (const host of ["evil.test", "api.evil.test", "EVIL.TEST."]) assert.equal(domainAllowed(host, blocked), false);
  for (const host of ["notevil.test", "evil.test.example"]) assert.equal(domainAllowed(host, blocked), true);
  const allowed = spec({ allowedDomains: ["docs.example.test"] });
  assert.equal(domainAllowed("docs.example.test", allowed), true);
  assert.equal(domainAllowed("example.test", allowed), false);
});

test("an internationalised domain matches the punycode host URLs carry", () => {
  const host = new URL("https://www.bücher.test/").hostname;
  assert.equal(host, "www.xn--bcher-kva.test");
  assert.equal(domainAllowed(host, spec({ blockedDomains: ["bücher.test"] })), false);
  assert.equal(domainAllowed(host, spec({ allowedDomains: ["bücher.test"] })), true);
});
