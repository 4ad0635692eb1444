// Issue 21 item 4.3: a response whose record cannot be written (disk full) is never answered with `store: true`:
// the JSON body or the stream's terminal event says `store: false`, a warning says why, and the id is not found later.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import writeFileAtomic from "write-file-atomic";
import { MODEL, startUnitServer, textAnswer, type UnitServer } from "./fakes";

let server: UnitServer;
const disk = { full: false };

before(async () => {
  server = await startUnitServer({
    commitAfterMs: 10,
    responseWriter: async (file, text) => {
      if (disk.full) throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      await writeFileAtomic(file, text, { mode: 0o600 });
    },
  });
  server.backend.script = () => textAnswer("hello");
});
after(() => server.close());

/** The `data:` payloads of an SSE body, parsed. */
function events(text: string): Array<{ type: string; response?: { id: string; store: boolean } }> {
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)) as { type: string; response?: { id: string; store: boolean } });
}

describe("stored responses when the disk fails", () => {
  test("a healthy disk: store true, and the response can be read back", async () => {
    disk.full = false;
    const res = await server.call("/v1/responses", {
      method: "POST",
      body: JSON.stringify({ model: MODEL, input: "hi" }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { id: string; store: boolean };
    assert.equal(body.store, true);
    assert.equal((await server.call(`/v1/responses/${body.id}`)).status, 200);
  });

  test("JSON: a failed write answers store false with a warning, and the id is not found", async () => {
    disk.full = true;
    const res = await server.call("/v1/responses", {
      method: "POST",
      body: JSON.stringify({ model: MODEL, input: "hi" }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { id: string; store: boolean; output: unknown[] };
    assert.equal(body.store, false);
    assert.ok(body.output.length > 0, "the answer itself is intact");
    assert.match(res.headers.get("x-patchbay-warnings") ?? "", /could not be stored \(the disk is full \(ENOSPC\)\)/);
    assert.doesNotMatch(res.headers.get("x-patchbay-warnings") ?? "", /\//, "no path in the warning");
    disk.full = false;
    assert.equal((await server.call(`/v1/responses/${body.id}`)).status, 404);
    assert.match(server.log.entries.at(-2)?.warnings?.join(" ") ?? "", /could not be stored/);
  });

  test("stream: the terminal event says store false; the log entry carries the warning", async () => {
    disk.full = true;
    const res = await server.call("/v1/responses", {
      method: "POST",
      body: JSON.stringify({ model: MODEL, input: "hi", stream: true }),
    });
    assert.equal(res.status, 200);
    const all = events(await res.text());
    const done = all.find((e) => e.type === "response.completed");
    assert.ok(done?.response, "a response.completed event");
    assert.equal(done.response.store, false);
    disk.full = false;
    assert.equal((await server.call(`/v1/responses/${done.response.id}`)).status, 404);
    assert.match(server.log.entries.at(-2)?.warnings?.join(" ") ?? "", /could not be stored/);
  });
});
