// Assertions for decoder tests: a call must throw a 400 PatchbayError naming the expected field. Test-only.
import assert from "node:assert/strict";
import { PatchbayError } from "../../../../server/core/errors";
import type { ErrorCode } from "../../../../shared/errors";

export interface Expected400 {
  param: string | null;
  code?: ErrorCode;
  message?: RegExp;
}

/** Asserts `fn` throws a 400 PatchbayError with `param` (and `code`/`message` when given). */
export function assert400(fn: () => unknown, expected: Expected400): PatchbayError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(
    caught instanceof PatchbayError,
    `expected a PatchbayError, got ${caught === undefined ? "no error" : String(caught)}`,
  );
  assert.equal(caught.status, 400, `status for ${caught.message}`);
  assert.equal(caught.param, expected.param, `param for: ${caught.message}`);
  if (expected.code) assert.equal(caught.code, expected.code, `code for: ${caught.message}`);
  if (expected.message) assert.match(caught.message, expected.message);
  assert.ok(caught.message.length > 10, "the message says something");
  return caught;
}
