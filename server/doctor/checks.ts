// What `patchbay doctor` asks each agent CLI to do, headless, against Patchbay's scripted demo model (`demo/echo`,
// server/demo/upstream.ts): it answers "You said: …" to a plain prompt and calls a tool only when asked for it by
// name ("use the Bash tool"), with harmless arguments (`echo demo`, or the absolute path the prompt names), then
// answers "The tool answered: …"; given an image it answers "I see an image: image/png, …". So a check passes when the
// client's output carries that answer. The image check has the client read a PNG with its own file tool (Claude Code's
// Read, Codex's view_image): the image goes back in a tool result, which Patchbay moves into a user message. Pure.
import { DOCTOR_CLIENT_IDS, type DoctorClientId } from "../../shared/admin/doctor";

/** One check: the arguments after the launch plan's, and the text the client's output must contain. */
export interface DoctorCheck {
  id: "plain" | "tool" | "image";
  /** Column title. */
  title: string;
  args: string[];
  expect: RegExp;
}

/**
 * `codex exec <prompt>` run headless against a local Patchbay: no git repository needed, telemetry and update checks
 * off as `-c` overrides (the user's config.toml stays as it is). `bypassSandbox`: Codex runs the model's commands
 * without approval prompts or its sandbox (which may be unavailable in a throwaway home). `extra` goes before the
 * prompt (more `-c` overrides, `-m <model>`). Also the tests' builder (tests/harness/agent-cli.ts).
 */
export function codexExecArgs(prompt: string, opts: { bypassSandbox?: boolean; extra?: string[] } = {}): string[] {
  return [
    "exec",
    "--skip-git-repo-check",
    "-c",
    "analytics.enabled=false",
    "-c",
    'otel.exporter="none"',
    "-c",
    "check_for_update_on_startup=false",
    ...(opts.bypassSandbox ? ["--dangerously-bypass-approvals-and-sandbox"] : []),
    ...(opts.extra ?? []),
    prompt,
  ];
}

/** How one client runs a prompt headless (with tools allowed or not), the name its shell tool goes by, and the tool
 *  that reads an image file into the conversation (null: doctor has no headless way to send this client an image). */
interface ClientChecks {
  headless: (prompt: string, tools: boolean) => string[];
  tool: string;
  imageTool: string | null;
}

/** The checks of each client doctor knows (keyed by the shared list, so the dashboard offers the same ones). */
const CLIENT_CHECKS: Record<DoctorClientId, ClientChecks> = {
  "claude-code": {
    // `-p`: print mode; the Bash tool allowed without a prompt (it runs `echo demo`).
    headless: (prompt, tools) => ["-p", prompt, ...(tools ? ["--allowedTools", "Bash,Read"] : [])],
    tool: "Bash",
    imageTool: "Read",
  },
  codex: {
    // The demo's shell command is `echo demo`; Codex's sandbox may be unavailable in a throwaway home.
    headless: (prompt, tools) => codexExecArgs(prompt, { bypassSandbox: tools }),
    tool: "exec_command",
    imageTool: "view_image",
  },
  copilot: {
    headless: (prompt, tools) => ["-p", prompt, "--no-color", ...(tools ? ["--allow-all-tools"] : [])],
    tool: "bash",
    imageTool: null,
  },
};

/** Why a client has no image check (the table's note and `image` in `--json`). */
export const NO_IMAGE_CHECK = "doctor has no headless way to give this client an image";

/** Ids of the clients doctor checks, in table order. */
export const DOCTOR_CLIENTS: readonly string[] = DOCTOR_CLIENT_IDS;

/** The checks for client `id` (empty when doctor does not check it). `imagePath`: an absolute path of a PNG doctor
 *  wrote for the image check (no image check without it, or when the client has no image tool). */
export function doctorChecks(id: string, imagePath?: string): DoctorCheck[] {
  if (!DOCTOR_CLIENTS.includes(id)) return [];
  const c = CLIENT_CHECKS[id as DoctorClientId];
  const image: DoctorCheck[] =
    c.imageTool && imagePath
      ? [
          {
            id: "image",
            title: "image",
            args: c.headless(`Please use the ${c.imageTool} tool on ${imagePath}`, true),
            expect: /I see an image/,
          },
        ]
      : [];
  return [
    { id: "plain", title: "plain prompt", args: c.headless("Say hello to the doctor", false), expect: /You said/ },
    {
      id: "tool",
      title: "tool round trip",
      args: c.headless(`Please use the ${c.tool} tool`, true),
      expect: /The tool answered/,
    },
    ...image,
  ];
}
