// Session titles from the user's own words (issue 21 §3.2): injected blocks of Claude Code and Codex left out, no
// `patchbay:` prefix, cut at a word boundary.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { NeutralMessage } from "../../../server/core/contract";
import {
  conversationTitle,
  cutAtWord,
  displayTitle,
  ownWords,
  requestTitle,
  TITLE_MAX,
} from "../../../server/conversations/session-title";

const user = (...texts: string[]): NeutralMessage => ({
  role: "user",
  content: texts.map((text) => ({ type: "text", text })),
});
const assistant = (text: string): NeutralMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  toolCalls: [],
});

/** What Claude Code 2.x sends as its first user message: reminders as their own blocks, then the prompt. */
const CLAUDE_FIRST = user(
  "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nAttribution for git commits and pull requests…\n</system-reminder>",
  "Fix the flaky test in parser.spec.ts",
  "<system-reminder>The TodoWrite tool hasn't been used recently.</system-reminder>",
);

describe("session titles", () => {
  test("Claude Code: the prompt, not the system reminders", () => {
    assert.equal(requestTitle([CLAUDE_FIRST]), "Fix the flaky test in parser.spec.ts");
  });

  test("reminders inline in the same text part are left out too", () => {
    assert.equal(
      ownWords("<system-reminder>x\ny</system-reminder>\nRename foo to bar <system-reminder>z</system-reminder>"),
      "Rename foo to bar",
    );
  });

  test("Codex: environment context and AGENTS.md instructions are not the user's words", () => {
    const msgs = [
      user("# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nUse pnpm.\n</INSTRUCTIONS>"),
      user("<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"),
      user("add a --json flag to the list command"),
    ];
    assert.equal(requestTitle(msgs), "add a --json flag to the list command");
    assert.equal(conversationTitle(msgs), "add a --json flag to the list command");
  });

  test("any text part that is one tag block is an agent's note", () => {
    assert.equal(ownWords('<some-new-note attr="1">\nbody\n</some-new-note>'), "");
    assert.equal(ownWords("use <b>bold</b> here"), "use <b>bold</b> here", "markup inside a sentence stays");
  });

  test("a request's title is its newest own words; a conversation's is its first", () => {
    const msgs = [CLAUDE_FIRST, assistant("Done."), user("<system-reminder>r</system-reminder>", "now run the linter")];
    assert.equal(requestTitle(msgs), "now run the linter");
    assert.equal(conversationTitle(msgs), "Fix the flaky test in parser.spec.ts");
  });

  test("only tool results and injected context: no title", () => {
    const msgs: NeutralMessage[] = [
      user("<system-reminder>r</system-reminder>"),
      { role: "tool", toolCallId: "call_1", content: "42" },
    ];
    assert.equal(requestTitle(msgs), null);
    assert.equal(conversationTitle(msgs), null);
  });

  test("long text is cut at a word boundary with an ellipsis, within the limit", () => {
    const long = "Please refactor the session pool so that pre-created sessions expire after a while and are replaced";
    const t = cutAtWord(long);
    assert.ok(t.length <= TITLE_MAX, t);
    assert.ok(t.endsWith("…"), t);
    const head = t.slice(0, -1);
    assert.ok(long.startsWith(head), t);
    assert.equal(long[head.length], " ", `cut before a space: ${JSON.stringify(t)}`);
    assert.equal(cutAtWord("short\n  text"), "short text", "one line, spaces collapsed");
    assert.equal(cutAtWord("x".repeat(200)).length, TITLE_MAX, "one long word is cut where it must be");
  });

  test("old titles are shown without the patchbay: prefix", () => {
    assert.equal(displayTitle("patchbay: What is 2+2?"), "What is 2+2?");
    assert.equal(displayTitle("What is 2+2?"), "What is 2+2?");
  });
});
