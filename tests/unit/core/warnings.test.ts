// Typed warnings (server/core/warnings.ts) and their one way out (server/http/model-run/warnings.ts): the text of a
// warning, a layer naming a thing once, and the x-patchbay-warnings header rules (order kept, printable ASCII, 2000
// characters, no deduplication across layers).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { WarningList, formatWarning, warn } from "../../../server/core/warnings";
import { formatWarningsHeader, logWarnings } from "../../../server/http/model-run/warnings";

describe("typed warnings", () => {
  test("constructors set the kind; `ignored` words its text from the param by default", () => {
    assert.deepEqual(warn.ignored("logit_bias"), {
      kind: "ignored",
      param: "logit_bias",
      detail: "logit_bias ignored",
    });
    assert.deepEqual(warn.dropped("top_k", "top_k dropped: x"), {
      kind: "dropped",
      param: "top_k",
      detail: "top_k dropped: x",
    });
    assert.equal(warn.approximated("tool_choice", "t").kind, "approximated");
    assert.equal(warn.unsupported("include", "i").kind, "unsupported");
    assert.equal(formatWarning(warn.dropped("top_k", "top_k dropped: x")), "top_k dropped: x");
  });

  test("a layer's list keeps the first of equal texts and the order found", () => {
    const list = new WarningList();
    list.add(warn.dropped("a", "A"));
    list.add(warn.ignored("b"));
    list.add(warn.dropped("a[]", "A"));
    assert.deepEqual(list.list.map(formatWarning), ["A", "b ignored"]);
    assert.equal(list.list[0]!.param, "a");
  });
});

describe("the x-patchbay-warnings header and the log field", () => {
  test("none → no header; else the texts in order, `; `-joined, the log the same texts", () => {
    assert.equal(formatWarningsHeader([]), null);
    const ws = [warn.ignored("logit_bias"), warn.dropped("top_k", "top_k dropped: x")];
    assert.equal(formatWarningsHeader(ws), "logit_bias ignored; top_k dropped: x");
    assert.deepEqual(logWarnings(ws), ["logit_bias ignored", "top_k dropped: x"]);
  });

  test("no deduplication: the same text from two layers would show twice (no layer may repeat another's)", () => {
    const w = warn.ignored("tool_choice", "same");
    assert.equal(formatWarningsHeader([w, w]), "same; same");
  });

  test("outside printable ASCII becomes `?`; at most 2000 characters", () => {
    assert.equal(formatWarningsHeader([warn.dropped("x", "mystère\n")]), "myst?re?");
    assert.equal(formatWarningsHeader([warn.dropped("x", "y".repeat(3000))])!.length, 2000);
  });

  test("our own typography is spelled in ASCII: … → ..., dashes, quotes, arrows", () => {
    assert.equal(
      formatWarningsHeader([warn.dropped("x", 'sent as {"_raw": …} – “quoted” ‘x’ → y — 2× z')]),
      `sent as {"_raw": ...} - "quoted" 'x' -> y - 2x z`,
    );
  });
});
