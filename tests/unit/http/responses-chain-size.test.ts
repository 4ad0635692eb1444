// Issue 21 item 6: a `previous_response_id` chain costs disk in proportion to its turns, not their square. Runs a
// 150-turn chain through the real Responses route (scripted backend) and prints the bytes on disk after 50, 100 and
// 150 turns; each record holds only what its turn added, so 150 turns take about 3 × the bytes of 50.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { MODEL, startUnitServer, textAnswer, type UnitServer } from "./fakes";

let server: UnitServer;

before(async () => {
  server = await startUnitServer({ commitAfterMs: 10 });
});
after(() => server.close());

/** Bytes of every file under `dir` (apparent sizes). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
  return total;
}

/** ~200 characters of a user turn, ~300 of an answer: a short chat. */
const QUESTION = "Tell me one more thing about the history of the city, briefly. ".repeat(3);
const ANSWER = "Here is one more thing about the city's history, told briefly as asked. ".repeat(4);

describe("a long previous_response_id chain on disk", () => {
  test("150 turns take about 3 × the bytes of 50 (linear, not quadratic)", async (t) => {
    let previous: string | null = null;
    const at: Record<number, number> = {};
    for (let turn = 1; turn <= 150; turn++) {
      server.backend.script = () => textAnswer(`${turn}: ${ANSWER}`);
      const res = await server.call("/v1/responses", {
        method: "POST",
        body: JSON.stringify({ model: MODEL, input: `${turn}: ${QUESTION}`, previous_response_id: previous }),
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { id: string; store: boolean };
      assert.equal(body.store, true);
      previous = body.id;
      if (turn % 50 === 0) at[turn] = bytesUnder(path.join(server.responsesDir, "responses"));
    }
    t.diagnostic(`bytes on disk: 50 turns ${at[50]}, 100 turns ${at[100]}, 150 turns ${at[150]}`);
    const items = (await (await server.call(`/v1/responses/${previous}/input_items?limit=100&order=asc`)).json()) as {
      data: Array<{ content: unknown }>;
      has_more: boolean;
    };
    assert.equal(items.data.length, 100);
    assert.equal(items.has_more, true, "the whole conversation (299 items) is listed");
    assert.ok(at[150]! < 3 * at[50]! * 1.2, `150 turns: ${at[150]} bytes, 50 turns: ${at[50]} bytes`);
  });
});
