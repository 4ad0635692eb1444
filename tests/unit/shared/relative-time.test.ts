// relativeTime: past and future moments read as people say them (the Overview's "next sleep in 7 min" was "just now").
import { test } from "node:test";
import assert from "node:assert/strict";
import { relativeTime } from "../../../shared/relative-time";

const NOW = Date.UTC(2026, 11, 5, 12);
const S = 1000;

test("past: just now, minutes, hours, then null for a date", () => {
  assert.equal(relativeTime(NOW, NOW), "just now");
  assert.equal(relativeTime(NOW - 44 * S, NOW), "just now");
  assert.equal(relativeTime(NOW - 50 * S, NOW), "1 min ago");
  assert.equal(relativeTime(NOW - 5 * 60 * S, NOW), "5 min ago");
  assert.equal(relativeTime(NOW - 3 * 3600 * S, NOW), "3 h ago");
  assert.equal(relativeTime(NOW - 2 * 86_400 * S, NOW), null);
});

test("future: in under a minute, in N min, in N h, then null", () => {
  assert.equal(relativeTime(NOW + 10 * S, NOW), "in under a minute");
  assert.equal(relativeTime(NOW + 7 * 60 * S, NOW), "in 7 min");
  assert.equal(relativeTime(NOW + 2 * 3600 * S, NOW), "in 2 h");
  assert.equal(relativeTime(NOW + 3 * 86_400 * S, NOW), null);
});
