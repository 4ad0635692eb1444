// inlineRemoteImages: refusal when remote images are off (param + dashboard hint), data: URLs untouched, replacement,
// de-duplication, bounded concurrency, first-failure abort, total-size cap, and the default fetcher on 127.0.0.1.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import type { ContentPart, NeutralMessage, NeutralRequest } from "../../../server/core/contract";
import { PatchbayError } from "../../../server/core/errors";
import { inlineRemoteImages, type RemoteImageFetcher } from "../../../server/security/inline-images";
import { neutralRequest } from "../../harness/neutral-fixtures";
import { PNG_1X1, startLoopbackServer } from "./loopback-server";

const DATA_URL = `data:image/png;base64,${PNG_1X1.toString("base64")}`;

function request(messages: NeutralMessage[]): NeutralRequest {
  return neutralRequest({ model: "m", system: ["be brief"], messages, stream: false, includeUsage: false });
}

const text = (t: string): ContentPart => ({ type: "text", text: t });
const media = (url: string, extra: Partial<Extract<ContentPart, { type: "media" }>> = {}): ContentPart => ({
  type: "media",
  mediaType: "image/*",
  url,
  ...extra,
});

/** A fetcher that returns a fixed small image and records calls. */
function fakeFetcher(): { fetcher: RemoteImageFetcher; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetcher: async (url) => {
      calls.push(url);
      return {
        mediaType: "image/webp",
        dataUrl: `data:image/webp;base64,${Buffer.from(url).toString("base64")}`,
        bytes: url.length,
        finalUrl: url,
      };
    },
  };
}

async function caught(promise: Promise<unknown>): Promise<PatchbayError> {
  let error: unknown;
  await assert.rejects(promise, (err: unknown) => {
    error = err;
    return true;
  });
  assert.ok(error instanceof PatchbayError, `expected PatchbayError, got ${String(error)}`);
  return error;
}

describe("inlineRemoteImages", () => {
  test("returns the same request when every media URL is a data: URL", async () => {
    const { fetcher, calls } = fakeFetcher();
    const req = request([
      { role: "user", content: [text("look"), media(DATA_URL)] },
      { role: "assistant", content: [media(DATA_URL.replace("data:", "DATA:"))], toolCalls: [] },
      { role: "tool", toolCallId: "c1", content: "https://example.com/not-a-media-part.png" },
    ]);
    const out = await inlineRemoteImages(req, { allowed: false, fetcher });
    assert.equal(out, req);
    assert.deepEqual(calls, []);
  });

  test("refuses an http(s) URL when remote images are off: 400, neutral param, dashboard hint, nothing fetched", async () => {
    const { fetcher, calls } = fakeFetcher();
    const req = request([
      { role: "user", content: [text("first")] },
      { role: "user", content: [text("a"), media(DATA_URL), media("https://images.example.com/cat.png?sig=SECRET")] },
    ]);
    const err = await caught(inlineRemoteImages(req, { allowed: false, fetcher }));
    assert.equal(err.status, 400);
    assert.equal(err.code, "invalid_request_error");
    assert.equal(err.param, "messages[1].content[2]");
    assert.match(err.message, /data URL/);
    assert.match(err.message, /"Remote images"/);
    assert.match(err.message, /Patchbay dashboard/);
    assert.ok(!err.message.includes("SECRET"));
    assert.deepEqual(calls, []);
  });

  test("names the client's field from the part's own param, and keeps it on the inlined part", async () => {
    const part = { ...media("http://example.com/a.png"), param: "messages[1].content[0]" };
    const req = request([{ role: "assistant", content: [part], toolCalls: [] }]);
    const err = await caught(inlineRemoteImages(req, { allowed: false }));
    assert.equal(err.param, "messages[1].content[0]");
    const { fetcher } = fakeFetcher();
    const out = await inlineRemoteImages(req, { allowed: true, fetcher });
    const inlined = out.messages[0]?.role === "assistant" ? out.messages[0].content[0] : undefined;
    assert.equal(inlined?.type === "media" && inlined.param, "messages[1].content[0]");
  });

  test("refuses other schemes even when remote images are on", async () => {
    const { fetcher, calls } = fakeFetcher();
    for (const url of ["file:///etc/passwd", "ftp://example.com/a.png", "javascript:alert(1)"]) {
      const err = await caught(
        inlineRemoteImages(request([{ role: "user", content: [media(url)] }]), { allowed: true, fetcher }),
      );
      assert.equal(err.status, 400);
      assert.equal(err.param, "messages[0].content[0]");
    }
    assert.deepEqual(calls, []);
  });

  test("when allowed, replaces http(s) URLs by data URLs (fetched media type, filename kept), once per distinct URL, without mutating the input", async () => {
    const { fetcher, calls } = fakeFetcher();
    const a = "https://images.example.com/a.png";
    const b = "http://images.example.com/b.png";
    const req = request([
      { role: "user", content: [text("x"), media(a, { filename: "a.png" }), media(DATA_URL)] },
      { role: "assistant", content: [media(b)], toolCalls: [{ id: "t", name: "f", arguments: "{}" }] },
      { role: "tool", toolCallId: "t", content: "ok" },
      { role: "user", content: [media(a)] },
    ]);
    const snapshot = structuredClone(req);
    const out = await inlineRemoteImages(req, { allowed: true, fetcher });
    assert.deepEqual(req, snapshot, "input not mutated");
    assert.deepEqual([...calls].sort(), [a, b].sort());
    const dataFor = (url: string): string => `data:image/webp;base64,${Buffer.from(url).toString("base64")}`;
    assert.deepEqual(out.messages[0], {
      role: "user",
      content: [
        text("x"),
        { type: "media", mediaType: "image/webp", url: dataFor(a), filename: "a.png" },
        media(DATA_URL),
      ],
    });
    assert.deepEqual(out.messages[1], {
      role: "assistant",
      content: [{ type: "media", mediaType: "image/webp", url: dataFor(b) }],
      toolCalls: [{ id: "t", name: "f", arguments: "{}" }],
    });
    assert.deepEqual(out.messages[2], req.messages[2]);
    assert.deepEqual(out.messages[3], {
      role: "user",
      content: [{ type: "media", mediaType: "image/webp", url: dataFor(a) }],
    });
    assert.deepEqual(out.system, req.system);
  });

  test("fetches with bounded concurrency (default 4)", async () => {
    let inFlight = 0;
    let peak = 0;
    const fetcher: RemoteImageFetcher = async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 10));
      inFlight--;
      return { mediaType: "image/png", dataUrl: DATA_URL, bytes: 1, finalUrl: "https://img.test/a.png" };
    };
    const urls = Array.from({ length: 10 }, (_, i) => `https://img.example.com/${i}.png`);
    const out = await inlineRemoteImages(request([{ role: "user", content: urls.map((u) => media(u)) }]), {
      allowed: true,
      fetcher,
    });
    assert.equal(peak, 4);
    assert.ok(
      out.messages[0]?.role === "user" &&
        out.messages[0].content.every((p) => p.type === "media" && p.url === DATA_URL),
    );

    peak = 0;
    await inlineRemoteImages(request([{ role: "user", content: urls.map((u) => media(u)) }]), {
      allowed: true,
      fetcher,
      concurrency: 2,
    });
    assert.equal(peak, 2);
  });

  test("the first failure aborts the other fetches and is thrown", async () => {
    const aborted: string[] = [];
    const failure = new PatchbayError("unsupported_media_type", "not an image", { param: "messages[0].content[1]" });
    const fetcher: RemoteImageFetcher = (url, { signal }) =>
      new Promise((resolve, reject) => {
        if (url.endsWith("/bad.png")) {
          setTimeout(() => reject(failure), 5);
          return;
        }
        signal.addEventListener("abort", () => {
          aborted.push(url);
          reject(signal.reason);
        });
      });
    const urls = [
      "https://x.example/slow1.png",
      "https://x.example/bad.png",
      "https://x.example/slow2.png",
      "https://x.example/queued.png",
      "https://x.example/queued2.png",
    ];
    const started = Date.now();
    const err = await caught(
      inlineRemoteImages(request([{ role: "user", content: urls.map((u) => media(u)) }]), {
        allowed: true,
        fetcher,
        concurrency: 3,
      }),
    );
    assert.equal(err, failure);
    assert.deepEqual(aborted.sort(), ["https://x.example/slow1.png", "https://x.example/slow2.png"]);
    assert.ok(Date.now() - started < 1_000);
  });

  test("refuses when fetched images add up to more than maxTotalBytes: 413", async () => {
    const fetcher: RemoteImageFetcher = async () => ({
      mediaType: "image/png",
      dataUrl: DATA_URL,
      bytes: 600,
      finalUrl: "https://img.test/a.png",
    });
    const urls = ["https://x.example/1.png", "https://x.example/2.png"];
    const err = await caught(
      inlineRemoteImages(request([{ role: "user", content: urls.map((u) => media(u)) }]), {
        allowed: true,
        fetcher,
        maxTotalBytes: 1000,
      }),
    );
    assert.equal(err.status, 413);
    assert.equal(err.code, "payload_too_large");
  });

  test("the caller's signal aborts pending fetches", async () => {
    const controller = new AbortController();
    const reason = new Error("client disconnected");
    const fetcher: RemoteImageFetcher = (_url, { signal }) =>
      new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    setTimeout(() => controller.abort(reason), 20);
    await assert.rejects(
      inlineRemoteImages(request([{ role: "user", content: [media("https://x.example/a.png")] }]), {
        allowed: true,
        fetcher,
        signal: controller.signal,
      }),
      (err: unknown) => err === reason,
    );
  });

  describe("default fetcher", () => {
    test("fetches from a test server (127.0.0.1 permitted through fetchOptions.allowAddress)", async () => {
      const server = await startLoopbackServer((_req, res) => {
        res.writeHead(200, { "content-type": "image/png" }).end(PNG_1X1);
      });
      try {
        const req = request([{ role: "user", content: [text("hi"), media(`${server.origin}/red.png`)] }]);
        const out = await inlineRemoteImages(req, {
          allowed: true,
          fetchOptions: { allowAddress: (ip) => ip === "127.0.0.1" },
        });
        assert.deepEqual(out.messages[0], {
          role: "user",
          content: [text("hi"), { type: "media", mediaType: "image/png", url: DATA_URL }],
        });
        assert.deepEqual(server.hits, ["/red.png"]);
      } finally {
        await server.close();
      }
    });

    test("with the default address policy, a loopback URL is refused with the part's param and never requested", async () => {
      const server = await startLoopbackServer((_req, res) => {
        res.writeHead(200, { "content-type": "image/png" }).end(PNG_1X1);
      });
      try {
        const req = request([
          { role: "user", content: [text("hi")] },
          { role: "user", content: [media(DATA_URL), media(`${server.origin}/red.png`)] },
        ]);
        const err = await caught(inlineRemoteImages(req, { allowed: true }));
        assert.equal(err.status, 400);
        assert.equal(err.param, "messages[1].content[1]");
        assert.match(err.message, /private, loopback/);
        assert.deepEqual(server.hits, []);
      } finally {
        await server.close();
      }
    });
  });
});
