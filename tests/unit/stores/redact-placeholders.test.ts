// The log's redactor and placeholders (issue 21 §3.7): Patchbay's own help text ("Send 'Authorization: Bearer <key>'")
// and shell lines with `$KEY` stay readable in the log; real tokens are still redacted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { redactString } from "../../../server/stores/redact";

test("placeholders after Bearer are kept, tokens are not", () => {
  const help =
    "Missing API key. Send 'Authorization: Bearer <key>' (or 'x-api-key: <key>') with a key created for your app.";
  assert.equal(redactString(help), help);
  assert.equal(redactString('-H "Authorization: Bearer $PATCHBAY_KEY"'), '-H "Authorization: Bearer $PATCHBAY_KEY"');
  assert.equal(redactString("Authorization: Bearer ${KEY}"), "Authorization: Bearer ${KEY}");
  assert.equal(redactString("Authorization: Bearer abc.def-123"), "Authorization: Bearer [redacted]");
  assert.equal(redactString("bearer pb-0123456789abcdefgh"), "bearer [redacted]");
});
