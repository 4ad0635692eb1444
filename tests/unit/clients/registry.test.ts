// Client names on the command line: lookup by id or alias, and "Did you mean" for a near miss (issue 21 item 3.7).
import { test } from "node:test";
import assert from "node:assert/strict";
import { findClient, suggestClient, unknownClientMessage } from "../../../server/clients/registry";

test("findClient takes ids and aliases in any case", () => {
  assert.equal(findClient("Claude")?.id, "claude-code");
  assert.equal(findClient("codex")?.id, "codex");
  assert.equal(findClient("claud"), undefined);
});

test("a near miss gets a suggestion; an unrelated name does not", () => {
  assert.equal(suggestClient("claud"), "claude");
  assert.equal(suggestClient("cladue"), "claude");
  assert.equal(suggestClient("codx"), "codex");
  assert.equal(suggestClient("open"), "opencode");
  assert.equal(suggestClient("vim"), null);
  assert.equal(suggestClient(""), null);
  assert.equal(
    unknownClientMessage("claud"),
    'Unknown client "claud". Did you mean "claude"? Supported: claude (claude-code), codex, opencode, copilot, claude-desktop.',
  );
  assert.match(unknownClientMessage("vim"), /^Unknown client "vim"\. Supported: /);
  // Only names the command accepts are suggested.
  assert.equal(
    suggestClient("opencod", (c) => c.id !== "opencode"),
    null,
  );
});
