// The tokenizer worker's lean o200k_base counter (server/tokenizer/o200k-counter.ts) counts exactly what js-tiktoken's
// own encoder does (`getEncoding("o200k_base").encode(text, "all").length`): on a corpus of the texts count_tokens
// sees (prose, code, JSON, scripts other than Latin, emoji, whitespace runs, special tokens, long runs without
// spaces) and on generated strings of every Unicode range.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { getEncoding, type Tiktoken } from "js-tiktoken";
import { createO200kCounter, type TokenCountFn } from "../../../server/tokenizer/o200k-counter";

let reference: Tiktoken;
let count: TokenCountFn;
before(() => {
  reference = getEncoding("o200k_base");
  count = createO200kCounter();
});
const expected = (text: string) => reference.encode(text, "all").length;

const CORPUS = [
  "",
  "hello world",
  "The quick brown fox jumps over the lazy dog. ".repeat(40),
  "function add(a: number, b: number): number {\n  return a + b; // sum\n}\n\n\texport default add;\r\n",
  JSON.stringify({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: "Hi!" }], max_tokens: 1024 }),
  "Ünïcödé façade naïve coöperate — “quotes” ‘single’ … résumé",
  "日本語のテキストと中文文本，以及한국어 텍스트。",
  "Русский текст и ελληνικά και עברית ومعها العربية",
  "emoji 👩‍👩‍👧‍👦 🏳️‍🌈 🇫🇷 👍🏽 and a lone surrogate \ud800 here",
  "spaces    between\n\n\n\nnewlines\t\t\ttabs   \n  trailing   ",
  "<|endoftext|>before<|endofprompt|> after <|endoftext|><|endoftext|>",
  "a".repeat(300),
  "x".repeat(64) + "1234567890".repeat(10) + "!!!???...".repeat(5),
  "I'm you're they'll we've she'd IT'S WE'RE",
  "https://example.com/path?query=1&other=two#frag user@example.org 127.0.0.1:8080",
];

test("the corpus counts exactly as js-tiktoken's o200k_base", () => {
  for (const text of CORPUS) assert.equal(count(text), expected(text), JSON.stringify(text.slice(0, 60)));
});

test("generated strings of every Unicode range count exactly as js-tiktoken's o200k_base", () => {
  const texts = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc
      .array(fc.constantFrom("a", " ", "\n", "é", "日", "👍", "<|endoftext|>", "'s", "1", "."), { maxLength: 60 })
      .map((parts) => parts.join("")),
  );
  fc.assert(
    fc.property(texts, (text) => count(text) === expected(text)),
    { numRuns: 400 },
  );
});
