// Schemas of the agent check rows (`/admin/api/doctor`): the dashboard's Connect page runs the same check as
// `patchbay doctor` (server/doctor/run-doctor.ts) in the background and polls its state. A row of the results is
// exactly what `patchbay doctor --json` prints per client. No Node, no DOM.
import { z } from "zod";

/** Agent CLIs doctor knows how to run headless, in table order (server/doctor/checks.ts is keyed by these). */
export const DOCTOR_CLIENT_IDS = ["claude-code", "codex", "copilot"] as const;
/** One of {@link DOCTOR_CLIENT_IDS}. */
export const DoctorClientId = z.enum(DOCTOR_CLIENT_IDS);
export type DoctorClientId = z.infer<typeof DoctorClientId>;

/** Display names (the clients' own, as in server/clients). */
export const DOCTOR_CLIENT_NAMES: Readonly<Record<DoctorClientId, string>> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  copilot: "GitHub Copilot CLI",
};

/** Body of `POST /admin/api/doctor`: which clients to check (default: every installed one doctor knows). */
export const DoctorStartBody = z.strictObject({
  clients: z.array(DoctorClientId).min(1).max(DOCTOR_CLIENT_IDS.length).optional(),
});
export type DoctorStartBody = z.infer<typeof DoctorStartBody>;

/** One check's outcome. */
export const DoctorCheckResult = z.object({
  id: z.enum(["plain", "tool", "image"]),
  /** Column title (`plain prompt`, `tool round trip`, `image`). */
  title: z.string(),
  ok: z.boolean(),
  /** Why it failed: the refused request and Patchbay's reason, or what the client did; null when ok. */
  detail: z.string().nullable(),
});
export type DoctorCheckResult = z.infer<typeof DoctorCheckResult>;

/** One client's row (`patchbay doctor --json`'s `clients[]`). */
export const DoctorClientResult = z.object({
  /** Client id (one of {@link DOCTOR_CLIENT_IDS}). */
  client: z.string(),
  name: z.string(),
  /** The executable checked. */
  bin: z.string(),
  /** `--version`'s version, null when it printed none. */
  version: z.string().nullable(),
  checks: z.array(DoctorCheckResult),
  /** Why this client has no image check; null when `checks` has one. */
  image: z.string().nullable(),
  ok: z.boolean(),
  /** The last version whose checks all passed (after this run). */
  lastPassedVersion: z.string().nullable(),
});
export type DoctorClientResult = z.infer<typeof DoctorClientResult>;

/** Where a run stands: none since Patchbay started, going on, finished (results, maybe failed checks), or broken
 *  (the throwaway Patchbay did not start, …: `error`). */
export const DoctorRunState = z.enum(["idle", "running", "done", "failed"]);
export type DoctorRunState = z.infer<typeof DoctorRunState>;

/** The last (or current) agent check of this Patchbay. */
export const DoctorRun = z.object({
  state: DoctorRunState,
  /** The clients asked for; null: every installed one. */
  clients: z.array(DoctorClientId).nullable(),
  /** Progress lines so far, oldest first (the CLI prints the same on stderr). */
  progress: z.array(z.string()),
  /** One row per installed client checked, once the run is done (empty: none of them is installed). */
  results: z.array(DoctorClientResult),
  /** Epoch ms; null while idle. */
  startedAt: z.number().int().nullable(),
  finishedAt: z.number().int().nullable(),
  /** Why the run itself failed (state `failed`), else null. */
  error: z.string().nullable(),
});
export type DoctorRun = z.infer<typeof DoctorRun>;
